// Guided's first runs as a covering design (issue 22). Boundary values
// (guided_knobs.ts) pick, per run and per knob, at random whether the knob takes a boundary and
// which; a t-way covering array instead lays out the first runs so that every pair (t = 2) or triple
// of (knob, value class) is tried in at least one of them: combinatorial interaction testing (Kuhn
// et al., "Software fault interactions and implications for software testing", IEEE TSE 2004; the
// greedy construction is AETG's, Cohen et al., IEEE TSE 1997: each new row the best of a few
// candidates, each built a factor at a time by the value that covers the most uncovered tuples).
//
// Which knobs: those with a near draw (a timeline step; a latency the file writes), the knobs the
// near draws found to matter; every other knob draws as a boundary-value run does. Classes
// ("merged", what guided takes): a boundary (which one drawn from the run's seed), the near draw,
// the ordinary draw; or ("split", measured too) the low end, the high end, a meeting point (a
// step's boundary that lands it on another instant), the near draw, the ordinary draw. Measured:
// docs/exploring.md, "Covering designs for the first runs (2026-11-29)".
//
// Deterministic: the array is a function of the knob space and the plan's seed (construction ties
// and the order of its rows), and a row's values of the run's seed, so run i is still a function of
// the plan and i.
import { Rng, streamSeed } from "../sim/rng.ts";
import { drawKnobs, type KnobDef, type Knobs, type KnobSpace, type KnobValue } from "./knobs.ts";
import { drawBoundaryKnobs } from "./guided_knobs.ts";

/** A knob's value class in a covering array's row. */
export type CoverClass = "ordinary" | "low" | "high" | "meet" | "near" | "boundary";

/** The stream a row's choices within a class come from (which meeting point), apart from the others. */
export const COVER_STREAM = "explore-cover";

/** At most this many knobs are factors of the array (steps first, then written latencies, in the space's order). */
export const COVER_MAX_FACTORS = 12;

export interface CoverOptions {
  /** The array's strength: every t-tuple of (knob, class) is in some row. */
  t: number;
  /** "split": low, high, meet, near, ordinary; "merged": boundary (any), near, ordinary. */
  classes: "split" | "merged";
  /** The array's rows this many times over, each pass in an order of its own (default 1). */
  passes?: number;
}

/** A knob's classes as a factor of the array, or null when it is not one (no near draw). */
export function coverClasses(def: KnobDef, classes: CoverOptions["classes"]): CoverClass[] | null {
  const at = def.boundaries;
  if (def.near === undefined || at === undefined || at.length === 0) return null;
  if (classes === "merged") return ["ordinary", "boundary", "near"];
  const out: CoverClass[] = ["ordinary", "low"];
  if (at.length > 1) out.push("high");
  if (at.length > 2) out.push("meet");
  out.push("near");
  return out;
}

/** Every t-subset of [0, n), in lexicographic order. */
function subsets(n: number, t: number): number[][] {
  const out: number[][] = [];
  const pick: number[] = [];
  const rec = (from: number) => {
    if (pick.length === t) {
      out.push(pick.slice());
      return;
    }
    for (let i = from; i < n; i++) {
      pick.push(i);
      rec(i + 1);
      pick.pop();
    }
  };
  rec(0);
  return out;
}

/**
 * A t-way covering array over factors with these numbers of levels: rows of level indices, such
 * that for every t factors every combination of their levels is in some row. AETG's greedy: each
 * row the best of CANDIDATES, each built in a random factor order, a factor at a time taking the
 * level that completes the most uncovered tuples with the factors set before it (ties at random).
 * With fewer than t factors, t is their number (the full product).
 */
