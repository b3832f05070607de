// time.Timer, time.Ticker and time.After on the virtual clock. As in Go (before 1.23's synchronous
// timer channels), C has capacity 1 and a tick nobody has read yet makes the next one drop.
import type { Chan } from "./channel.ts";
import type { TimedEntry } from "./heap.ts";

/** An entry of the kernel's timed queue that fires itself: a timer or ticker is its own entry. */
export interface SelfTimed extends TimedEntry {
  /** Run by the kernel when the entry comes due (not when cancelled). */
  action(): void;
}

/** What timers need from the kernel: the clock and the timed-event queue. */
export interface TimerHost {
  readonly nowMs: number;
  schedule(dueMs: number, action: () => void): TimedEntry;
  /** Queues `e` at its dueMs with a fresh sequence number, as schedule queues a new entry. */
  requeue(e: SelfTimed): void;
  cancel(entry: TimedEntry): void;
  chan<T>(name: string, capacity: number): Chan<T>;
}

/**
 * What a timer and a ticker share: each is its own entry in the kernel's timed queue, re-queued
 * at each arming, so that a tick reads the timer (and its channel) and not also an entry, a
 * callback and its context (docs/BENCHMARKS-history.md, "A tick in a few cache lines"). The order is a
 * new entry's: the kernel gives it the next sequence number when armed.
 */
abstract class SelfTimer implements SelfTimed {
  dueMs = 0;
  seq = 0;
  cancelled = false;
  /** The armed entry: this, or (see arm) a plain one; null when not armed. */
  protected entry: TimedEntry | null = null;
  /** This object is in the kernel's queue: armed, or stopped and not yet popped. */
  private inQueue = false;
  /** The callback of a plain entry, made the first time one is needed. */
  private fallback: (() => void) | null = null;

  constructor(protected readonly host: TimerHost) {}

  action(): void {
    this.inQueue = false;
    this.fired();
  }

  /** The timer came due (its entry fired). */
  protected abstract fired(): void;

  /**
   * Arms at dueMs. A timer stopped while queued stays in the queue, cancelled, until the clock
   * passes its old instant (every entry due before now has been popped): armed again before
   * that, it cannot be queued twice, so that arming is a plain entry.
   */
  protected arm(dueMs: number): void {
    if (this.inQueue && this.dueMs >= this.host.nowMs) {
      this.entry = this.host.schedule(dueMs, (this.fallback ??= () => this.fired()));
      return;
    }
    this.dueMs = dueMs;
    this.cancelled = false;
    this.inQueue = true;
    this.host.requeue(this);
    this.entry = this;
  }

  /** Cancels the armed entry; true if there was one not yet fired. */
  protected disarm(): boolean {
    const e = this.entry;
    this.entry = null;
    if (e === null || e.cancelled) return false;
    this.host.cancel(e);
    return true;
  }
}

export class Timer extends SelfTimer {
  readonly C: Chan<number>;

  constructor(host: TimerHost, name: string, durationMs: number) {
    super(host);
    this.C = host.chan<number>(name, 1);
    this.start(durationMs);
  }

  /** Stops the timer; true if that prevented it from firing (Go's Timer.Stop). */
  stop(): boolean {
    return this.disarm();
  }

  /** Re-arms the timer; true if it had been active. A stale tick already in C stays there, as in Go. */
  reset(durationMs: number): boolean {
    const wasActive = this.stop();
    this.start(durationMs);
    return wasActive;
  }

  protected fired(): void {
    this.entry = null;
    this.C.offer(this.host.nowMs);
  }

  private start(durationMs: number): void {
    checkDuration(durationMs);
    this.arm(this.host.nowMs + durationMs);
  }
}

export class Ticker extends SelfTimer {
  readonly C: Chan<number>;
  private periodMs: number;
  /** When the armed tick is due; the next one keeps this phase. */
  private phaseMs = 0;

  constructor(host: TimerHost, name: string, periodMs: number) {
    super(host);
    if (periodMs <= 0) throw new RangeError(`ticker ${name}: non-positive interval ${periodMs}`);
    this.periodMs = periodMs;
    this.C = host.chan<number>(name, 1);
    this.armTick(host.nowMs + periodMs);
  }

  stop(): void {
    this.disarm();
  }

  reset(periodMs: number): void {
    if (periodMs <= 0) throw new RangeError(`ticker reset: non-positive interval ${periodMs}`);
    this.stop();
    this.periodMs = periodMs;
    this.armTick(this.host.nowMs + periodMs);
  }

  protected fired(): void {
    // The next tick keeps the period's phase even when this one is dropped.
    this.armTick(this.phaseMs + this.periodMs);
    this.C.offer(this.host.nowMs);
  }

  private armTick(dueMs: number): void {
    this.phaseMs = dueMs;
    this.arm(dueMs);
  }
}

function checkDuration(ms: number): void {
  if (!Number.isInteger(ms)) throw new RangeError(`timer duration must be whole milliseconds, got ${ms}`);
}
