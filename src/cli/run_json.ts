// `run --json` and `replay --json`: the run's result as one JSON object on stdout, for tools: the
// verdict, each expectation as people read it with what was seen when it failed, the invariant
// violations, and the warnings the loader and the run gave.
import type { SimulationResult } from "../simulate.ts";
import { formatDuration } from "../sim/index.ts";

export interface RunJson {
  file: string;
  seed: number;
  strategy: string;
  replay: string;
  verdict: string;
  ok: boolean;
  endMs: number;
  events: number;
  traceHash: string;
  expectations: Array<{
    index: number;
    expectation: string;
    ok: boolean;
    atMs: number | null;
    /** What the checks saw when it failed ("at": the instant as a duration, "10s"). */
    observed: { at: string; atMs: number; text: string; value: unknown } | null;
  }>;
  violations: Array<{ invariant: string; atMs: number; pod: string; message: string }>;
  warnings: string[];
}

export function runJson(
  result: SimulationResult,
  run: { file: string; seed: number; strategy: string; replay: string; warnings: readonly string[] },
): RunJson {
  const { checks } = result;
  return {
    file: run.file,
    seed: run.seed,
    strategy: run.strategy,
    replay: run.replay,
    verdict: result.run.verdict,
    ok: result.ok,
    endMs: result.run.endMs,
    events: result.run.events,
    traceHash: result.run.traceHash,
    expectations: checks.expectations.map((e) => ({
      index: e.index,
      expectation: e.text,
      ok: e.ok,
      atMs: e.atMs,
      observed: e.observed === null ? null : { at: formatDuration(e.observed.atMs), atMs: e.observed.atMs, text: e.observed.text, value: e.observed.value },
    })),
    violations: checks.violations.map((v) => ({ invariant: v.invariant, atMs: v.t, pod: v.pod, message: v.message })),
    warnings: [...run.warnings],
  };
}
