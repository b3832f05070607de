// --check-determinism: a sample of runs (run in full: every record, hashed) are run again (in this
// thread, after the exploration ran them, perhaps in a worker) and must give the identical trace;
// and once more lazily, as exploration runs the others, which must be the same run (identity). A
// difference is a bug in kubelet-sim (hidden shared state, host time, iteration order, a record
// kind a monitor reads but does not name); the report shows both traces' first differing records.
import type { RunSummary } from "./context.ts";
import type { Runner } from "./runner.ts";

export interface DeterminismMismatch {
  index: number;
  seed: number;
  /** "trace": the full re-run's trace differs; "lazy": the lazy re-run is another run (its hashes are identities). */
  what: "trace" | "lazy";
  firstHash: string;
  secondHash: string;
  /** The 0-based record number where the traces first differ, and the two records there (null: the trace ended). */
  record: number;
  first: string | null;
  second: string | null;
}

export interface DeterminismReport {
  checked: number;
  ok: boolean;
  mismatches: DeterminismMismatch[];
}

export const DETERMINISM_SAMPLE = 8;

/** Up to k run indices spread evenly over the given ones (always the first among them). */
export function sampleIndices(indices: readonly number[], k = DETERMINISM_SAMPLE): number[] {
  const n = Math.min(k, indices.length);
  const out: number[] = [];
  for (let j = 0; j < n; j++) out.push(indices[Math.floor((j * indices.length) / n)]!);
  return out;
}

/** Re-runs each sampled run (which must carry its lines and trace hash) in full and lazily, and compares. */
export function checkDeterminism(runner: Runner, sampled: readonly RunSummary[]): DeterminismReport {
  const mismatches: DeterminismMismatch[] = [];
  for (const s of sampled) {
    const again = runner.again(s, true);
    const a = s.lines ?? [];
    const b = again.lines ?? [];
    if (again.traceHash !== s.traceHash || again.identity !== s.identity) {
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      mismatches.push({ index: s.index, seed: s.seed, what: "trace", firstHash: s.traceHash ?? "", secondHash: again.traceHash ?? "", record: i, first: a[i] ?? null, second: b[i] ?? null });
      continue;
    }
    const lazy = runner.again(s, false);
    if (lazy.identity !== s.identity) {
      mismatches.push({ index: s.index, seed: s.seed, what: "lazy", firstHash: s.identity, secondHash: lazy.identity, record: a.length, first: null, second: null });
    }
  }
  return { checked: sampled.length, ok: mismatches.length === 0, mismatches };
}
