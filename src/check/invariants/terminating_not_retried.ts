// Invariant terminating-sync-not-retried: when a pod worker's terminating sync fails (a CRI error
// while stopping the containers), the worker tries again: another terminating sync of the same
// pod begins within 1.5 x the worker back-off period (10 s, jittered) + 2 housekeeping periods
// (+ 1 s), whether or not the pod is still in the kubelet's config. Source: pkg/kubelet/pod_workers.go
// (completeWork queues a retry for errors) and kubelet_pods.go HandlePodCleanups; race R24 (PR
// #113145, 1.27: "Force deleted pods may fail to terminate until the kubelet is restarted when the
// container runtime returns an error during termination"): in 1.22-1.26 the retry went through the
// work queue, and the sync loop looks queued pods up in the pod manager, where a force-deleted
// pod no longer is, so the worker stayed terminating for good.
//
// Not owed once the worker terminated or finished the pod, or the kubelet stopped.
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";

const ID = "terminating-sync-not-retried";

interface Failed {
  pod: string;
  atMs: number;
  err: string;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  KubeletStop: [],
  SyncEnd: ["uid", "mode", "err", "pod"],
  SyncBegin: ["uid", "mode"],
  Terminated: ["uid"],
  Finished: ["uid"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** UID → the failed terminating sync that awaits a retry. */
  private readonly failed = new Map<string, Failed>();
  /** advance judges only these (the dispatch skips it while there are none). */
  readonly deadlines = this.failed;

  constructor(private readonly boundMs: number) {}

  observe(rec: TraceRecord): Violation | null {
    const late = this.overdue(rec.t);
    if (rec.component === "kubelet" && rec.kind === "KubeletStop") this.failed.clear();
    if (rec.component === "podworker" && typeof rec.uid === "string") this.track(rec, rec.uid);
    return late;
  }

  /** Deadlines pass at the first record past them, read or not. */
  advance(nowMs: number): Violation | null {
    return this.overdue(nowMs);
  }

  private overdue(nowMs: number): Violation | null {
    for (const [uid, f] of this.failed) {
      if (nowMs <= f.atMs + this.boundMs) continue;
      this.failed.delete(uid);
      return {
        invariant: ID,
        t: nowMs,
        pod: f.pod,
        message: `the terminating sync of the pod failed at ${f.atMs}ms (${f.err}) and no terminating sync began again by ${nowMs}ms: the pod stays terminating`,
      };
    }
    return null;
  }

  private track(rec: TraceRecord, uid: string): void {
    if (rec.kind === "SyncEnd" && rec.mode === "terminating" && rec.err !== null && rec.err !== undefined) {
      this.failed.set(uid, { pod: String(rec.pod), atMs: rec.t, err: String(rec.err) });
    } else if ((rec.kind === "SyncBegin" && rec.mode === "terminating") || rec.kind === "Terminated" || rec.kind === "Finished") {
      this.failed.delete(uid);
    }
  }
}

export const terminatingSyncNotRetried: InvariantInfo = {
  id: ID,
  statement:
    "A failed terminating sync of a pod worker is followed by another terminating sync of that pod within 1.5 x the worker back-off period + 2 housekeeping periods + 1 s, whether or not the pod is still in the config.",
  source: "pkg/kubelet/pod_workers.go completeWork, kubelet_pods.go HandlePodCleanups; race R24 (PR #113145)",
  make: (scenario: Scenario) =>
    new Monitor(Math.floor(1.5 * scenario.kubelet.backOffPeriodMs) + 2 * scenario.kubelet.housekeepingPeriodMs + 1_000),
};