export function coveringArray(levels: readonly number[], t: number, rng: Rng): number[][] {
  const k = levels.length;
  if (k === 0) return [];
  const tt = Math.min(t, k);
  const sets = subsets(k, tt);
  // Uncovered tuples, per factor set: a Set of level codes (mixed radix over the set's factors).
  const uncovered = sets.map((s) => {
    const n = s.reduce((a, f) => a * levels[f]!, 1);
    return new Set<number>(Array.from({ length: n }, (_, i) => i));
  });
  let left = uncovered.reduce((a, u) => a + u.size, 0);
  const code = (s: readonly number[], row: readonly number[]) => s.reduce((a, f) => a * levels[f]! + row[f]!, 0);
  const setsOf = Array.from({ length: k }, (_, f) => sets.map((s, i) => ({ s, i })).filter(({ s }) => s.includes(f)));
  const CANDIDATES = 20;
  const rows: number[][] = [];
  while (left > 0) {
    let best: number[] | null = null;
    let bestGain = -1;
    for (let c = 0; c < CANDIDATES; c++) {
      const order = rng.shuffle(Array.from({ length: k }, (_, f) => f));
      const row: number[] = new Array<number>(k).fill(-1);
      for (const f of order) {
        let top: number[] = [];
        let topGain = -1;
        for (let v = 0; v < levels[f]!; v++) {
          row[f] = v;
          let gain = 0;
          for (const { s, i } of setsOf[f]!) if (s.every((g) => row[g]! >= 0) && uncovered[i]!.has(code(s, row))) gain++;
          if (gain > topGain) {
            topGain = gain;
            top = [v];
          } else if (gain === topGain) top.push(v);
        }
        row[f] = top[rng.below(top.length)]!;
      }
      let gain = 0;
      sets.forEach((s, i) => {
        if (uncovered[i]!.has(code(s, row))) gain++;
      });
      if (gain > bestGain) {
        bestGain = gain;
        best = row;
      }
    }
    sets.forEach((s, i) => {
      if (uncovered[i]!.delete(code(s, best!))) left--;
    });
    rows.push(best!);
  }
  return rows;
}

/** The covering design of a knob space: its factors (knob indices), their classes, and the rows in the order the runs take them. */
export interface CoverDesign {
  factors: readonly number[];
  classes: readonly (readonly CoverClass[])[];
  rows: readonly (readonly number[])[];
}

/** The design for a space under a plan's seed: a function of the two (and the options). */
export function coverDesign(space: KnobSpace, planSeed: number, opts: CoverOptions): CoverDesign {
  const all = space.defs.map((d, i) => ({ i, cls: coverClasses(d, opts.classes), step: d.target.kind === "step" }));
  const picked = [...all.filter((x) => x.cls !== null && x.step), ...all.filter((x) => x.cls !== null && !x.step)].slice(0, COVER_MAX_FACTORS).sort((a, b) => a.i - b.i);
  const rng = new Rng(COVER_STREAM, streamSeed(planSeed, `${COVER_STREAM}/array`));
  const classes = picked.map((x) => x.cls!);
  const array = coveringArray(classes.map((c) => c.length), opts.t, rng);
  const rows: number[][] = [];
  for (let p = 0; p < (opts.passes ?? 1); p++) rows.push(...rng.shuffle(array));
  return { factors: picked.map((x) => x.i), classes, rows };
}

/**
 * A run's knobs from one row of the design: the boundary-value draw of `seed` (guided_knobs.ts)
 * for every knob that is not a factor, and for each factor its row's class, resolved from the
 * seed: the ordinary draw, its lowest or highest boundary, one of its other boundaries (a step
 * meeting another instant), any boundary, or its near draw. In the space's order, so a step's near
 * draw sees the other steps where this run puts them.
 */
export function drawCoverKnobs(space: KnobSpace, seed: number, design: CoverDesign, row: readonly number[]): Knobs {
  const out: Record<string, KnobValue> = { ...drawBoundaryKnobs(space, seed) };
  const ordinary = drawKnobs(space, seed);
  const rng = new Rng(COVER_STREAM, streamSeed(seed, COVER_STREAM));
  const byKnob = new Map(design.factors.map((f, j) => [f, j]));
  space.defs.forEach((def, i) => {
    const j = byKnob.get(i);
    if (j === undefined) return;
    const at = def.boundaries!;
    const cls = design.classes[j]![row[j]!]!;
    const pick = rng.below(Math.max(1, at.length - 2));
    const any = rng.below(at.length);
    if (cls === "ordinary") out[def.id] = ordinary[def.id] ?? null;
    else if (cls === "low") out[def.id] = at[0]!;
    else if (cls === "high") out[def.id] = at[at.length - 1]!;
    else if (cls === "meet") out[def.id] = at[1 + pick]!;
    else if (cls === "boundary") out[def.id] = at[any]!;
    else out[def.id] = def.near!(rng, out);
  });
  return out;
}
