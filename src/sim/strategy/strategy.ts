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

/**
 * Raised by a strategy that stops the run at a choice point instead of answering it (the replay
 * strategy with `whenExhausted: "pause"`: play mode stops where the learner's choices run out).
 * The kernel lets it through from wherever the choice was asked, a process's own code included, so
 * the caller sees the models exactly as they were at the choice point. The run cannot go on.
 */
export class StrategyPause extends Error {
  override name = "StrategyPause";
  /** What the kernel knows of the choice: a select's cases, or the keys of a Go map iteration. */
  context: unknown = null;
  constructor(
    readonly kind: ChoiceKind,
    readonly n: number,
    /** The choice's index in the run's tape. */
    readonly choiceIndex: number,
    /** For a proc choice, the runnable processes in ready-queue order (index 0 runs under fifo). */
    readonly procs: readonly ProcRef[] | null,
  ) {
    super(`paused at choice #${choiceIndex} (${kind} among ${n})`);
  }
}
