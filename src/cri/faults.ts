// Models staging/src/k8s.io/cri-api/pkg/apis/testing/fake_runtime_service.go (InjectError, popError), in time.
//
// Upstream's fake keeps a queue of errors per method, and each call pops one. Here a fault is a
// rule: it matches calls of one method, optionally for one pod or container and only inside a time
// window [fromMs, toMs); it counts the calls it matches and fires on the `call`-th one and the
// `times - 1` after it. InjectError is the rule "the next call of this method fails once".
import type { CriFault } from "./config.ts";
import type { CriMethod } from "./methods.ts";

/** Who a call is about, as far as the runtime can tell when the call arrives. */
export interface CallSite {
  method: CriMethod;
  /** "namespace/name", or null when the call names no pod (ListContainers, an unknown ID). */
  pod: string | null;
  container: string | null;
}

interface Rule {
  readonly fault: CriFault;
  matched: number;
}

export class FaultInjector {
  private readonly rules: Rule[] = [];

  constructor(faults: readonly CriFault[] = []) {
    for (const f of faults) this.add(f);
  }

  add(fault: CriFault): void {
    if (!Number.isInteger(fault.call) || fault.call < 1) throw new RangeError(`fault on ${fault.method}: call must be >= 1`);
    if (fault.times !== null && (!Number.isInteger(fault.times) || fault.times < 1)) {
      throw new RangeError(`fault on ${fault.method}: times must be >= 1`);
    }
    this.rules.push({ fault, matched: 0 });
  }

  /** FakeRuntimeService.InjectError: the next call of `method` fails once with `message`. */
  injectError(method: CriMethod, message: string, site: { pod?: string; container?: string } = {}): void {
    this.add({
      method,
      pod: site.pod ?? null,
      container: site.container ?? null,
      call: 1,
      times: 1,
      fromMs: 0,
      toMs: null,
      kind: "error",
      message,
    });
  }

  /**
   * Counts the call against every rule it matches and returns the first rule (in the order they
   * were added) that fires on it, or null. Every matching rule counts, fired or not, so two
   * rules on the same method keep independent call numbers.
   */
  match(site: CallSite, nowMs: number): CriFault | null {
    let fired: CriFault | null = null;
    for (const rule of this.rules) {
      if (!matches(rule.fault, site, nowMs)) continue;
      rule.matched++;
      const { call, times } = rule.fault;
      const fires = rule.matched >= call && (times === null || rule.matched < call + times);
      if (fires && fired === null) fired = rule.fault;
    }
    return fired;
  }
}

function matches(f: CriFault, site: CallSite, nowMs: number): boolean {
  if (f.method !== site.method) return false;
  if (f.pod !== null && f.pod !== site.pod) return false;
  if (f.container !== null && f.container !== site.container) return false;
  if (nowMs < f.fromMs) return false;
  return f.toMs === null || nowMs < f.toMs;
}
