// Running a process up to its next operation: first the pending stage of a call it is in (ops.ts
// callOp and thenOp), whose result resumes the process's own code unless it is a further
// operation to wait on; then the process's code itself, one generator resumption.
import { Op, type SelectResult } from "./ops.ts";
import type { Process } from "./process.ts";

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
    p.then = null;
    return yielded(p.gen.throw(err));
  }
  if (p.call !== null) {
    value = completeCall(p, value);
    if (value instanceof Op) return value;
  } else if (p.then !== null) {
    const then = p.then;
    p.then = null;
    value = then(value);
    if (value instanceof Op) return value;
  }
  return yielded(p.gen.next(value));
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

function yielded(r: IteratorResult<Op, unknown>): unknown {
  return r.done === true ? DONE_RESULT : r.value;
}
