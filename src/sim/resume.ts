// Running a process up to its next operation: first the pending stage of a call it is in (ops.ts
// callOp), then the continuations it waits under (ops.ts thenOp, genOp), innermost first, each of
// which may give a further operation to wait on; then the process's code itself, one generator
// resumption.
import { Op, OP_GEN, OP_THEN, type SelectResult } from "./ops.ts";
import type { Cont, Proc, Process } from "./process.ts";

/** What resume() returns when the process's code returned. */
export const DONE_RESULT = Symbol("done");

/**
 * The next operation p yields (or a call's stage to perform), or DONE_RESULT. A throw is p's
 * panic (or a strategy's pause), for the kernel to handle.
 */
export function resume(p: Process): unknown {
  const err = p.resumeError;
  let value = p.resumeValue;
  p.resumeError = null;
  p.resumeValue = undefined;
  if (err !== null) {
    // An operation that failed (a bad duration) throws into the caller; the call is over.
    p.call = null;
    p.callTimer = null;
    return unwind(p, undefined, true, err);
  }
  if (p.call !== null) {
    // A handler that throws is the callee's bug, a panic: the caller's own code never sees it.
    value = completeCall(p, value);
    if (value instanceof Op) return enter(p, value);
  }
  if (p.conts.length !== 0) return unwind(p, value, false, null);
  return yielded(p, p.gen.next(value));
}

/** A call's latency has passed (or its cancellation fired): its handler runs now, on the callee's state. */
function completeCall(p: Process, value: unknown): unknown {
  const handler = p.call!;
  const timer = p.callTimer;
  p.call = null;
  p.callTimer = null;
  let cancelled = false;
  if (timer !== null && (value as SelectResult).index === 0) {
    // ctx.Done() fired first: the caller stops waiting, as the Go client's select does.
    timer.stop();
    cancelled = true;
  }
  return handler(cancelled);
}

/**
 * Hands a result (or an error: `failed`) down the continuation stack: a function maps it (and may
 * give an operation to wait on first), a generator run as a stage is resumed with it. An error (an
 * operation's, as a bad duration, or a generator stage's throw) is thrown into the innermost
 * generator, as into a `yield*` frame, skipping the functions. The process's own code gets what
 * is left.
 */
function unwind(p: Process, value: unknown, failed: boolean, err: unknown): unknown {
  const conts = p.conts;
  while (conts.length !== 0) {
    const top = conts[conts.length - 1]!;
    if (typeof top === "function") {
      conts.pop();
      if (failed) continue;
      // A continuation that throws is a panic, as a call's handler that throws.
      value = top(value);
      if (value instanceof Op) return enter(p, value);
      continue;
    }
    let r: IteratorResult<Op, unknown>;
    try {
      r = failed ? top.throw(err) : top.next(value);
    } catch (e) {
      conts.pop();
      failed = true;
      err = e;
      continue;
    }
    failed = false;
    if (r.done !== true) return enter(p, r.value);
    conts.pop();
    value = r.value;
  }
  return yielded(p, failed ? p.gen.throw(err) : p.gen.next(value));
}

function yielded(p: Process, r: IteratorResult<Op, unknown>): unknown {
  if (r.done === true) return DONE_RESULT;
  const op = r.value;
  return op.code === OP_THEN || op.code === OP_GEN ? enter(p, op) : op;
}

/**
 * The operation the kernel performs for `op`: a continuation's operation is pushed and its inner
 * operation performed; a generator stage is pushed and run at once up to its first operation.
 */
function enter(p: Process, op: Op): unknown {
  while (op.code === OP_THEN) {
    p.conts.push(op.value as Cont);
    op = op.target as Op;
  }
  if (op.code !== OP_GEN) return op;
  p.conts.push(op.target as Proc<unknown>);
  return unwind(p, undefined, false, null);
}
