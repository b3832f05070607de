// Lockstep batches: an exploration's runs advanced a few events at a time, round robin, instead
// of each to its end before the next starts. The runs are independent (each its own kernel, node
// and checker; no state is shared but immutable plans and content-keyed memos), so each run's
// steps, records and choices are exactly those it takes alone: only the host's order of work
// changes. What it buys is the CPU's caches: a run of a small scenario goes through thousands of
// functions in a few milliseconds, so each function's code and predictor state are cold again by
// the time the same run comes back to it; eight runs in the same phase take the same steps one
// after another, and find them warm. Measured on the explore bench's scenario at 1.2-1.3x by CPU
// (docs/BENCHMARKS-history.md, "Runs in lockstep"); a big scenario's run fills the caches alone and
// would only hold eight runs' state at once, so it is not batched (lockstepRuns).
import type { Sim } from "../sim/index.ts";
import type { Scenario } from "../scenario/index.ts";
import { podsMade } from "../scenario/pods_made.ts";

/** Runs in one lockstep batch: the pool's batch size too (pool.ts). */
export const LOCKSTEP_RUNS = 8;
/** Events a run takes in its turn before the next run's: a few, so the runs stay in phase. */
export const LOCKSTEP_EVENTS = 4;
/** The largest scenario batched: the pods it makes (a Deployment's replicas counted) plus its nodes (the measured forms: 1-12). */
export const LOCKSTEP_MAX_SIZE = 40;

/** How many runs of this scenario one batch advances together: LOCKSTEP_RUNS for small ones, else 1. */
export function lockstepRuns(scenario: Scenario): number {
  return podsMade(scenario) + (scenario.nodes?.length ?? 1) <= LOCKSTEP_MAX_SIZE ? LOCKSTEP_RUNS : 1;
}

/**
 * Advances every run LOCKSTEP_EVENTS events at a time, round robin, until each has no step left
 * before its end; each run's own `finish()` then ends it as it would have alone (the quiet or
 * until verdict, the checker's end). Bounded: every turn runs an event of a live run or retires
 * it, and each run is bounded by its kernel's bounds.
 */
export function advanceInLockstep(sims: readonly Sim[], eventsPerTurn: number = LOCKSTEP_EVENTS): void {
  let live = sims.slice();
  while (live.length > 0) live = live.filter((sim) => sim.runSlice(Number.POSITIVE_INFINITY, eventsPerTurn) === "budget");
}
