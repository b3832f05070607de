// How the kernel performs one yielded operation. Each function returns true when the process may
// go on at once (its resume value is set) and false when it blocked or went to sleep.
import {
  CALL, Op, OP_CALL, OP_GOSCHED, OP_WLOCK, OP_LOCK, OP_POINT, OP_RECV, OP_RLOCK, OP_SELECT, OP_SEND, OP_SLEEP, OP_THEN, OP_WAIT,
  recvCase, type CallHandler, type SelectCase,
} from "./ops.ts";
import { Waiter, type Chan } from "./channel.ts";
import type { Mutex, RWMutex, WaitGroup } from "./sync.ts";
import { GoPanic, READY, type Process } from "./process.ts";
import type { Deque } from "./deque.ts";
import type { ChoiceKind } from "./choices.ts";
import type { Timer } from "./timer.ts";

/** The kernel as the operations see it. */
export interface KernelOps {
  readonly nowMs: number;
  readonly ready: Deque<Process>;
  /** isCall: work that takes time (`call`), not a plain sleep; only observers tell them apart. */
  sleepUntil(p: Process, dueMs: number, label: string, isCall?: boolean, target?: unknown): void;
  /** Blocks p; the diagnosis reads "<waitingOn> <target's name(s)>" when a target is given. */
  block(p: Process, waitingOn: string, target?: unknown): void;
  decide(kind: ChoiceKind, n: number, procs: null, context?: unknown): number;
  newTimer(name: string, durationMs: number): Timer;
}

export function perform(k: KernelOps, p: Process, op: Op): boolean {
  switch (op.code) {
    case OP_SLEEP:
      return doSleep(k, p, op);
    case OP_RECV:
      return doRecv(k, p, op.target as Chan<unknown> | null);
    case OP_SEND:
      return doSend(k, p, op.target as Chan<unknown> | null, op.value);
    case OP_SELECT:
      return doSelect(k, p, op.target as readonly SelectCase[], op.value === true);
    case OP_LOCK:
      return doLock(k, p, op.target as Mutex);
    case OP_WLOCK:
      return doWLock(k, p, op.target as RWMutex);
    case OP_RLOCK:
      return doRLock(k, p, op.target as RWMutex);
    case OP_WAIT:
      return doWait(k, p, op.target as WaitGroup);
    case OP_CALL:
      return doCall(k, p, op);
    case OP_THEN:
      // resume() enters continuations before the kernel sees an operation; this is for a retry.
      p.conts.push(op.value as (value: unknown) => unknown);
      return perform(k, p, op.target as Op);
    case OP_POINT:
      return true;
    case OP_GOSCHED:
      p.state = READY;
      k.ready.pushBack(p);
      return false;
    default:
      throw new Error(`process ${p.name} yielded something that is not a kernel operation`);
  }
}

function doSleep(k: KernelOps, p: Process, op: Op): boolean {
  if (!Number.isInteger(op.ms) || op.ms < 0) {
    p.resumeError = new RangeError(`${op.label}: duration must be a whole number of ms >= 0, got ${op.ms}`);
    return true;
  }
  if (op.ms === 0) return true;
  k.sleepUntil(p, k.nowMs + op.ms, op.label, op.value === CALL, op.target);
  return false;
}

/**
 * A call (ops.ts callOp): the handler is left on the process, for the kernel to run when the
 * process is next stepped. Without a cancellation channel the latency is a sleep labelled as a
 * call; with one, the process selects between the channel and a timer of the latency, exactly
 * as a Go call with a context (and as the models did before calls were one operation).
 */
function doCall(k: KernelOps, p: Process, op: Op): boolean {
  if (!Number.isInteger(op.ms) || op.ms < 0) {
    p.resumeError = new RangeError(`${op.label}: duration must be a whole number of ms >= 0, got ${op.ms}`);
    return true;
  }
  p.call = op.value as CallHandler;
  if (op.done === null) {
    if (op.ms === 0) return true;
    k.sleepUntil(p, k.nowMs + op.ms, op.label, true, op.target);
    return false;
  }
  const timer = k.newTimer(op.label, op.ms);
  p.callTimer = timer;
  // A new pair of cases each call: kept off the process's select cache (see queueSelect).
  return doSelect(k, p, [recvCase(op.done), recvCase(timer.C)], false, false);
}

function doRecv(k: KernelOps, p: Process, ch: Chan<unknown> | null): boolean {
  if (ch === null) {
    k.block(p, "chan receive (nil chan)");
    return false;
  }
  const r = ch.tryRecv();
  if (r !== undefined) {
    p.resumeValue = r;
    return true;
  }
  ch.enqueueRecv(new Waiter(p, 0, 0, undefined));
  k.block(p, "chan receive", ch);
  return false;
}

function doSend(k: KernelOps, p: Process, ch: Chan<unknown> | null, value: unknown): boolean {
  if (ch === null) {
    k.block(p, "chan send (nil chan)");
    return false;
  }
  if (ch.closed) {
    p.resumeError = new GoPanic(`send on closed channel ${ch.name}`);
    return true;
  }
  if (ch.trySend(value)) return true;
  ch.enqueueSend(new Waiter(p, 0, 0, value));
  k.block(p, "chan send", ch);
  return false;
}

