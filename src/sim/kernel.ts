// The kernel: a virtual clock and one scheduler under which Go-style goroutines run
// deterministically. Every order Go leaves open goes through the strategy and is recorded.
// It knows nothing of Kubernetes.
import type { TimedEntry } from "./heap.ts";
import { TimerQueue } from "./queue.ts";
import { Deque } from "./deque.ts";
import { ChoiceLog, type ChoiceKind } from "./choices.ts";
import { RngStreams, type Rng } from "./rng.ts";
import { Chan } from "./channel.ts";
import { Mutex, RWMutex, WaitGroup } from "./sync.ts";
import { Timer, Ticker, type SelfTimed, type TimerHost } from "./timer.ts";
import { Trace, type TraceSink } from "./trace.ts";
import { DEFAULT_BOUNDS, type Bounds, type Verdict } from "./bounds.ts";
import { makeStrategy, formatStrategy, ReplayDivergence, StrategyPause, type Strategy, type StrategySpec } from "./strategy/index.ts";
import { BLOCKED, DONE, KILLED, READY, RUNNING, SLEEPING, Process, type Proc, type SpawnOptions, type Waker } from "./process.ts";
import { perform } from "./perform.ts";
import { OP_CALL, OP_THEN, type Op } from "./ops.ts";
import { DONE_RESULT, resume } from "./resume.ts";
import { diagnoseStuck, describePanic } from "./diagnose.ts";
import { VERSION } from "../version.ts";
import type { KernelObserver } from "./observe.ts";

export interface SimOptions {
  seed: number | string;
  strategy: StrategySpec;
  bounds?: Partial<Bounds>;
  sinks?: readonly TraceSink[];
  /** Hash the trace (default true); benchmarks of the bare kernel turn it off. */
  hash?: boolean;
  /** Called once when the run ends, before the "end" record: checkers write their verdicts here. */
  beforeEnd?: () => void;
  /** Written into the "run" record (and, unless `replayScenario` is given, the replay key). */
  runInfo?: Readonly<Record<string, unknown>> & { scenario?: string };
  /**
   * The scenario as the replay key names it (a file path as the user typed it). Not traced: the
   * trace must not depend on the working directory or on how a path was spelled.
   */
  replayScenario?: string;
  /** Told which goroutine wrote each record, its calls, hand-offs and choices (the pictures of a run). */
  observer?: KernelObserver;
}

export interface RunResult {
  verdict: Verdict;
  diagnosis: string | null;
  endMs: number;
  events: number;
  choices: ChoiceLog;
  traceHash: string;
  replayKey: string;
}

class Entry implements TimedEntry {
  cancelled = false;
  constructor(
    readonly dueMs: number,
    readonly seq: number,
    readonly proc: Process | null,
    readonly action: (() => void) | null,
  ) {}
}

/** What the timed queue holds: a sleeper's or a callback's Entry, or a timer that is its own entry. */
type Timed = Entry | SelfTimed;

export class Sim implements Waker, TimerHost {
  nowMs = 0;
  readonly choices = new ChoiceLog();
  readonly bounds: Bounds;
  readonly ready = new Deque<Process>(64);
  private readonly heap = new TimerQueue<Timed>();
  private readonly streams: RngStreams;
  private readonly strategy: Strategy;
  private readonly trace: Trace;
  private readonly procs = new Map<number, Process>();
  private readonly nameCounts = new Map<string, number>();
  private nextProcId = 1;
  private nextEntrySeq = 0;
  private events = 0;
  private stepsThisInstant = 0;
  private verdict: Verdict | null = null;
  private begun = false;
  private diagnosis: string | null = null;
  private running: Process | null = null;
  readonly observer: KernelObserver | null;

  constructor(private readonly opts: SimOptions) {
    this.observer = opts.observer ?? null;
    this.bounds = { ...DEFAULT_BOUNDS, ...opts.bounds };
    this.streams = new RngStreams(opts.seed);
    this.strategy = makeStrategy(opts.strategy, this.streams);
    this.trace = new Trace(opts.sinks ?? [], { hash: opts.hash ?? true });
  }

  // ---- for models -------------------------------------------------------------------------

