// Models staging/src/k8s.io/client-go/util/flowcontrol/backoff.go (Backoff), jitter/HasExpiredFunc era.
//
// Per-key exponential backoff: the first Next gives the initial duration, each further Next doubles
// it up to the max, and an entry not updated for more than 2×max counts as expired (a fresh start).
// Time is integer virtual milliseconds from an injected clock. The kubelet builds its container
// restart backoff with NewBackOff(10s, 300s), i.e. without jitter; jitter is supported for other
// users, drawing from an injected random source since src/ never reads host randomness.

/** The clock the backoff reads "now" from (clock.Clock.Now). */
export interface Clock {
  nowMs(): number;
}

/** kubelet.go backOffPeriod: the first crash-loop delay. */
export const backOffPeriodMs = 10_000;
/** kubelet.go MaxContainerBackOff: the crash-loop delay cap. */
export const MaxContainerBackOffMs = 300_000;

interface BackoffEntry {
  backoffMs: number;
  lastUpdateMs: number;
}

export interface BackoffOptions {
  /** 0 (the default) means no jitter, as NewBackOff. */
  maxJitterFactor?: number;
  /** A uniform draw in [0, 1), required when maxJitterFactor > 0. */
  random?: () => number;
  /** HasExpiredFunc: replaces the 2×max expiry rule. */
  hasExpired?: (eventTimeMs: number, lastUpdateMs: number, maxDurationMs: number) => boolean;
}

/** After 2*maxDuration the backoff factor restarts from the beginning (strictly more than). */
export function hasExpired(eventTimeMs: number, lastUpdateMs: number, maxDurationMs: number): boolean {
  return eventTimeMs - lastUpdateMs > maxDurationMs * 2;
}

export class Backoff {
  private readonly perItemBackoff = new Map<string, BackoffEntry>();
  private readonly maxJitterFactor: number;
  private readonly expired: (eventTimeMs: number, lastUpdateMs: number, maxDurationMs: number) => boolean;

  constructor(
    readonly clock: Clock,
    readonly defaultDurationMs: number,
    readonly maxDurationMs: number,
    private readonly options: BackoffOptions = {},
  ) {
    if (!(defaultDurationMs >= 0 && maxDurationMs >= defaultDurationMs)) {
      throw new Error(`backoff: need 0 <= initial (${defaultDurationMs}) <= max (${maxDurationMs})`);
    }
    this.maxJitterFactor = options.maxJitterFactor ?? 0;
    if (this.maxJitterFactor > 0 && options.random === undefined) {
      throw new Error("backoff: jitter needs an injected random source");
    }
    this.expired = options.hasExpired ?? hasExpired;
  }

  /** Get the current backoff duration; 0 when there is no entry. */
  Get(id: string): number {
    return this.perItemBackoff.get(id)?.backoffMs ?? 0;
  }

  /** Move backoff to the next mark, capping at maxDuration; lastUpdate becomes now, not eventTime. */
  Next(id: string, eventTimeMs: number): void {
    let entry = this.perItemBackoff.get(id);
    if (entry === undefined || this.expired(eventTimeMs, entry.lastUpdateMs, this.maxDurationMs)) {
      entry = this.initEntryUnsafe(id);
      entry.backoffMs += this.jitter(entry.backoffMs);
    } else {
      const delayMs = entry.backoffMs * 2 + this.jitter(entry.backoffMs);
      entry.backoffMs = Math.min(delayMs, this.maxDurationMs);
    }
    entry.lastUpdateMs = this.clock.nowMs();
  }

  /** Reset forces clearing of all backoff data for a given key. */
  Reset(id: string): void {
    this.perItemBackoff.delete(id);
  }

  /** True if the time elapsed since eventTime is smaller than the current backoff window. */
  IsInBackOffSince(id: string, eventTimeMs: number): boolean {
    const entry = this.perItemBackoff.get(id);
    if (entry === undefined) return false;
    if (this.expired(eventTimeMs, entry.lastUpdateMs, this.maxDurationMs)) return false;
    return this.clock.nowMs() - eventTimeMs < entry.backoffMs;
  }

  /** True if the time from the last update to eventTime is less than the current backoff window. */
  IsInBackOffSinceUpdate(id: string, eventTimeMs: number): boolean {
    const entry = this.perItemBackoff.get(id);
    if (entry === undefined) return false;
    if (this.expired(eventTimeMs, entry.lastUpdateMs, this.maxDurationMs)) return false;
    return eventTimeMs - entry.lastUpdateMs < entry.backoffMs;
  }

  /** Garbage-collect entries not updated for more than 2*maxDuration; callers run it periodically. */
  GC(): void {
    if (this.perItemBackoff.size === 0) return;
    const nowMs = this.clock.nowMs();
    // Deleting the entry being visited is safe while iterating a Map (the iteration goes on in
    // insertion order), so no copy of the entries is made at every housekeeping pass.
    for (const [id, entry] of this.perItemBackoff) {
      if (this.expired(nowMs, entry.lastUpdateMs, this.maxDurationMs)) this.perItemBackoff.delete(id);
    }
  }

  DeleteEntry(id: string): void {
    this.perItemBackoff.delete(id);
  }

  /** Whether an entry exists (what upstream tests read from perItemBackoff). */
  hasEntry(id: string): boolean {
    return this.perItemBackoff.has(id);
  }

  /** The entry's last update time, for traces and tests; undefined without an entry. */
  lastUpdateMs(id: string): number | undefined {
    return this.perItemBackoff.get(id)?.lastUpdateMs;
  }

  private initEntryUnsafe(id: string): BackoffEntry {
    const entry: BackoffEntry = { backoffMs: this.defaultDurationMs, lastUpdateMs: 0 };
    this.perItemBackoff.set(id, entry);
    return entry;
  }

  /** rand.Float64() * maxJitterFactor * d, truncated to whole milliseconds; 0 without jitter. */
  private jitter(durationMs: number): number {
    if (this.maxJitterFactor <= 0) return 0;
    return Math.trunc(this.options.random!() * this.maxJitterFactor * durationMs);
  }
}

/** NewBackOff: a backoff without jitter. */
export function NewBackOff(clock: Clock, initialMs: number, maxMs: number): Backoff {
  return new Backoff(clock, initialMs, maxMs);
}

/** The kubelet's container restart backoff: NewBackOff(backOffPeriod, MaxContainerBackOff). */
export function newContainerRestartBackOff(clock: Clock): Backoff {
  return NewBackOff(clock, backOffPeriodMs, MaxContainerBackOffMs);
}
