// The operations a process yields to the kernel, and the typed helpers models call with `yield*`:
//   yield* sleep(1000);  const { value, ok } = yield* recv(ch);  yield* send(ch, v);
//   const c = yield* select([recvCase(a), sendCase(b, v)], { default: true });
import type { Proc } from "./process.ts";
import type { Chan } from "./channel.ts";
import type { Mutex, RWMutex, WaitGroup } from "./sync.ts";

export const OP_SLEEP = 0;
export const OP_RECV = 1;
export const OP_SEND = 2;
export const OP_SELECT = 3;
export const OP_LOCK = 4;
export const OP_RLOCK = 5;
export const OP_WAIT = 6;
export const OP_POINT = 7;
export const OP_GOSCHED = 8;
export const OP_WLOCK = 9;
export const OP_CALL = 10;
export const OP_THEN = 11;
export const OP_GEN = 12;

/**
 * A side channel for play mode (src/play/where.ts): when set, told of each operation as it is built,
 * while the goroutine yielding it still has its own frames on the stack, so that play mode can say
 * where in the model's code a goroutine stands. Null in every other run (one check per operation);
 * nothing it sees enters the trace or its hash.
 */
export const opWatch: { onOp: ((op: Op) => void) | null } = { onOp: null };

/** One shape for every operation keeps the kernel's dispatch monomorphic (and fast). */
export class Op {
  constructor(
    readonly code: number,
    readonly ms: number,
    readonly target: unknown,
    readonly value: unknown,
    readonly label: string,
    /** A call's cancellation channel (the caller's ctx.Done()); null for every other operation. */
    readonly done: Chan<unknown> | null = null,
  ) {
    if (opWatch.onOp !== null) opWatch.onOp(this);
  }
}

/**
 * What a call does once its latency has passed, run by the kernel on the callee's state when the
 * caller is next stepped: it returns the caller's result, or another operation to wait on first (a
 * stage of the call: `callOp` again, or `thenOp` around a plain operation), whose own completion
 * then gives the result. `cancelled`: the cancellation channel fired before the latency passed.
 */
export type CallHandler = (cancelled: boolean) => unknown;

/**
 * A call: one operation for work that takes virtual time and then acts on another component's
 * state (a CRI call, an apiserver request). The kernel sleeps latencyMs (labelled `label`, naming
 * `resource` for the pos strategy as `call` does), or with `done` selects between done and a
 * timer of latencyMs, as a Go call with a context does; then runs `handler` when the caller is
 * next stepped and resumes the caller with what it returns. Yield it with `yield* invoke(op)`.
 */
export function callOp(latencyMs: number, label: string, handler: CallHandler, resource: string | null = null, done: Chan<unknown> | null = null): Op {
  return new Op(OP_CALL, latencyMs, resource, handler, label, done);
}

/**
 * An operation followed by `next`, run by the kernel on the operation's result when the process
 * is next stepped, before its own code resumes: what `next` returns is the result the process (or
 * the continuation below this one) resumes with, or a further operation to wait on first. `op` may
 * be any operation: a plain one (a call's stage that waits on a channel), a call, whose result is
 * the one its last stage gives, or another `thenOp`. So a chain of functions that each map the
 * result of the one below (prober.go's probe -> runProbeWithRetries -> runProbe -> ExecSync) is
 * one operation and one yield, instead of a generator frame per level resumed one by one. A throw
 * in `next` is a panic of the process, as a call handler's is (the process's own `try` does not
 * see it); an operation's error (a bad duration) skips `next` and is thrown into the process.
 */
export function thenOp(op: Op, next: (value: unknown) => unknown): Op {
  return new Op(OP_THEN, 0, op, next, "");
}

/**
 * `next` on an operation's result, or at once on an answer given without an operation: the step
 * of a builder (`Op | T`) that maps what the level below returns. `next` may itself give an
 * operation (a retry); the caller yields whatever is an Op and has its answer otherwise.
 */
export function andThen<T, U>(x: Op | T, next: (value: T) => Op | U): Op | U {
  return x instanceof Op ? thenOp(x, next as (value: unknown) => unknown) : next(x);
}

/**
 * A generator run as a stage of the current process, as `yield*` would run it: for a callee
 * written as a generator (a test double) where the caller builds operations. No scheduling point
 * is added: the kernel resumes the generator at once, up to its first operation.
 */
export function genOp<T>(gen: Proc<T>): Op {
  return new Op(OP_GEN, 0, gen, null, "");
}

/**
 * An operation or an answer given at once (no virtual time passes), as a generator: the bridge from
 * a builder (`Op | T`) to a caller that uses `yield*`. `const r = yield* awaitOp(build())`.
 */
