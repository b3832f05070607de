// Invariant pleg-stall-delays-other-pods: one pod's slow status inspection never holds up another
// pod's worker. A pod worker that has synced waits for a pod status newer than its last sync
// (cache.GetNewerThan); the generic PLEG gives one only when a relist completes, and a relist
// inspects the pods that changed one after another. A status call that hangs for one pod therefore
// freezes the cache's global timestamp, and every other pod's deletions, restarts and probe-driven
// syncs wait for it (#45419 "PLEG is not healthy", #94829: one hung inspect, a 4-minute relist).
// The rule: no worker waits longer than WAIT_BOUND in GetNewerThan while a status call (the PLEG's
// per-pod status calls) of another pod took at least half that long during the wait. Source:
// pkg/kubelet/pleg/generic.go (relist, updateCache, cache.UpdateTime) and container/cache.go
// (GetNewerThan); race R10 (upstream never removed the head-of-line blocking; PR #45496 made the
// health signal honest; KEP-3386, Evented PLEG, is the design answer).
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { globalCacheUpdatePeriodMs } from "../../kubelet/pleg/evented.ts";
import { callStartMs, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "pleg-stall-delays-other-pods";
/**
 * The per-pod status calls of the PLEG's inspection (GetPodStatus): PodSandboxStatus and
 * ContainerStatus. The listings (ListPodSandbox, ListContainers) are not one pod's: a hung listing
 * holds every pod alike, its own included.
 */
const INSPECTION = new Set(["PodSandboxStatus", "ContainerStatus"]);
/** Slow calls kept for matching, at most (older ones are dropped first). */
const MAX_SLOW_CALLS = 256;

interface SlowCall {
  pod: string;
  method: string;
  startMs: number;
  endMs: number;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  PodView: ["uid", "pod"],
  GetNewerThan: ["waitedMs", "uid", "pod"],
  ...Object.fromEntries([...INSPECTION].map((k) => [k, ["pod", "tookMs"]])),
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  private readonly podByUid = new Map<string, string>();
  private readonly slow: SlowCall[] = [];

  constructor(private readonly boundMs: number) {}

  observe(rec: TraceRecord): Violation | null {
    if (rec.component === "apiserver" && rec.kind === "PodView" && typeof rec.uid === "string" && typeof rec.pod === "string") {
      this.podByUid.set(rec.uid, rec.pod);
      return null;
    }
    if (rec.component === "runtime" && INSPECTION.has(rec.kind) && typeof rec.pod === "string" && typeof rec.tookMs === "number") {
      if (rec.tookMs >= this.boundMs / 2) {
        this.slow.push({ pod: rec.pod, method: rec.kind, startMs: callStartMs(rec), endMs: rec.t });
        if (this.slow.length > MAX_SLOW_CALLS) this.slow.shift();
      }
      return null;
    }
    if (rec.component !== "cache" || rec.kind !== "GetNewerThan" || typeof rec.waitedMs !== "number") return null;
    if (rec.waitedMs <= this.boundMs || typeof rec.uid !== "string") return null;
    const pod = this.podByUid.get(rec.uid) ?? (typeof rec.pod === "string" ? rec.pod : rec.uid);
    const fromMs = rec.t - rec.waitedMs;
    const culprit = this.slow.find((c) => c.pod !== pod && c.startMs < rec.t && c.endMs > fromMs);
    if (culprit === undefined) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod,
      message: `the pod worker waited ${rec.waitedMs}ms for a fresh pod status (GetNewerThan) while ${culprit.method} of ${culprit.pod} took ${culprit.endMs - culprit.startMs}ms`,
    };
  }
}

/** Longer than any healthy wait: ten relist periods, or two of the Evented PLEG's global cache updates. */
export function stallBoundMs(relistPeriodMs: number): number {
  return Math.max(10 * relistPeriodMs, 2 * globalCacheUpdatePeriodMs);
}

export const plegStallDelaysOtherPods: InvariantInfo = {
  id: ID,
  statement:
    "No pod worker waits more than ten PLEG relist periods (at least 10s) for a fresh pod status while a status call of another pod holds the relist up.",
  source: "pkg/kubelet/pleg/generic.go relist/updateCache, container/cache.go GetNewerThan (#45419, #94829); race R10",
  make: (s: Scenario) => new Monitor(stallBoundMs(s.kubelet.plegRelistPeriodMs)),
};
