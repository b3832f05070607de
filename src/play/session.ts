// One play-mode run: the level's scenario from the start, fed the learner's choices so far, up to
// the next choice point (the run pauses there) or to its end. Processes are generators and cannot
// be copied, so every step and every undo replays the choice prefix from the start: determinism
// makes that exact, and a race's run is a few thousand kernel events, a few milliseconds.
import { ChoiceLog, StrategyPause, type Choice, type ChoiceKind, type KernelObserver } from "../sim/index.ts";
import { startSimulation, type SimulationHandle } from "../simulate.ts";
import type { Violation } from "../check/invariants/common.ts";
import { PLAY_STRATEGY } from "../record/run_record.ts";
import type { PlayLevel } from "./level.ts";
import { describeOptions, type ChoiceOption } from "./options.ts";
import { readSharedState, type StateSection } from "./state.ts";

/** The run stopped at a choice the learner's prefix does not answer. */
export interface PlayPause {
  kind: "pause";
  /** The choice's index in the tape (= the prefix's length). */
  choiceIndex: number;
  choice: { kind: ChoiceKind; n: number };
  nowMs: number;
  options: ChoiceOption[];
  state: StateSection[];
  /** The first violation of the level's invariant so far, or null. */
  broken: Violation | null;
}

/** The run reached its end. */
export interface PlayEnd {
  kind: "end";
  verdict: string;
  ok: boolean;
  endMs: number;
  events: number;
  traceHash: string;
  /** Every choice of the run, the learner's and fifo's after them. */
  tape: Choice[];
  strategy: string;
  state: StateSection[];
  broken: Violation | null;
  violations: Violation[];
}

export type PlayOutcome = PlayPause | PlayEnd;

/** Runs to the first choice past `prefix` (or the end, when the run asks no more). */
export function playTo(level: PlayLevel, prefix: readonly Choice[]): PlayOutcome {
  const handle = start(level, prefix, "pause");
  try {
    return ended(level, handle);
  } catch (err) {
    if (!(err instanceof StrategyPause)) throw err;
    return paused(level, handle, err);
  }
}

/** Runs the prefix, then fifo's answers to the end: "let fifo run", and what Export records. */
export function playToEnd(level: PlayLevel, prefix: readonly Choice[]): PlayEnd {
  return ended(level, start(level, prefix, "fifo"));
}

/**
 * The prefix, then fifo's answers up to (not including) the first later choice made at or after
 * virtual time `tMs`: "fifo to t=", which skips the start-up choices nobody needs to make by hand.
 * The whole tape when the run makes no choice that late.
 */
export function fifoUntil(level: PlayLevel, prefix: readonly Choice[], tMs: number): Choice[] {
  const times: number[] = [];
  const observer = choiceTimes(times);
  const tape = start(level, prefix, "fifo", observer).finish().run.choices.toArray();
  for (let i = prefix.length; i < tape.length; i++) if (times[i]! >= tMs) return tape.slice(0, i);
  return tape;
}

/** An observer that keeps the virtual time of each choice, in tape order. */
function choiceTimes(out: number[]): KernelObserver {
  const none = () => {};
  return { spawn: none, exit: none, record: none, timed: none, blocked: none, handoff: none, end: none, choice: (_k, _n, _i, nowMs) => void out.push(nowMs) };
}

/** The name a run of this tape goes by: fifo when it never left fifo's answer. */
export function strategyLabel(tape: readonly Choice[]): string {
  return tape.some((c) => c.index !== 0) ? PLAY_STRATEGY : "fifo";
}

/** How many choices took another option than fifo's. */
export function deviations(tape: readonly Choice[]): number {
  return tape.filter((c) => c.index !== 0).length;
}

function start(level: PlayLevel, prefix: readonly Choice[], whenExhausted: "pause" | "fifo", observer?: KernelObserver): SimulationHandle {
  return startSimulation(level.scenario, {
    ...(observer === undefined ? {} : { observer }),
    strategy: { name: "replay", tape: ChoiceLog.from(prefix), whenExhausted },
    strategyLabel: strategyLabel(prefix),
    scenarioFile: level.scenarioFile,
    sinks: [],
    keepRecords: false,
  });
}

function ended(level: PlayLevel, handle: SimulationHandle): PlayEnd {
  const result = handle.finish();
  const tape = result.run.choices.toArray();
  // fifo's answers after the prefix are index 0: the whole tape goes by the prefix's name.
  const label = strategyLabel(tape);
  return {
    kind: "end",
    verdict: result.run.verdict,
    ok: result.ok,
    endMs: result.run.endMs,
    events: result.run.events,
    traceHash: result.run.traceHash,
    tape,
    strategy: label,
    state: readSharedState(handle),
    broken: firstBreak(level, result.checks.violations),
    violations: result.checks.violations,
  };
}

function paused(level: PlayLevel, handle: SimulationHandle, pause: StrategyPause): PlayPause {
  return {
    kind: "pause",
    choiceIndex: pause.choiceIndex,
    choice: { kind: pause.kind, n: pause.n },
    nowMs: handle.sim.nowMs,
    options: describeOptions(pause, handle.sim.current),
    state: readSharedState(handle),
    broken: firstBreak(level, handle.checker.violationsSoFar()),
  };
}

function firstBreak(level: PlayLevel, violations: readonly Violation[]): Violation | null {
  return violations.find((v) => level.invariant === null || v.invariant === level.invariant) ?? null;
}