export function* awaitOp<T>(x: Op | T): Proc<T> {
  return x instanceof Op ? ((yield x) as T) : x;
}

/** The receive operation itself, for a call's stage (`thenOp(recvOp(ch), ...)`); models use `recv`. */
export function recvOp<T>(ch: Chan<T> | null): Op {
  return new Op(OP_RECV, 0, ch, null, "");
}

/** Yields one operation and returns what it resumes with: `const r = yield* invoke<Result>(op)`. */
export function* invoke<T>(op: Op): Proc<T> {
  return (yield op) as T;
}

export interface RecvResult<T> {
  value: T | undefined;
  ok: boolean;
}

export type SelectCase =
  | { readonly dir: "recv"; readonly ch: Chan<unknown> | null }
  | { readonly dir: "send"; readonly ch: Chan<unknown> | null; readonly value: unknown };

export interface SelectResult {
  /** Index of the case that fired, or -1 when the default branch was taken. */
  index: number;
  value: unknown;
  ok: boolean;
}

export function recvCase<T>(ch: Chan<T> | null): SelectCase {
  return { dir: "recv", ch: ch as Chan<unknown> | null };
}

export function sendCase<T>(ch: Chan<T> | null, value: T): SelectCase {
  return { dir: "send", ch: ch as Chan<unknown> | null, value };
}

/** time.Sleep: blocks for ms of virtual time. sleep(0) is only a scheduling point. */
export function* sleep(ms: number, label = "sleep"): Proc<void> {
  yield new Op(OP_SLEEP, ms, null, null, label);
}

/** Marks a timed operation as a call (work that takes time), not a plain sleep; scheduling is the same. */
export const CALL = "call";

/**
 * Work that takes virtual time (a CRI call, an apiserver request), named for diagnoses. `resource`
 * names what the caller touches when the call returns (an apiserver object's path), for the pos
 * strategy's race relation; the label stands for it when omitted.
 */
export function* call(ms: number, label: string, resource: string | null = null): Proc<void> {
  yield new Op(OP_SLEEP, ms, resource, CALL, label);
}

/** <-ch. A nil channel (null) blocks forever, as in Go. */
export function* recv<T>(ch: Chan<T> | null): Proc<RecvResult<T>> {
  return (yield new Op(OP_RECV, 0, ch, null, "")) as RecvResult<T>;
}

/** ch <- value. Sending on a closed channel panics the process; on a nil channel blocks forever. */
export function* send<T>(ch: Chan<T> | null, value: T): Proc<void> {
  yield new Op(OP_SEND, 0, ch, value, "");
}

/** Go's select. When several cases are ready, which fires is a recorded choice point. */
export function* select(cases: readonly SelectCase[], opts?: { default?: boolean }): Proc<SelectResult> {
  return (yield new Op(OP_SELECT, 0, cases, opts?.default === true, "")) as SelectResult;
}

/**
 * The select operation itself (no default), built once by a loop that waits in it again and again
 * (a probe worker's ticker, stop and trigger channels): `(yield again(op)) as SelectResult` is
 * `yield* select(cases)` without a generator and an operation a period. The kernel then reuses the
 * select's waiters too (perform.ts requeueSelect), as the cases are the same array.
 */
export function selectOp(cases: readonly SelectCase[]): Op {
  return new Op(OP_SELECT, 0, cases, false, "");
}

/** An operation built once, yielded again: play mode's watch is told of it as of a new one. */
export function again(op: Op): Op {
  if (opWatch.onOp !== null) opWatch.onOp(op);
  return op;
}

/** mu.Lock() for a Mutex, or the write lock of an RWMutex. Unlock is a plain call: mu.unlock(). */
export function* lock(mu: Mutex | RWMutex): Proc<void> {
  yield new Op(mu.kind === "rwmutex" ? OP_WLOCK : OP_LOCK, 0, mu, null, "");
}

export function* rlock(mu: RWMutex): Proc<void> {
  yield new Op(OP_RLOCK, 0, mu, null, "");
}

export function* wait(wg: WaitGroup): Proc<void> {
  yield new Op(OP_WAIT, 0, wg, null, "");
}

/**
 * A point where Go could switch goroutines (e.g. a read of shared state). The running process
 * stays first in line, so fifo keeps running it; other strategies may interleave another here.
 */
export function* point(label = "point"): Proc<void> {
  yield new Op(OP_POINT, 0, null, null, label);
}

/** runtime.Gosched: yield to every other runnable process before continuing. */
export function* gosched(): Proc<void> {
  yield new Op(OP_GOSCHED, 0, null, null, "");
}