  /** Spawns a goroutine. Names are stable and readable ("podworker/default/web"); repeats get "#2". */
  go(name: string, body: () => Proc<unknown>, opts: SpawnOptions = {}): Process {
    if (this.procs.size >= this.bounds.maxProcesses) {
      throw new Error(`too many processes (bound ${this.bounds.maxProcesses}) while spawning ${name}`);
    }
    const seen = this.nameCounts.get(name) ?? 0;
    this.nameCounts.set(name, seen + 1);
    const unique = seen === 0 ? name : `${name}#${seen + 1}`;
    const p = new Process(this.nextProcId++, unique, body(), opts.group ?? "", opts.daemon ?? false);
    this.procs.set(p.id, p);
    this.observer?.spawn(p, this.running, this.nowMs);
    this.strategy.onSpawn(p);
    this.ready.pushBack(p);
    return p;
  }

  /** The process running now (null between steps). */
  get current(): Process | null {
    return this.running;
  }

  chan<T>(name: string, capacity = 0): Chan<T> {
    return new Chan<T>(this, name, capacity);
  }
  mutex(name: string): Mutex {
    return new Mutex(this, name);
  }
  rwmutex(name: string): RWMutex {
    return new RWMutex(this, name);
  }
  waitGroup(name: string): WaitGroup {
    return new WaitGroup(this, name);
  }
  newTimer(name: string, durationMs: number): Timer {
    return new Timer(this, name, durationMs);
  }
  newTicker(name: string, periodMs: number): Ticker {
    return new Ticker(this, name, periodMs);
  }
  /** time.After. */
  after(name: string, durationMs: number): Chan<number> {
    return new Timer(this, name, durationMs).C;
  }

  /** A named random stream derived from the seed; one per component. */
  rng(stream: string): Rng {
    return this.streams.get(stream);
  }

