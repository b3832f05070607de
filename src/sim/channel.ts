// Go channels: unbuffered rendezvous or buffered with capacity N, close, and wait queues that the
// kernel's select shares. Semantics follow the Go spec and runtime/chan.go.
import { Deque } from "./deque.ts";
import { GoPanic, KILLED, type Process, type Waker } from "./process.ts";
import type { KernelObserver } from "./observe.ts";

/** A select waiting on several queues at once; the first case to fire marks it fired. */
export interface SelectWait {
  fired: boolean;
}

export class Waiter {
  /**
   * In its channel's wait queue: set when queued, cleared when the queue lets it go (delivered to,
   * or dropped as dead). A select that blocks again on the same cases reuses its waiters (see
   * perform.ts), which it may only do for a waiter out of its queue or at the queue's tail.
   */
  queued = false;
  /** The next waiter of the same select, in case order (a select's waiters, kept for reuse). */
  sibling: Waiter | null = null;

  constructor(
    readonly proc: Process,
    readonly sel: SelectWait | null,
    readonly caseIndex: number,
    readonly value: unknown,
  ) {}

  get live(): boolean {
    return this.proc.state !== KILLED && (this.sel === null || !this.sel.fired);
  }
}

/** Who put a buffered value in the channel and when (kept only when the run is observed). */
interface Stamp {
  readonly proc: Process | null;
  readonly t: number;
}

/** A wait queue is swept of dead waiters once it reaches this length, then at twice what remained. */
const SWEEP_MIN_WAITERS = 16;

/**
 * The wait queue of a channel nobody has waited on yet (most timer channels), and the buffer of
 * every unbuffered channel: always empty, never written.
 */
const NO_WAITERS = new Deque<Waiter>(1);

export class Chan<T> {
  private readonly buf: Deque<T>;
  /** Blocked receivers and senders; allocated when the first one blocks (NO_WAITERS until then). */
  private recvq = NO_WAITERS;
  private sendq = NO_WAITERS;
  private isClosed = false;
  private recvSweepAt = SWEEP_MIN_WAITERS;
  private sendSweepAt = SWEEP_MIN_WAITERS;
  /** The run's observer, told of every hand-off between two goroutines; null when unobserved. */
  private readonly tap: KernelObserver | null;
  /** Parallel to buf when observed: who sent each buffered value, and when. */
  private readonly stamps: Deque<Stamp> | null;

