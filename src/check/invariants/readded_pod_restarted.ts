// Invariant readded-pod-restarted: a pod that the kubelet's config removes and then adds again
// with the same UID (a static pod whose manifest is removed and put back) runs again: a SyncPod of
// that UID follows the re-add within a bound. Source: race R03 (issue #104648: in 1.22.0 "once a
// pod is terminated by UID, it cannot reenter the pod worker (until the UID is purged by
// housekeeping)", and housekeeping never purges a UID that is still desired; fixed by PR #104847,
// "kubelet: Handle UID reuse in pod worker", which sets restartRequested and lets housekeeping
// restart the pod within a housekeeping period of its termination).
//
// Precisely, from the records: `config REMOVE {uid}` marks the UID removed; a later `config ADD
// {uid}` of a removed UID is a re-add at t; a `kubelet SyncPod {uid}` at or after t serves it; a
// REMOVE of the UID again, or a kubelet stop (its config comes back as fresh ADDs), forgets it. The
// bound is the longest termination grace of the scenario's pods (the old instance finishes
// terminating first), plus two housekeeping periods (one to purge the finished worker, one to
// restart the pod), plus 10 s for the kill's and the sync's own calls. A violation is reported at
// the first record past the deadline, so a run that ends earlier reports nothing.
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";
import { DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS } from "../../k8s/defaults.ts";

const ID = "readded-pod-restarted";
const SLACK_MS = 10_000;

interface Readd {
  atMs: number;
  pod: string;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = { KubeletStop: [], REMOVE: ["uid"], ADD: ["uid", "pod"], SyncPod: ["uid"] };

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  private readonly removed = new Set<string>();
  private readonly pending = new Map<string, Readd>();
  /** advance judges only these (the dispatch skips it while there are none). */
  readonly deadlines = this.pending;

  constructor(private readonly boundMs: number) {}

  observe(rec: TraceRecord): Violation | null {
    const late = this.overdue(rec.t);
    this.apply(rec);
    return late;
  }

  /** Deadlines pass at the first record past them, read or not. */
  advance(nowMs: number): Violation | null {
    return this.overdue(nowMs);
  }

  private apply(rec: TraceRecord): void {
    if (rec.component === "kubelet" && rec.kind === "KubeletStop") {
      this.removed.clear();
      this.pending.clear();
      return;
    }
    if (typeof rec.uid !== "string") return;
    if (rec.component === "config" && rec.kind === "REMOVE") {
      this.removed.add(rec.uid);
      this.pending.delete(rec.uid);
    } else if (rec.component === "config" && rec.kind === "ADD" && this.removed.delete(rec.uid)) {
      this.pending.set(rec.uid, { atMs: rec.t, pod: typeof rec.pod === "string" ? rec.pod : "" });
    } else if (rec.component === "kubelet" && rec.kind === "SyncPod") {
      this.pending.delete(rec.uid);
    }
  }

  private overdue(nowMs: number): Violation | null {
    for (const [uid, r] of this.pending) {
      if (nowMs <= r.atMs + this.boundMs) continue;
      this.pending.delete(uid);
      return {
        invariant: ID,
        t: nowMs,
        pod: r.pod,
        message:
          `the config removed the pod and added it again with the same UID at ${r.atMs}ms, and no SyncPod of that UID ` +
          `began by ${r.atMs + this.boundMs}ms (the longest grace period, two housekeeping periods and 10s later): the pod does not run again`,
      };
    }
    return null;
  }
}

/** The longest grace of the scenario's pods, two housekeeping periods, and slack. */
export function readdedPodBoundMs(scenario: Scenario): number {
  const graceS = Math.max(0, ...scenario.pods.map((p) => p.manifest.spec?.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS));
  return graceS * 1000 + 2 * scenario.kubelet.housekeepingPeriodMs + SLACK_MS;
}

export const readdedPodRestarted: InvariantInfo = {
  id: ID,
  statement:
    "A pod the config removes and adds again with the same UID (a static pod manifest removed and put back) is synced again within its grace period + 2 housekeeping periods + 10s.",
  source: "race R03 (kubernetes issue #104648; PR #104847, v1.22.3 / v1.23)",
  make: (scenario: Scenario) => new Monitor(readdedPodBoundMs(scenario)),
};
