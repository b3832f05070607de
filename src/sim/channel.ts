// Go channels: unbuffered rendezvous or buffered with capacity N, close, and wait queues that the
// kernel's select shares. Semantics follow the Go spec and runtime/chan.go.
import { Deque } from "./deque.ts";
import { GoPanic, KILLED, type Process, type Waker } from "./process.ts";
import type { KernelObserver } from "./observe.ts";

export class Waiter {
  /**
   * In its channel's wait queue: set when queued, cleared when the queue lets it go (delivered to,
   * or dropped as dead). A select that blocks again on the same cases reuses its waiters (see
   * perform.ts), which it may only do for a waiter out of its queue or at the queue's tail.
   */
  queued = false;
  /**
   * The next waiter in the same wait queue: the queue is a list through its waiters (a waiter is
   * in one queue at most), so a queue is two fields of its channel, not a deque and its arrays
   * that a tick would read cold (docs/BENCHMARKS-history.md, "A tick in a few cache lines").
   */
  next: Waiter | null = null;
  /** The next waiter of the same select, in case order (a select's waiters, kept for reuse). */
  sibling: Waiter | null = null;

  constructor(
    readonly proc: Process,
    /**
     * The select this waiter is a case of, numbered per process (Process.selectArmed), or 0 for
     * a plain send or receive. The first case to fire disarms the process's select, which kills
     * its other waiters at once: the flag lives on the process, which every wake touches anyway.
     */
    readonly selectId: number,
    readonly caseIndex: number,
    readonly value: unknown,
  ) {}

  get live(): boolean {
    const p = this.proc;
    return p.state !== KILLED && (this.selectId === 0 || p.selectArmed === this.selectId);
  }
}

/** Who put a buffered value in the channel and when (kept only when the run is observed). */
interface Stamp {
  readonly proc: Process | null;
  readonly t: number;
}

/** A wait queue is swept of dead waiters once it reaches this length, then at twice what remained. */
const SWEEP_MIN_WAITERS = 16;

export class Chan<T> {
  /**
   * The buffered values: in `one` for a channel of capacity 1 (a ticker's, a stop or trigger
   * channel: no deque and arrays for a tick to read), in `buf` for a larger one; `count` of them.
   */
  private count = 0;
  private one: T | undefined = undefined;
  private readonly buf: Deque<T> | null;
  /** Blocked receivers (recvHead ... recvTail, through Waiter.next) and senders; see Waiter.next. */
  private recvHead: Waiter | null = null;
  private recvTail: Waiter | null = null;
  private recvLength = 0;
  private sendHead: Waiter | null = null;
  private sendTail: Waiter | null = null;
  private sendLength = 0;
  private isClosed = false;
  private recvSweepAt = SWEEP_MIN_WAITERS;
  private sendSweepAt = SWEEP_MIN_WAITERS;
  /** The run's observer, told of every hand-off between two goroutines; null when unobserved. */
  private readonly tap: KernelObserver | null;
  /** Parallel to the buffer when observed: who sent each buffered value, and when. */
  private readonly stamps: Deque<Stamp> | null;

