// Models k8s.io/apimachinery/pkg/util/wait JitterUntil (sliding), the loop both of the kubelet's
// heartbeats run on: f, then a sleep of period plus up to jitterFactor of it, drawn per round.
import { sleep, type Proc, type Rng } from "../../sim/index.ts";

/** wait.Jitter: period + rand.Float64()*maxFactor*period, here to the millisecond. */
export function jitterMs(periodMs: number, maxFactor: number, rng: Rng): number {
  return periodMs + rng.int(0, Math.floor(periodMs * maxFactor));
}

/** JitterUntil(f, period, jitterFactor, sliding=true, stop): bounded by the process's life (a kubelet restart kills it). */
export function* jitterUntil(f: () => Proc<void>, periodMs: number, jitterFactor: number, rng: Rng, label: string): Proc<void> {
  for (;;) {
    const waitMs = jitterMs(periodMs, jitterFactor, rng);
    yield* f();
    yield* sleep(waitMs, label);
  }
}
