// time.Timer, time.Ticker and time.After on the virtual clock. As in Go (before 1.23's synchronous
// timer channels), C has capacity 1 and a tick nobody has read yet makes the next one drop.
import type { Chan } from "./channel.ts";
import type { TimedEntry } from "./heap.ts";

/** What timers need from the kernel: the clock and the timed-event queue. */
export interface TimerHost {
  readonly nowMs: number;
  schedule(dueMs: number, action: () => void): TimedEntry;
  cancel(entry: TimedEntry): void;
  chan<T>(name: string, capacity: number): Chan<T>;
}

export class Timer {
  readonly C: Chan<number>;
  private entry: TimedEntry | null = null;
  /** One callback per timer, not one closure per arm. */
  private readonly onFire = (): void => {
    this.entry = null;
    this.C.offer(this.host.nowMs);
  };

  constructor(
    private readonly host: TimerHost,
    name: string,
    durationMs: number,
  ) {
    this.C = host.chan<number>(name, 1);
    this.arm(durationMs);
  }

  /** Stops the timer; true if that prevented it from firing (Go's Timer.Stop). */
  stop(): boolean {
    if (this.entry === null || this.entry.cancelled) return false;
    this.host.cancel(this.entry);
    this.entry = null;
    return true;
  }

  /** Re-arms the timer; true if it had been active. A stale tick already in C stays there, as in Go. */
  reset(durationMs: number): boolean {
    const wasActive = this.stop();
    this.arm(durationMs);
    return wasActive;
  }

  private arm(durationMs: number): void {
    checkDuration(durationMs);
    this.entry = this.host.schedule(this.host.nowMs + durationMs, this.onFire);
  }
}

export class Ticker {
  readonly C: Chan<number>;
  private entry: TimedEntry | null = null;
  private periodMs: number;
  /** When the armed tick is due; the next one keeps this phase. */
  private dueMs = 0;
  /** One callback per ticker, not one closure per tick. */
  private readonly onTick = (): void => {
    // The next tick keeps the period's phase even when this one is dropped.
    this.arm(this.dueMs + this.periodMs);
    this.C.offer(this.host.nowMs);
  };

  constructor(
    private readonly host: TimerHost,
    name: string,
    periodMs: number,
  ) {
    if (periodMs <= 0) throw new RangeError(`ticker ${name}: non-positive interval ${periodMs}`);
    this.periodMs = periodMs;
    this.C = host.chan<number>(name, 1);
    this.arm(host.nowMs + periodMs);
  }

  stop(): void {
    if (this.entry !== null) this.host.cancel(this.entry);
    this.entry = null;
  }

  reset(periodMs: number): void {
    if (periodMs <= 0) throw new RangeError(`ticker reset: non-positive interval ${periodMs}`);
    this.stop();
    this.periodMs = periodMs;
    this.arm(this.host.nowMs + periodMs);
  }

  private arm(dueMs: number): void {
    this.dueMs = dueMs;
    this.entry = this.host.schedule(dueMs, this.onTick);
  }
}

function checkDuration(ms: number): void {
  if (!Number.isInteger(ms)) throw new RangeError(`timer duration must be whole milliseconds, got ${ms}`);
}
