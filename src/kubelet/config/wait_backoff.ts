// Models k8s.io/apimachinery/pkg/util/wait/backoff.go (Backoff.Step, Jitter, exponentialBackoffManagerImpl).
//
// The reflector's backoff: NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0). Each delay is
// jittered into [d, 2d); once the doubling passes the cap it stays at the cap ("backoff will stop
// at [30,60) sec interval"); if Backoff() was not called for 2 minutes, it starts over at 800 ms.
import type { Rng } from "../../sim/index.ts";

export interface BackoffParams {
  readonly initialMs: number;
  readonly capMs: number;
  readonly resetMs: number;
  readonly factor: number;
  /** wait.Backoff.Jitter; 0 turns jitter off (tests). */
  readonly jitter: number;
}

/** The reflector's parameters (reflector.go NewReflectorWithOptions). */
export const REFLECTOR_BACKOFF: BackoffParams = { initialMs: 800, capMs: 30_000, resetMs: 120_000, factor: 2.0, jitter: 1.0 };

/** wait.Jitter: duration + a random fraction up to maxFactor of it (maxFactor ≤ 0 means 1.0). */
export function jitter(durationMs: number, maxFactor: number, rng: Rng): number {
  const factor = maxFactor <= 0 ? 1.0 : maxFactor;
  const spanMs = Math.floor(durationMs * factor);
  // rand.Float64() is in [0, 1): the extra is in [0, span), in whole virtual milliseconds.
  return durationMs + (spanMs > 0 ? rng.below(spanMs) : 0);
}

/** exponentialBackoffManagerImpl over a wait.Backoff with Steps = MaxInt32. */
export class ExponentialBackoffManager {
  private durationMs: number;
  private capped = false;
  private lastBackoffStartMs: number;

  constructor(
    private readonly params: BackoffParams,
    private readonly nowMs: () => number,
    private readonly rng: Rng,
  ) {
    if (!(params.initialMs > 0 && params.capMs >= params.initialMs)) throw new RangeError("backoff: bad parameters");
    this.durationMs = params.initialMs;
    this.lastBackoffStartMs = nowMs();
  }

  /** getNextBackoff: reset after resetMs of quiet, then Backoff.Step. */
  next(): number {
    const now = this.nowMs();
    if (now - this.lastBackoffStartMs > this.params.resetMs) {
      this.durationMs = this.params.initialMs;
      this.capped = false;
    }
    this.lastBackoffStartMs = now;
    return this.step();
  }

  /**
   * Backoff.Step: return the current duration (jittered) and grow it; when the growth passes the
   * cap, the duration becomes the cap and Steps becomes 0, after which every step is the cap.
   */
  private step(): number {
    if (this.capped) return this.withJitter(this.durationMs);
    const duration = this.durationMs;
    this.durationMs = Math.floor(this.durationMs * this.params.factor);
    if (this.durationMs > this.params.capMs) {
      this.durationMs = this.params.capMs;
      this.capped = true;
    }
    return this.withJitter(duration);
  }

  private withJitter(ms: number): number {
    return this.params.jitter > 0 ? jitter(ms, this.params.jitter, this.rng) : ms;
  }
}