  /** A model's choice point among n options (recorded, replayable, chosen by the strategy). */
  choose(n: number): number {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`choose: bad option count ${n}`);
    return n === 1 ? 0 : this.decide("value", n, null);
  }

  /**
   * The order of a Go map iteration: a rotation of the (sorted) keys, one recorded choice.
   * Go starts at a random bucket and offset; a rotation keeps that spirit without n! orders.
   */
  mapOrder<T>(sortedKeys: readonly T[]): T[] {
    const n = sortedKeys.length;
    const k = n <= 1 ? 0 : this.decide("value", n, null, sortedKeys);
    return k === 0 ? sortedKeys.slice() : [...sortedKeys.slice(k), ...sortedKeys.slice(0, k)];
  }

  /** Appends a trace record (dropped when records are lazy and no sink reads its kind). */
  emit(component: string, kind: string, fields?: Readonly<Record<string, unknown>>): void {
    const rec = this.trace.emit(this.nowMs, component, kind, fields);
    if (rec !== null) this.observer?.record(rec, this.running);
  }

  /**
   * emit for the processes of one node of a cluster (src/node/node_sim.ts): the record carries
   * `node` right after `kind`, as emit(component, kind, { node, ...fields }) would make it, without
   * that intermediate copy of the fields.
   */
  emitOnNode(node: string, component: string, kind: string, fields?: Readonly<Record<string, unknown>>): void {
    const rec = this.trace.emit(this.nowMs, component, kind, fields, node);
    if (rec !== null) this.observer?.record(rec, this.running);
  }

  /**
   * Whether a record of this kind is wanted now: a component about to build a record asks first,
   * and builds nothing on false. Always true when the trace is hashed (run, replay) or a sink
   * reads every kind. A false answer counts as the record dropped (see Trace.wants): ask only
   * right before emitting.
   */
  traces(kind: string): boolean {
    return this.trace.wants(kind, this.nowMs);
  }

  /** Ends the run after the current step (a checker saw enough, a model hit an impossible state). */
  stop(verdict: Verdict, diagnosis: string | null = null): void {
    if (this.verdict !== null) return;
    this.verdict = verdict;
    this.diagnosis = diagnosis;
  }

  /** Kills every process of a group at once (a kubelet restart): they never run again. */
  killGroup(group: string): number {
    let killed = 0;
    for (const p of this.procs.values()) {
      if (p.group !== group || !p.alive) continue;
      p.state = KILLED;
      this.observer?.exit(p, this.nowMs, "killed");
      this.procs.delete(p.id);
      killed++;
    }
    this.purgeReady();
    return killed;
  }

  // ---- Waker / TimerHost (for primitives) --------------------------------------------------

  wake(p: Process, value: unknown): void {
    this.wakeFrom(p, value, resumedResource(p, value));
  }
  /**
   * A channel's wake names the channel itself, which resumedResource would find in p's select
   * cases (two more objects a tick reads) or its waiting target.
   */
  wakeFrom(p: Process, value: unknown, resource: unknown): void {
    p.resumeOn = resource;
    p.resumeValue = value;
    p.waitingOn = "";
    p.waitingTarget = null;
    p.state = READY;
    this.ready.pushBack(p);
  }
  wakeWithError(p: Process, err: Error): void {
    p.resumeError = err;
    this.wake(p, undefined);
  }
  wakeToRetry(p: Process, op: Op): void {
    p.retry = op;
    this.wake(p, undefined);
  }
  schedule(dueMs: number, action: () => void): TimedEntry {
    return this.pushEntry(dueMs, null, action);
  }
  requeue(e: SelfTimed): void {
    if (!Number.isFinite(e.dueMs)) throw new RangeError(`cannot schedule at ${e.dueMs}`);
    e.seq = this.nextEntrySeq++;
    this.heap.push(e);
  }
  cancel(entry: TimedEntry): void {
    entry.cancelled = true;
  }
  sleepUntil(p: Process, dueMs: number, label: string, isCall = false, target: unknown = null): void {
    this.observer?.timed(p, label, this.nowMs, dueMs, isCall);
    p.state = SLEEPING;
    p.waitingOn = label;
    p.waitingTarget = target;
    this.pushEntry(dueMs, p, null);
  }
  block(p: Process, waitingOn: string, target: unknown = null): void {
    this.observer?.blocked(p, this.nowMs);
    p.state = BLOCKED;
    p.waitingOn = waitingOn;
    p.waitingTarget = target;
  }
  /** One choice point; `context` (a select's cases, a map's keys) only names it to a strategy that pauses. */
  decide(kind: ChoiceKind, n: number, procs: Deque<Process> | null, context: unknown = null): number {
    let i: number;
    try {
      i = this.strategy.choose(kind, n, procs);
    } catch (err) {
      if (err instanceof StrategyPause) err.context = context;
      throw err;
    }
    if (!(i >= 0 && i < n)) throw new Error(`strategy ${this.strategy.name} chose ${i} of ${n}`);
    this.choices.push(kind, n, i);
    this.observer?.choice(kind, n, i, this.nowMs, this.running, procs === null ? null : procs.at(i), this.trace.recordCount);
    return i;
  }

  // ---- the run loop ------------------------------------------------------------------------

  run(): RunResult {
    this.begin();
    try {
      while (this.verdict === null) {
        if (this.ready.length === 0 && !this.advanceClock()) break;
        if (this.ready.length > 0) this.step();
      }
    } catch (err) {
      this.onKernelError(err);
    }
    return this.finish();
  }

  /**
   * Runs every step due at or before limitMs, then pauses, so a caller can look at the state at a
   * virtual instant and go on later (with runUntil again, or run() to finish). Returns "paused"
   * when the next step is later (the clock then reads limitMs), "idle" when nothing is ready or
   * scheduled (the clock stays at the last step; run() would end the run here), or the verdict when
   * the run ended. The steps are the ones run() takes: pausing never changes the trace.
   */
  runUntil(limitMs: number): "paused" | "idle" | Verdict {
    const r = this.runSlice(limitMs, Number.POSITIVE_INFINITY);
    if (r === "budget") throw new Error("runUntil: an unbounded slice ran out of events");
    return r;
  }

  /**
   * runUntil that also pauses once `maxEvents` more events have run, between two steps (the
   * clock then reads the instant of the last one: "budget"), so that a host driving a big run
   * gets control back after a bounded amount of work even when much of it is due at one virtual
   * instant or in one virtual millisecond (a cluster's start-up). Going on with runUntil or
   * runSlice takes the step the run would have taken: the ready queue, the clock and the count of
   * steps at this instant are left as they were, so how a run is sliced never changes its trace.
   */
  runSlice(limitMs: number, maxEvents: number): "paused" | "idle" | "budget" | Verdict {
    this.begin();
    const stopAt = this.events + maxEvents;
    try {
      while (this.verdict === null) {
        if (this.ready.length > 0) {
          if (this.events >= stopAt) return "budget";
          this.step();
          continue;
        }
        const nextMs = this.nextDueMs();
        if (nextMs === undefined) return "idle";
        if (nextMs > limitMs && limitMs < this.bounds.untilMs) {
          if (limitMs > this.nowMs) {
            this.nowMs = limitMs;
            this.stepsThisInstant = 0;
          }
          return "paused";
        }
        if (!this.advanceClock()) break;
      }
    } catch (err) {
      this.onKernelError(err);
    }
    return this.verdict!;
  }

  /** Emits the "run" record once, before the first step. */
  private begin(): void {
    if (this.begun) return;
    this.begun = true;
    // A fixed key order: the run record must read the same for a run and for its replay.
    const { scenario, strategy: _label, ...rest } = this.opts.runInfo ?? {};
    this.trace.emit(0, "sim", "run", {
      scenario: scenario ?? null,
      seed: this.opts.seed,
      strategy: this.strategyName,
      version: VERSION,
      ...rest,
    });
  }

  /** When the next live heap entry is due (cancelled ones are dropped); undefined when none is left. */
  private nextDueMs(): number | undefined {
    let e = this.heap.peek();
    while (e !== undefined && e.cancelled) {
      this.heap.pop();
      e = this.heap.peek();
    }
    return e?.dueMs;
  }

  /** The strategy as the replay key names it; a replay keeps the name of the run it replays. */
  get strategyName(): string {
    const label = this.opts.runInfo?.strategy;
    if (typeof label === "string") return label;
    return this.opts.strategy.name === "replay" ? "replay" : formatStrategy(this.opts.strategy);
  }

  replayKey(): string {
    const scenario = this.opts.replayScenario ?? this.opts.runInfo?.scenario ?? "<scenario>";
    return `kubelet-sim run ${scenario} --seed ${String(this.opts.seed)} --strategy ${this.strategyName}`;
  }

  private step(): void {
    const i = this.ready.length > 1 ? this.decide("proc", this.ready.length, this.ready) : 0;
    const p = this.ready.removeAt(i);
    this.running = p;
    p.state = RUNNING;
    if (p.retry !== null) {
      const op = p.retry;
      p.retry = null;
      if (!perform(this, p, op)) return this.park();
    }
    for (;;) {
      if (!this.countStep(p)) return this.park();
      let op: Op;
      try {
        const r = resume(p);
        if (r === DONE_RESULT) {
          p.state = DONE;
          this.observer?.exit(p, this.nowMs, "done");
          this.procs.delete(p.id);
          return this.park();
        }
        op = r as Op;
      } catch (err) {
        // A pause is the strategy's, not the process's: it ends the run where it stands.
        if (err instanceof StrategyPause) throw err;
        this.stop("panic", describePanic(p, this.nowMs, err, this.replayKey()));
        this.observer?.exit(p, this.nowMs, "panic");
        return this.park();
      }
      if (!perform(this, p, op)) return this.park();
      // A completed operation is a scheduling point: p stays first in line, others may go first.
      if (this.ready.length > 0) {
        p.resumeOn = performedResource(op);
        p.state = READY;
        this.ready.pushFront(p);
        return this.park();
      }
    }
  }

  private park(): void {
    this.running = null;
  }

  private countStep(p: Process): boolean {
    this.events++;
    if (++this.stepsThisInstant > this.bounds.maxStepsPerInstant) {
      this.stop("livelock", `livelock: more than ${this.bounds.maxStepsPerInstant} steps at t=${this.nowMs}ms without time advancing (last: ${p.name})\nreplay: ${this.replayKey()}`);
      return false;
    }
    if (this.events > this.bounds.maxEvents) {
      this.stop("max-events", `stopped after ${this.bounds.maxEvents} events at t=${this.nowMs}ms (bound maxEvents)\nreplay: ${this.replayKey()}`);
      return false;
    }
    return true;
  }

  /** Moves the clock to the next due entry and runs everything due then. False when nothing is left. */
  private advanceClock(): boolean {
    let e = this.heap.peek();
    while (e !== undefined && e.cancelled) {
      this.heap.pop();
      e = this.heap.peek();
    }
    if (e === undefined) {
      this.endQuiet();
      return false;
    }
    if (e.dueMs > this.bounds.untilMs) {
      this.nowMs = this.bounds.untilMs;
      this.stop("until");
      return false;
    }
    if (e.dueMs > this.nowMs) this.stepsThisInstant = 0;
    this.nowMs = e.dueMs;
    // Entries due now run in schedule order: timer actions fire, sleepers become ready.
    while (e !== undefined && e.dueMs === this.nowMs) {
      this.heap.pop();
      if (!e.cancelled) this.fire(e);
      e = this.heap.peek();
    }
    return true;
  }

  private fire(e: Timed): void {
    if (e.action !== null) {
      e.action();
      return;
    }
    const p = (e as Entry).proc!;
    if (p.state !== SLEEPING) return;
    this.wake(p, undefined);
  }

  private endQuiet(): void {
    const stuck = [...this.procs.values()].filter((p) => p.state === BLOCKED && !p.daemon);
    if (stuck.length > 0) this.stop("deadlock", diagnoseStuck(stuck, this.nowMs, this.replayKey()));
    else this.stop(this.procs.size === 0 ? "completed" : "quiescent");
  }

  private onKernelError(err: unknown): void {
    if (err instanceof ReplayDivergence) {
      const who = this.running === null ? "" : ` (process ${this.running.name})`;
      this.stop("diverged", `${err.message}, at t=${this.nowMs}ms${who}`);
      return;
    }
    throw err;
  }

  private finish(): RunResult {
    this.opts.beforeEnd?.();
    this.observer?.end(this.nowMs);
    const verdict = this.verdict ?? "completed";
    const traceHash = this.trace.digest();
    this.trace.emit(this.nowMs, "sim", "end", {
      verdict,
      events: this.events,
      endMs: this.nowMs,
      traceHash,
      ...(this.diagnosis === null ? {} : { diagnosis: this.diagnosis }),
    });
    this.trace.close();
    return {
      verdict,
      diagnosis: this.diagnosis,
      endMs: this.nowMs,
      events: this.events,
      choices: this.choices,
      traceHash,
      replayKey: this.replayKey(),
    };
  }

  private pushEntry(dueMs: number, proc: Process | null, action: (() => void) | null): Entry {
    if (!Number.isFinite(dueMs)) throw new RangeError(`cannot schedule at ${dueMs}`);
    const e = new Entry(dueMs, this.nextEntrySeq++, proc, action);
    this.heap.push(e);
    return e;
  }

  private purgeReady(): void {
    const keep = this.ready.toArray().filter((p) => p.state !== KILLED);
    this.ready.clear();
    for (const p of keep) this.ready.pushBack(p);
  }
}


/**
 * The resource a woken process resumes from: the lock, channel or wait group it waited on (for a
 * select, the channel of the case that fired), or the label of the call it slept through. A plain
 * sleep names nothing.
 */
function resumedResource(p: Process, value: unknown): unknown {
  const target = p.waitingTarget;
  if (Array.isArray(target)) {
    const index = (value as { index?: unknown } | undefined)?.index;
    return typeof index === "number" && index >= 0 ? ((target[index] as { ch: unknown } | undefined)?.ch ?? null) : null;
  }
  if (target !== null) return target;
  return p.waitingOn === "" || p.waitingOn === "sleep" ? null : p.waitingOn;
}

/** The resource of an operation that completed at once (a buffered receive, a free lock, a point). */
function performedResource(op: Op): unknown {
  if (op.code === OP_THEN) return performedResource(op.target as Op);
  // A call with a cancellation channel that fired at once completed as a select does: naming nothing.
  if (op.code === OP_CALL && op.done !== null) return null;
  if (op.target !== null && !Array.isArray(op.target)) return op.target;
  return op.label === "" || op.label === "sleep" ? null : op.label;
}
