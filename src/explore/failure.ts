// What makes a run a finding: an invariant violated, an expectation failed, or a verdict that
// means the run itself went wrong (panic, deadlock, livelock, runaway). The earliest one names the
// run's failure; the shrinker keeps a candidate only when it fails the same way.
import { formatDuration } from "../sim/duration.ts";
import { isFailureVerdict } from "../sim/index.ts";
import type { Scenario } from "../scenario/index.ts";
import type { SimulationResult } from "../simulate.ts";
import type { Violation } from "../check/invariants.ts";

export type FailureKind = "invariant" | "verdict" | "expectation";

export interface Failure {
  kind: FailureKind;
  /** The invariant id, the verdict, or the expectation as described ("eventually default/web: gone by 45000ms"). */
  id: string;
  message: string;
  /** When it happened, in virtual ms (the end of the run for verdicts and undecided expectations). */
  atMs: number;
  pod: string | null;
  /** The scenario expectation that failed (invariants checked through `never:` have one too). */
  expectIndex: number | null;
  /**
   * For an expectation about a pod: whether the pod existed in the apiserver during the run. An
   * `eventually` about a pod that never existed fails for want of anything happening, not for the
   * reason it was written for.
   */
  podSeen?: boolean;
}

const RANK: Record<FailureKind, number> = { invariant: 0, verdict: 1, expectation: 2 };

/** The run's earliest failure, or null when it passed; `extra` are violations of monitors outside the scenario. */
export function classifyFailure(scenario: Scenario, result: SimulationResult, extra: readonly Violation[] = []): Failure | null {
  const { run, checks } = result;
  const found: Failure[] = extra.map((v) => fromViolation(v, null));
  for (const e of checks.failed) {
    const invariant = scenario.expect[e.index]?.condition.invariant;
    const v = invariant === undefined ? undefined : checks.violations.find((x) => x.invariant === invariant);
    if (v !== undefined) found.push(fromViolation(v, e.index));
    else {
      const seen = e.observed === null ? "" : `; seen at ${formatDuration(e.observed.atMs)}: ${e.observed.text}`;
      found.push({
        kind: "expectation", id: e.description, message: `expectation failed: ${e.text}${seen}`, atMs: e.atMs ?? run.endMs,
        pod: e.pod, expectIndex: e.index, ...(e.pod === null ? {} : { podSeen: e.podSeen }),
      });
    }
  }
  if (isFailureVerdict(run.verdict)) {
    found.push({ kind: "verdict", id: run.verdict, message: run.diagnosis ?? run.verdict, atMs: run.endMs, pod: null, expectIndex: null });
  }
  found.sort((a, b) => a.atMs - b.atMs || RANK[a.kind] - RANK[b.kind]);
  return found[0] ?? null;
}

function fromViolation(v: Violation, expectIndex: number | null): Failure {
  return { kind: "invariant", id: v.invariant, message: v.message, atMs: v.t, pod: v.pod, expectIndex };
}

/**
 * The shrinker's test that a smaller run still shows the bug it started from: the same invariant,
 * verdict or expectation, failing for the same pod (and, for an expectation about a pod, a pod
 * that existed in both runs: dropping the step that creates it must not turn a real failure into
 * a vacuous one).
 */
export function sameFailure(a: Failure | null, b: Failure | null): boolean {
  if (a === null || b === null) return false;
  return a.kind === b.kind && a.id === b.id && a.pod === b.pod && (a.podSeen ?? true) === (b.podSeen ?? true);
}

/** One line for reports: "invariant start-after-termination-requested at 41.2s (default/web): ...". */
export function describeFailure(f: Failure): string {
  const where = f.pod === null ? "" : ` (${f.pod})`;
  return `${f.kind} ${f.id} at ${f.atMs}ms${where}: ${f.message}`;
}
