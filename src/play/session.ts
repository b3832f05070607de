// One play-mode run: the level's scenario from the start, fed the learner's choices so far, up to
// the next choice point (the run pauses there) or to its end. Processes are generators and cannot
// be copied, so every step and every undo replays the choice prefix from the start: determinism
// makes that exact, and a race's run is a few thousand kernel events, a few milliseconds. Every run
// keeps what each choice's step did in words (steps.ts); a preview runs each option one step ahead
// (preview.ts) to say what it will do and where in the model's code its goroutine stands.
import { ChoiceLog, StrategyPause, type Choice, type ChoiceKind, type KernelObserver } from "../sim/index.ts";
import { opWatch } from "../sim/ops.ts";
import { startSimulation, type SimulationHandle } from "../simulate.ts";
import type { Violation } from "../check/invariants/common.ts";
import { PLAY_STRATEGY } from "../record/run_record.ts";
import type { PlayLevel } from "./level.ts";
import { describeOptions, type ChoiceOption } from "./options.ts";
import { readSharedState, type StateSection } from "./state.ts";
import { StepLog, type PlayStep } from "./steps.ts";
import type { StackWatch } from "./where.ts";
import { fanout } from "./fanout.ts";

/** The run stopped at a choice the learner's prefix does not answer. */
export interface PlayPause {
  kind: "pause";
  /** The choice's index in the tape (= the prefix's length). */
  choiceIndex: number;
  choice: { kind: ChoiceKind; n: number };
  nowMs: number;
  options: ChoiceOption[];
  /** Each option's goroutine (its kernel id), for a preview's stack watch; for a select or map iteration, the choosing one. */
  optionProcs: (number | null)[];
  state: StateSection[];
  /** The first violation of the level's invariant so far, or null. */
  broken: Violation | null;
  /** The choices made so far and what each step did. */
  log: PlayStep[];
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
  log: PlayStep[];
}

export type PlayOutcome = PlayPause | PlayEnd;

/** Runs to the first choice past `prefix` (or the end, when the run asks no more). */
export function playTo(level: PlayLevel, prefix: readonly Choice[], stack: StackWatch | null = null): PlayOutcome {
  return run(level, prefix, "pause", null, stack);
}

/** Runs the prefix, then fifo's answers to the end: "let fifo run", and what Export records. */
export function playToEnd(level: PlayLevel, prefix: readonly Choice[]): PlayEnd {
  return run(level, prefix, "fifo", null, null) as PlayEnd;
}

/**
 * The prefix, then fifo's answers up to (not including) the first later choice made at or after
 * virtual time `tMs`: "fifo to t=", which skips the start-up choices nobody needs to make by hand.
 * The whole tape when the run makes no choice that late.
 */
export function fifoUntil(level: PlayLevel, prefix: readonly Choice[], tMs: number): Choice[] {
  const times: number[] = [];
  const end = run(level, prefix, "fifo", { choice: (_k, _n, _i, nowMs) => void times.push(nowMs) }, null) as PlayEnd;
  for (let i = prefix.length; i < end.tape.length; i++) if (times[i]! >= tMs) return end.tape.slice(0, i);
  return end.tape;
}

/** The name a run of this tape goes by: fifo when it never left fifo's answer. */
export function strategyLabel(tape: readonly Choice[]): string {
  return tape.some((c) => c.index !== 0) ? PLAY_STRATEGY : "fifo";
}

/** How many choices took another option than fifo's. */
export function deviations(tape: readonly Choice[]): number {
  return tape.filter((c) => c.index !== 0).length;
}

/**
 * One run, watched: the step log always, a stack watch for a preview. The op watch is the kernel's
 * module-wide side channel; it is set for this run only, and cleared however the run stops.
 */
function run(level: PlayLevel, prefix: readonly Choice[], whenExhausted: "pause" | "fifo", extra: Partial<KernelObserver> | null, stack: StackWatch | null): PlayOutcome {
  const steps = new StepLog();
  let choices = 0;
  const counter: Partial<KernelObserver> = {
    choice: (kind, _n, _i, _t, running, chosen) => {
      stack?.onChoice(choices, (chosen ?? running)?.id ?? null, kind);
      choices++;
    },
  };
  const handle = startSimulation(level.scenario, {
    observer: fanout([steps, counter, ...(extra === null ? [] : [extra])]),
    strategy: { name: "replay", tape: ChoiceLog.from(prefix), whenExhausted },
    strategyLabel: strategyLabel(prefix),
    scenarioFile: level.scenarioFile,
    sinks: [],
    keepRecords: false,
  });
  opWatch.onOp = (op) => {
    const p = handle.sim.current;
    steps.op(op, p);
    if (stack !== null && p !== null) stack.onOp(p.id, choices);
  };
  try {
    return ended(level, handle, steps);
  } catch (err) {
    if (!(err instanceof StrategyPause)) throw err;
    steps.close("");
    return paused(level, handle, err, steps);
  } finally {
    opWatch.onOp = null;
  }
}

function ended(level: PlayLevel, handle: SimulationHandle, steps: StepLog): PlayEnd {
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
    state: readSharedState(handle, level),
    broken: firstBreak(level, result.checks.violations),
    violations: result.checks.violations,
    log: steps.steps,
  };
}

function paused(level: PlayLevel, handle: SimulationHandle, pause: StrategyPause, steps: StepLog): PlayPause {
  const current = handle.sim.current;
  return {
    kind: "pause",
    choiceIndex: pause.choiceIndex,
    choice: { kind: pause.kind, n: pause.n },
    nowMs: handle.sim.nowMs,
    options: describeOptions(pause, current),
    optionProcs: Array.from({ length: pause.n }, (_, i) => (pause.kind === "proc" && pause.procs !== null ? pause.procs[i]!.id : (current?.id ?? null))),
    state: readSharedState(handle, level),
    broken: firstBreak(level, handle.checker.violationsSoFar()),
    log: steps.steps,
  };
}

function firstBreak(level: PlayLevel, violations: readonly Violation[]): Violation | null {
  return violations.find((v) => level.invariant === null || v.invariant === level.invariant) ?? null;
}
