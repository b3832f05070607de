// Models pkg/kubelet/runtime.go (runtimeState: addHealthCheck, runtimeErrors): what syncLoop asks
// before every iteration. While it reports an error, syncLoop skips pod synchronization with an
// exponential back-off (100 ms to 5 s), and the node's Ready condition (nodestatus.ReadyCondition,
// not modelled) goes False with the same message: "PLEG is not healthy: pleg was last seen active
// 3m0s ago; threshold is 3m0s" (race R10).
// Simplified: the base runtime sync (updateRuntimeUp every 5 s) and the network check are not
// modelled; the runtime counts as up.
import { goErrorValue, type GoError } from "./types.ts";
import type { HealthResult } from "./pleg/pleg.ts";

interface HealthCheck {
  name: string;
  fn: () => HealthResult;
}

export class RuntimeState {
  private readonly healthChecks: HealthCheck[] = [];

  /** addHealthCheck: the kubelet adds "PLEG" (and "EventedPLEG" with the gate). */
  addHealthCheck(name: string, fn: () => HealthResult): void {
    this.healthChecks.push({ name, fn });
  }

  /** runtimeErrors: every failing check as "<name> is not healthy: <err>", aggregated; null when all pass. */
  runtimeErrors(): GoError {
    // Asked before every syncLoop iteration and nearly always healthy: no list until a check fails.
    let errs: string[] | null = null;
    for (let i = 0; i < this.healthChecks.length; i++) {
      const hc = this.healthChecks[i]!;
      const r = hc.fn();
      if (!r.ok) (errs ??= []).push(`${hc.name} is not healthy: ${r.err?.message ?? "unknown"}`);
    }
    if (errs === null) return null;
    // utilerrors.NewAggregate: one error prints as itself, several as a bracketed list.
    return goErrorValue(errs.length === 1 ? errs[0]! : `[${errs.join(", ")}]`);
  }
}
