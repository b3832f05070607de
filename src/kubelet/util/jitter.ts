// Models k8s.io/apimachinery/pkg/util/wait.Jitter: duration + rand*maxFactor*duration.
import type { Rng } from "../../sim/index.ts";

/**
 * wait.Jitter(duration, maxFactor) in whole milliseconds. Upstream draws a float in [0, 1);
 * here the extra is a uniform integer in [0, floor(maxFactor * durationMs)], from the caller's
 * named stream so that jitter never shifts other components' draws.
 */
export function jitterMs(rng: Rng, durationMs: number, maxFactor: number): number {
  const factor = maxFactor <= 0 ? 1 : maxFactor;
  return durationMs + rng.int(0, Math.floor(factor * durationMs));
}
