// The bounds every run has, and the verdicts a run can end with. A runaway, a livelock or a
// deadlock ends the run with a diagnosis; nothing hangs.

export interface Bounds {
  /** Stop at this virtual time (events due later never run). */
  untilMs: number;
  /** Stop after this many process steps (operations performed). */
  maxEvents: number;
  /** Steps allowed at a single virtual instant before the run is called a livelock. */
  maxStepsPerInstant: number;
  /** Live processes allowed at once (a spawn loop is a runaway). */
  maxProcesses: number;
}

export const DEFAULT_BOUNDS: Bounds = {
  untilMs: Number.POSITIVE_INFINITY,
  maxEvents: 200_000_000,
  maxStepsPerInstant: 1_000_000,
  maxProcesses: 100_000,
};

export type Verdict =
  | "completed" // every process returned
  | "quiescent" // only daemons are left, all blocked, nothing scheduled
  | "until" // the virtual-time bound was reached (the normal end of a scenario)
  | "stopped" // a model or checker stopped the run (sim.stop)
  | "deadlock" // a non-daemon process is blocked and nothing can wake it
  | "livelock" // too many steps at one virtual instant
  | "max-events" // the event bound was reached
  | "panic" // a process threw (a Go panic)
  | "diverged"; // a replayed recording no longer fits the run

/** Verdicts that mean the run itself went wrong, as opposed to ending normally. */
export function isFailureVerdict(v: Verdict): boolean {
  return v === "deadlock" || v === "livelock" || v === "max-events" || v === "panic" || v === "diverged";
}
