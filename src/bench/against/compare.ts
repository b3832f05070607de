// The arithmetic of `--against`: each figure is measured in pairs (the old tree, then the new one,
// back to back), so load that comes and goes touches both members of a pair alike. A figure's
// ratio is the median of its pairs' ratios new/old, and the pairs' spread is printed beside it: on
// a shared machine that spread is the noise a change must beat.

/** Which way a figure improves: a rate goes up, a time goes down. */
export type Better = "higher" | "lower";

/** One figure of one line, compared: what `--against` prints, one per row or JSON object. */
export interface Comparison {
  /** The bench line (kernel, explore, ...). */
  name: string;
  /** What was measured, with its unit ("events/s", "runs/s --jobs 1", "r10-hunt runs/s"). */
  figure: string;
  better: Better;
  /** The median of each tree's samples; null when that side could not be measured. */
  old: number | null;
  new: number | null;
  /** The median of the pairs' new/old ratios, and the smallest and largest of them. */
  ratio: number | null;
  ratioMin: number | null;
  ratioMax: number | null;
  oldSamples: number[];
  newSamples: number[];
  /** What else a reader needs: the slowest form's name, bare node's time, or why a side failed. */
  note?: string;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error("median of no samples");
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The geometric mean, for a summary over many figures of different sizes (the hunt forms). */
export function geomean(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error("geometric mean of no values");
  return Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length);
}

/**
 * Compares paired samples: oldSamples[i] and newSamples[i] were measured back to back. The
 * ratio is new/old whichever way the figure improves (for a time, below 1 is faster).
 */
export function compare(name: string, figure: string, better: Better, oldSamples: readonly number[], newSamples: readonly number[], note?: string): Comparison {
  if (oldSamples.length !== newSamples.length) throw new Error(`${name} ${figure}: ${oldSamples.length} old samples against ${newSamples.length} new`);
  if (oldSamples.length === 0) throw new Error(`${name} ${figure}: no samples`);
  const bad = [...oldSamples, ...newSamples].find((x) => !(Number.isFinite(x) && x > 0));
  if (bad !== undefined) throw new Error(`${name} ${figure}: a sample of ${String(bad)} (expected a positive figure)`);
  const ratios = oldSamples.map((o, i) => newSamples[i]! / o);
  return {
    name, figure, better,
    old: median(oldSamples), new: median(newSamples),
    ratio: median(ratios), ratioMin: Math.min(...ratios), ratioMax: Math.max(...ratios),
    oldSamples: [...oldSamples], newSamples: [...newSamples],
    ...(note === undefined ? {} : { note }),
  };
}

/** A figure one side could not give (the old tree lacks a form, or a run failed): no ratio, and why. */
export function unmeasured(name: string, figure: string, better: Better, why: string, oldSamples: readonly number[] = [], newSamples: readonly number[] = []): Comparison {
  return {
    name, figure, better,
    old: oldSamples.length === 0 ? null : median(oldSamples), new: newSamples.length === 0 ? null : median(newSamples),
    ratio: null, ratioMin: null, ratioMax: null,
    oldSamples: [...oldSamples], newSamples: [...newSamples], note: why,
  };
}
