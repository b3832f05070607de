// Invariant start-after-termination-requested: no container is created or started for a pod after
// its termination was requested. Source: pod_workers.go ("once a pod is terminating, all updates
// are kills"; ShouldPodContainersBeTerminating), races R01 and R02 in ../shared/races.md.
import type { TraceRecord } from "../../sim/index.ts";
import { callStartMs, isOkCall, type InvariantInfo, type InvariantMonitor, type Violation } from "./common.ts";

const ID = "start-after-termination-requested";

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly kinds: readonly string[] = ["TerminationRequested", "UpdatePod", "WorkerRemoved", "WorkerForgotten", "SyncLoopDELETE", "SyncLoopREMOVE", "PodView", "CreateContainer", "StartContainer"];
  /** Pod key → when its termination was requested, and for which UID. */
  private readonly requested = new Map<string, { atMs: number; uid: string | null; why: string }>();

  observe(rec: TraceRecord): Violation | null {
    const pod = typeof rec.pod === "string" ? rec.pod : null;
    this.trackRequests(rec, pod);
    if (pod === null) return null;
    if (!(isOkCall(rec, "CreateContainer") || isOkCall(rec, "StartContainer"))) return null;
    const r = this.requested.get(pod);
    if (r === undefined || callStartMs(rec) <= r.atMs) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod,
      message: `${rec.kind} of container ${String(rec.container)} began at ${callStartMs(rec)}ms, after termination was requested at ${r.atMs}ms (${r.why})`,
    };
  }

  private trackRequests(rec: TraceRecord, pod: string | null): void {
    if (rec.component === "podworker" && pod !== null) {
      if (rec.kind === "TerminationRequested") this.mark(pod, rec, String(rec.why ?? "terminating"));
      else if (rec.kind === "UpdatePod" && rec.updateType === "kill") this.mark(pod, rec, "kill update");
      else if (rec.kind === "WorkerRemoved" || rec.kind === "WorkerForgotten") this.requested.delete(pod);
      return;
    }
    // v1.21 has no termination state: the kubelet learning of the deletion is the request.
    if (rec.component === "kubelet" && (rec.kind === "SyncLoopDELETE" || rec.kind === "SyncLoopREMOVE") && Array.isArray(rec.pods)) {
      for (const p of rec.pods as string[]) if (!this.requested.has(p)) this.requested.set(p, { atMs: rec.t, uid: null, why: rec.kind });
      return;
    }
    // A new object under the same name is a new pod: its termination has not been requested.
    if (rec.component === "apiserver" && rec.kind === "PodView" && pod !== null) {
      const r = this.requested.get(pod);
      if (r !== undefined && r.uid !== null && rec.uid !== r.uid) this.requested.delete(pod);
    }
  }

  private mark(pod: string, rec: TraceRecord, why: string): void {
    if (!this.requested.has(pod)) this.requested.set(pod, { atMs: rec.t, uid: typeof rec.uid === "string" ? rec.uid : null, why });
  }
}

export const startAfterTerminationRequested: InvariantInfo = {
  id: ID,
  statement: "No container is created or started for a pod after its termination was requested.",
  source: "pkg/kubelet/pod_workers.go (UpdatePod, ShouldPodContainersBeTerminating); races R01, R02",
  make: () => new Monitor(),
};
