// The coverage an exploration reached, from its runs alone (each run names the features it reached
// first in its thread or island): the union over runs 0..i is the coverage after run i, whatever
// the threads or shards, so `merge` says the same as the unsharded exploration.
import type { RunSummary } from "./context.ts";

export interface CoverageReport {
  /** Distinct features reached. */
  features: number;
  /** Per family (the feature's first word: api, slot, pleg, status, state, edge). */
  byFamily: Record<string, number>;
  /** [runs done, features] at every run that added one, and at the end. */
  curve: [number, number][];
  /** The 1-based number of the last run that added a feature (0: none did). */
  lastNewRun: number;
  /** When no feature came in the last plateauRuns(runs) runs: how many runs it has been. */
  plateau: number | null;
}

/** Coverage that has not grown for this many runs has stopped growing: min(1,000, half the runs), at least 100. */
export function plateauRuns(runs: number): number {
  return Math.max(100, Math.min(1000, Math.floor(runs / 2)));
}

/** The coverage of runs (in index order); null when none carries coverage (it was not measured). */
export function coverageOf(runs: readonly RunSummary[], measured: boolean): CoverageReport | null {
  if (!measured) return null;
  const seen = new Set<string>();
  const byFamily: Record<string, number> = {};
  const curve: [number, number][] = [];
  let lastNewRun = 0;
  runs.forEach((r, i) => {
    const before = seen.size;
    for (const f of r.newFeatures ?? []) {
      if (seen.has(f)) continue;
      seen.add(f);
      const family = f.slice(0, f.indexOf(" ") < 0 ? f.length : f.indexOf(" "));
      byFamily[family] = (byFamily[family] ?? 0) + 1;
    }
    if (seen.size > before) {
      curve.push([i + 1, seen.size]);
      lastNewRun = i + 1;
    }
  });
  if (runs.length > 0 && curve[curve.length - 1]?.[0] !== runs.length) curve.push([runs.length, seen.size]);
  const quiet = runs.length - lastNewRun;
  return { features: seen.size, byFamily, curve, lastNewRun, plateau: runs.length > 0 && quiet >= plateauRuns(runs.length) ? quiet : null };
}

/** The lines `explore` prints about coverage. */
export function coverageLines(c: CoverageReport | null, runs: number): string[] {
  if (c === null) return [];
  const families = Object.entries(c.byFamily).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([f, n]) => `${f} ${n}`).join(", ");
  const out = [`coverage: ${c.features} features (${families || "none"}), the last new one in run ${c.lastNewRun} of ${runs}`];
  if (c.plateau !== null) out.push(`coverage stopped growing: no new feature in the last ${c.plateau} runs (the threshold is ${plateauRuns(runs)}); more runs of this kind are unlikely to reach new states`);
  return out;
}