  constructor(
    private readonly waker: Waker,
    readonly name: string,
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`chan ${name}: bad capacity ${capacity}`);
    // An unbuffered channel never buffers: it shares one empty deque that is never written.
    this.buf = capacity === 0 ? (NO_WAITERS as unknown as Deque<T>) : new Deque<T>(Math.min(16, capacity));
    this.tap = waker.observer ?? null;
    this.stamps = this.tap === null ? null : new Deque<Stamp>(Math.max(1, Math.min(16, capacity)));
  }

  /** len(ch): the number of buffered values. */
  get length(): number {
    return this.buf.length;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * Queues a blocked receiver (a recv, or one case of a select). When a select fires, Go's
   * selectgo dequeues its other cases at once; here they stay behind as dead waiters that
   * liveHead skips. A channel that a select loop waits on but nobody sends to (a stop channel)
   * would collect one per iteration, so the queue is swept whenever it has doubled since the last
   * sweep: amortized O(1), and only dead waiters go, so no delivery order changes.
   */
  enqueueRecv(w: Waiter): void {
    if (this.recvq === NO_WAITERS) this.recvq = new Deque<Waiter>(4);
    if (this.recvq.length >= this.recvSweepAt) this.recvSweepAt = sweep(this.recvq);
    w.queued = true;
    this.recvq.pushBack(w);
  }

  /** Queues a blocked sender; swept like enqueueRecv. */
  enqueueSend(w: Waiter): void {
    if (this.sendq === NO_WAITERS) this.sendq = new Deque<Waiter>(4);
    if (this.sendq.length >= this.sendSweepAt) this.sendSweepAt = sweep(this.sendq);
    w.queued = true;
    this.sendq.pushBack(w);
  }

  /**
   * Whether a dead waiter of this channel's receive (or send) queue may be revived where it stands
   * instead of queueing a new one behind it: it is out of the queue (it will be queued again), or
   * the last in it, so that no waiter queued after it would come behind it.
   */
  mayRequeue(w: Waiter, send: boolean): boolean {
    if (!w.queued) return true;
    const q = send ? this.sendq : this.recvq;
    return q.length > 0 && q.at(q.length - 1) === w;
  }

  /** A receive would not block. */
  canRecv(): boolean {
    return this.buf.length > 0 || this.isClosed || liveHead(this.sendq) !== undefined;
  }

  /** A send would not block (on a closed channel it would panic, which does not block either). */
  canSend(): boolean {
    return this.isClosed || liveHead(this.recvq) !== undefined || this.buf.length < this.capacity;
  }

  /** Sends if that does not block; false otherwise. Panics on a closed channel. */
  trySend(value: T): boolean {
    if (this.isClosed) throw new GoPanic(`send on closed channel ${this.name}`);
    const r = liveHead(this.recvq);
    if (r !== undefined) {
      this.recvq.popFront();
      r.queued = false;
      if (this.tap !== null) this.observe(this.waker.current ?? null, this.waker.nowMs, r.proc, false);
      this.deliverToReceiver(r, value, true);
      return true;
    }
    if (this.buf.length < this.capacity) {
      this.buf.pushBack(value);
      this.stamps?.pushBack({ proc: this.waker.current ?? null, t: this.waker.nowMs });
      return true;
    }
    return false;
  }

  /**
   * A non-blocking send that drops the value when nobody can take it: how the runtime delivers
   * timer and ticker ticks into their capacity-1 channels.
   */
  offer(value: T): boolean {
    return !this.isClosed && this.trySend(value);
  }

  /** Receives if that does not block; undefined otherwise. */
  tryRecv(): { value: T | undefined; ok: boolean } | undefined {
    if (this.buf.length > 0) {
      const value = this.buf.popFront() as T;
      const stamp = this.stamps?.popFront();
      if (stamp !== undefined) this.observe(stamp.proc, stamp.t, this.waker.current ?? null, false);
      // A blocked sender's value moves into the freed slot, keeping FIFO order.
      const s = liveHead(this.sendq);
      if (s !== undefined) {
        this.sendq.popFront();
        s.queued = false;
        this.buf.pushBack(s.value as T);
        this.stamps?.pushBack({ proc: s.proc, t: this.waker.nowMs });
        this.releaseSender(s);
      }
      return { value, ok: true };
    }
    const s = liveHead(this.sendq);
    if (s !== undefined) {
      this.sendq.popFront();
      s.queued = false;
      if (this.tap !== null) this.observe(s.proc, this.waker.nowMs, this.waker.current ?? null, false);
      this.releaseSender(s);
      return { value: s.value as T, ok: true };
    }
    if (this.isClosed) return { value: undefined, ok: false };
    return undefined;
  }

  /** close(ch): receivers get the zero value and ok=false; blocked senders panic. */
  close(): void {
    if (this.isClosed) throw new GoPanic(`close of closed channel ${this.name}`);
    this.isClosed = true;
    for (let r = this.recvq.popFront(); r !== undefined; r = this.recvq.popFront()) {
      r.queued = false;
      if (!r.live) continue;
      if (this.tap !== null) this.observe(this.waker.current ?? null, this.waker.nowMs, r.proc, true);
      this.deliverToReceiver(r, undefined, false);
    }
    for (let s = this.sendq.popFront(); s !== undefined; s = this.sendq.popFront()) {
      s.queued = false;
      if (!s.live) continue;
      if (s.sel !== null) s.sel.fired = true;
      this.waker.wakeWithError(s.proc, new GoPanic(`send on closed channel ${this.name}`));
    }
  }

  /** Tells the observer of a hand-off between two goroutines (a timer's tick has no sender). */
  private observe(from: Process | null, sentMs: number, to: Process | null, closed: boolean): void {
    if (from !== null && to !== null) this.tap!.handoff(this.name, from, sentMs, to, this.waker.nowMs, closed);
  }

  private deliverToReceiver(r: Waiter, value: T | undefined, ok: boolean): void {
    if (r.sel !== null) {
      r.sel.fired = true;
      this.waker.wake(r.proc, { index: r.caseIndex, value, ok });
    } else {
      this.waker.wake(r.proc, { value, ok });
    }
  }

  private releaseSender(s: Waiter): void {
    if (s.sel !== null) {
      s.sel.fired = true;
      this.waker.wake(s.proc, { index: s.caseIndex, value: undefined, ok: true });
    } else {
      this.waker.wake(s.proc, undefined);
    }
  }
}

/** Drops the dead waiters of a queue; returns the length at which to sweep next. */
function sweep(q: Deque<Waiter>): number {
  q.retain(keepLive);
  return Math.max(SWEEP_MIN_WAITERS, 2 * q.length);
}

/** Whether a waiter stays in its queue in a sweep; a dead one leaves it. */
function keepLive(w: Waiter): boolean {
  if (w.live) return true;
  w.queued = false;
  return false;
}

/** The first live waiter, dropping stale ones (fired selects, killed processes) on the way. */
function liveHead(q: Deque<Waiter>): Waiter | undefined {
  while (q.length > 0) {
    const w = q.at(0);
    if (w.live) return w;
    q.popFront();
    w.queued = false;
  }
  return undefined;
}