  constructor(
    private readonly waker: Waker,
    readonly name: string,
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`chan ${name}: bad capacity ${capacity}`);
    this.buf = capacity <= 1 ? null : new Deque<T>(Math.min(16, capacity));
    this.tap = waker.observer ?? null;
    this.stamps = this.tap === null ? null : new Deque<Stamp>(Math.max(1, Math.min(16, capacity)));
  }

  /** len(ch): the number of buffered values. */
  get length(): number {
    return this.count;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /**
   * Queues a blocked receiver (a recv, or one case of a select). When a select fires, Go's
   * selectgo dequeues its other cases at once; here they stay behind as dead waiters that
   * liveRecv skips. A channel that a select loop waits on but nobody sends to (a stop channel)
   * would collect one per iteration, so the queue is swept whenever it has doubled since the last
   * sweep: amortized O(1), and only dead waiters go, so no delivery order changes.
   */
  enqueueRecv(w: Waiter): void {
    if (this.recvLength >= this.recvSweepAt) this.sweepRecv();
    w.queued = true;
    w.next = null;
    if (this.recvTail === null) this.recvHead = w;
    else this.recvTail.next = w;
    this.recvTail = w;
    this.recvLength++;
  }

  /** Queues a blocked sender; swept like enqueueRecv. */
  enqueueSend(w: Waiter): void {
    if (this.sendLength >= this.sendSweepAt) this.sweepSend();
    w.queued = true;
    w.next = null;
    if (this.sendTail === null) this.sendHead = w;
    else this.sendTail.next = w;
    this.sendTail = w;
    this.sendLength++;
  }

  /**
   * Whether a dead waiter of this channel's receive (or send) queue may be revived where it stands
   * instead of queueing a new one behind it: it is out of the queue (it will be queued again), or
   * the last in it, so that no waiter queued after it would come behind it.
   */
  mayRequeue(w: Waiter, send: boolean): boolean {
    return !w.queued || (send ? this.sendTail : this.recvTail) === w;
  }

  /** A receive would not block. */
  canRecv(): boolean {
    return this.count > 0 || this.isClosed || this.liveSend() !== null;
  }

  /** A send would not block (on a closed channel it would panic, which does not block either). */
  canSend(): boolean {
    return this.isClosed || this.liveRecv() !== null || this.count < this.capacity;
  }

/** Sends if that does not block; false otherwise. Panics on a closed channel. */
  trySend(value: T): boolean {
    if (this.isClosed) throw new GoPanic(`send on closed channel ${this.name}`);
    const r = this.liveRecv();
    if (r !== null) {
      this.popRecv();
      if (this.tap !== null) this.observe(this.waker.current ?? null, this.waker.nowMs, r.proc, false);
      this.deliverToReceiver(r, value, true);
      return true;
    }
    if (this.count < this.capacity) {
      this.push(value);
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
    if (this.count > 0) {
      const value = this.pop();
      const stamp = this.stamps?.popFront();
      if (stamp !== undefined) this.observe(stamp.proc, stamp.t, this.waker.current ?? null, false);
      // A blocked sender's value moves into the freed slot, keeping FIFO order.
      const s = this.liveSend();
      if (s !== null) {
        this.popSend();
        this.push(s.value as T);
        this.stamps?.pushBack({ proc: s.proc, t: this.waker.nowMs });
        this.releaseSender(s);
      }
      return { value, ok: true };
    }
    const s = this.liveSend();
    if (s !== null) {
      this.popSend();
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
    while (this.recvHead !== null) {
      const r = this.popRecv();
      if (!r.live) continue;
      if (this.tap !== null) this.observe(this.waker.current ?? null, this.waker.nowMs, r.proc, true);
      this.deliverToReceiver(r, undefined, false);
    }
    while (this.sendHead !== null) {
      const s = this.popSend();
      if (!s.live) continue;
      if (s.selectId !== 0) s.proc.selectArmed = 0;
      this.waker.wakeWithError(s.proc, new GoPanic(`send on closed channel ${this.name}`));
    }
  }

  /** Tells the observer of a hand-off between two goroutines (a timer's tick has no sender). */
  private observe(from: Process | null, sentMs: number, to: Process | null, closed: boolean): void {
    if (from !== null && to !== null) this.tap!.handoff(this.name, from, sentMs, to, this.waker.nowMs, closed);
  }

  /** Wakes a receiver; the first case of a select to fire disarms the select (its other waiters die). */
  private deliverToReceiver(r: Waiter, value: T | undefined, ok: boolean): void {
    if (r.selectId !== 0) {
      r.proc.selectArmed = 0;
      this.waker.wakeFrom(r.proc, { index: r.caseIndex, value, ok }, this);
    } else {
      this.waker.wakeFrom(r.proc, { value, ok }, this);
    }
  }

  private releaseSender(s: Waiter): void {
    if (s.selectId !== 0) {
      s.proc.selectArmed = 0;
      this.waker.wakeFrom(s.proc, { index: s.caseIndex, value: undefined, ok: true }, this);
    } else {
      this.waker.wakeFrom(s.proc, undefined, this);
    }
  }

  /** Appends to the buffer (count < capacity, so capacity >= 1). */
  private push(value: T): void {
    if (this.buf === null) this.one = value;
    else this.buf.pushBack(value);
    this.count++;
  }

  /** Takes the buffer's first value (count > 0). */
  private pop(): T {
    this.count--;
    if (this.buf !== null) return this.buf.popFront() as T;
    const value = this.one as T;
    this.one = undefined;
    return value;
  }

  /** The first live receiver, dropping dead ones (fired selects, killed processes) on the way. */
  private liveRecv(): Waiter | null {
    for (let w = this.recvHead; w !== null; w = this.recvHead) {
      if (w.live) return w;
      this.popRecv();
    }
    return null;
  }

  private liveSend(): Waiter | null {
    for (let w = this.sendHead; w !== null; w = this.sendHead) {
      if (w.live) return w;
      this.popSend();
    }
    return null;
  }

  /** Takes the first receiver out of the queue (the queue is not empty). */
  private popRecv(): Waiter {
    const w = this.recvHead!;
    this.recvHead = w.next;
    if (this.recvHead === null) this.recvTail = null;
    w.next = null;
    w.queued = false;
    this.recvLength--;
    return w;
  }

  private popSend(): Waiter {
    const w = this.sendHead!;
    this.sendHead = w.next;
    if (this.sendHead === null) this.sendTail = null;
    w.next = null;
    w.queued = false;
    this.sendLength--;
    return w;
  }

  /** Drops the dead receivers, in order; sweeps next at twice what remained. */
  private sweepRecv(): void {
    const kept = sweep(this.recvHead);
    this.recvHead = kept.head;
    this.recvTail = kept.tail;
    this.recvLength = kept.length;
    this.recvSweepAt = Math.max(SWEEP_MIN_WAITERS, 2 * kept.length);
  }

  private sweepSend(): void {
    const kept = sweep(this.sendHead);
    this.sendHead = kept.head;
    this.sendTail = kept.tail;
    this.sendLength = kept.length;
    this.sendSweepAt = Math.max(SWEEP_MIN_WAITERS, 2 * kept.length);
  }
}

/** The live waiters of a queue from `first` on, relinked in order; the dead ones leave it. */
function sweep(first: Waiter | null): { head: Waiter | null; tail: Waiter | null; length: number } {
  let head: Waiter | null = null;
  let tail: Waiter | null = null;
  let length = 0;
  for (let w = first; w !== null; ) {
    const next = w.next;
    w.next = null;
    if (w.live) {
      if (tail === null) head = w;
      else tail.next = w;
      tail = w;
      length++;
    } else {
      w.queued = false;
    }
    w = next;
  }
  return { head, tail, length };
}
