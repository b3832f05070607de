// The chooser contract: a strategy answers every choice point of a run.
import type { ChoiceKind } from "../choices.ts";

/** What a strategy may know about a process: a stable id and its readable name. */
export interface ProcRef {
  readonly id: number;
  readonly name: string;
  /**
   * The resource of the operation the process resumes from, for strategies that ask which
   * pending operations race (pos): a channel, a lock, a wait group, a call's label, or null.
   */
  readonly resumeOn: unknown;
}

/** The runnable processes in ready-queue order, without copying the queue. */
export interface ProcList {
  readonly length: number;
  at(i: number): ProcRef;
}

export interface Strategy {
  /** How the strategy is named in a replay key, e.g. "fifo", "random", "pct:3". */
  readonly name: string;
  /**
   * Picks one of n options (n >= 2). For kind "proc", `procs` lists the runnable processes in
   * ready-queue order (index 0 is the process that would run under fifo).
   */
  choose(kind: ChoiceKind, n: number, procs: ProcList | null): number;
  /** Told about every process when it is spawned (PCT gives it a priority). */
  onSpawn(proc: ProcRef): void;
}

/** Raised by the replay strategy when a recording no longer fits the run. */
export class ReplayDivergence extends Error {
  override name = "ReplayDivergence";
  constructor(
    message: string,
    readonly choiceIndex: number,
  ) {
    super(message);
  }
}