function doSelect(k: KernelOps, p: Process, cases: readonly SelectCase[], hasDefault: boolean, cache = true): boolean {
  // Count the ready cases without allocating; most selects find zero or one.
  let nReady = 0;
  let firstReady = -1;
  for (let i = 0; i < cases.length; i++) {
    if (!caseReady(cases[i]!)) continue;
    if (nReady === 0) firstReady = i;
    nReady++;
  }
  if (nReady > 0) {
    // Go picks uniformly among ready cases; here that is a recorded choice.
    const i = nReady === 1 ? firstReady : nthReadyCase(cases, k.decide("select", nReady, null, cases));
    return fireCase(p, cases[i]!, i);
  }
  if (hasDefault) {
    p.resumeValue = { index: -1, value: undefined, ok: false };
    return true;
  }
  if (!requeueSelect(p, cases)) queueSelect(p, cases, cache);
  k.block(p, "select", cases);
  return false;
}

/**
 * Queues a new waiter for each case, under one select id that the process holds armed until a case
 * fires, and keeps them on the process for the next select on the same cases (a loop that waits on
 * a ticker, a stop and a trigger channel every period), when no two cases name the same channel.
 */
function queueSelect(p: Process, cases: readonly SelectCase[], cache: boolean): void {
  const id = ++p.selectCount;
  p.selectArmed = id;
  let first: Waiter | null = null;
  let last: Waiter | null = null;
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    if (c.ch === null) continue;
    const w = new Waiter(p, id, i, c.dir === "recv" ? undefined : c.value);
    if (c.dir === "recv") c.ch.enqueueRecv(w);
    else c.ch.enqueueSend(w);
    if (last === null) first = w;
    else last.sibling = w;
    last = w;
  }
  if (!cache) return;
  p.selectCases = first !== null && distinctChannels(cases) ? cases : null;
  p.selectWaiters = first;
}

/**
 * Blocks p on the same cases as its last select with that select's waiters, when each is out of
 * its queue or still the last of it: the queues then read as if new waiters had been queued in
 * case order (the old ones, dead until now, were skipped by every delivery). A waiter further in
 * a queue has live waiters behind it, which a revived one would overtake: then new ones are queued.
 */
function requeueSelect(p: Process, cases: readonly SelectCase[]): boolean {
  if (p.selectCases !== cases) return false;
  const first = p.selectWaiters!;
  // A running process has no select armed; its last select's waiters are dead.
  if (p.selectArmed !== 0) return false;
  let w: Waiter | null = first;
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    if (c.ch === null) continue;
    if (w === null || w.caseIndex !== i || !c.ch.mayRequeue(w, c.dir === "send")) return false;
    if (c.dir === "send" && w.value !== c.value) return false;
    w = w.sibling;
  }
  if (w !== null) return false;
  w = first;
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    if (c.ch === null) continue;
    if (!w!.queued) {
      if (c.dir === "recv") c.ch.enqueueRecv(w!);
      else c.ch.enqueueSend(w!);
    }
    w = w!.sibling;
  }
  p.selectArmed = first.selectId;
  return true;
}

/** No channel named by two cases (a revived waiter could then come behind its sibling's new place). */
function distinctChannels(cases: readonly SelectCase[]): boolean {
  for (let i = 1; i < cases.length; i++) {
    const ch = cases[i]!.ch;
    if (ch === null) continue;
    for (let j = 0; j < i; j++) if (cases[j]!.ch === ch) return false;
  }
  return true;
}

function caseReady(c: SelectCase): boolean {
  return c.ch !== null && (c.dir === "recv" ? c.ch.canRecv() : c.ch.canSend());
}

/** The index of the n-th ready case (readiness cannot change between the count and this pick). */
function nthReadyCase(cases: readonly SelectCase[], n: number): number {
  for (let i = 0, seen = 0; i < cases.length; i++) {
    if (!caseReady(cases[i]!)) continue;
    if (seen === n) return i;
    seen++;
  }
  throw new Error(`select: no ready case #${n}`);
}

function fireCase(p: Process, c: SelectCase, index: number): boolean {
  const ch = c.ch!;
  if (c.dir === "recv") {
    const r = ch.tryRecv()!;
    p.resumeValue = { index, value: r.value, ok: r.ok };
    return true;
  }
  if (ch.closed) {
    p.resumeError = new GoPanic(`send on closed channel ${ch.name}`);
    return true;
  }
  ch.trySend(c.value);
  p.resumeValue = { index, value: undefined, ok: true };
  return true;
}

function doLock(k: KernelOps, p: Process, mu: Mutex): boolean {
  if (mu.tryLock()) {
    p.lockSinceMs = -1;
    return true;
  }
  mu.enqueue(p);
  k.block(p, "sync.Mutex.Lock", mu);
  return false;
}

function doRLock(k: KernelOps, p: Process, mu: RWMutex): boolean {
  if (mu.tryRLock()) return true;
  mu.readWaiters.pushBack(p);
  k.block(p, "sync.RWMutex.RLock", mu);
  return false;
}

function doWLock(k: KernelOps, p: Process, mu: RWMutex): boolean {
  if (mu.tryLock()) return true;
  mu.writeWaiters.pushBack(p);
  k.block(p, "sync.RWMutex.Lock", mu);
  return false;
}

function doWait(k: KernelOps, p: Process, wg: WaitGroup): boolean {
  if (wg.count === 0) return true;
  wg.waiters.pushBack(p);
  k.block(p, "sync.WaitGroup.Wait", wg);
  return false;
}
