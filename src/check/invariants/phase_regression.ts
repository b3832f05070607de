// Invariant phase-regressed-to-pending: once the apiserver shows a pod Running, it never shows the
// same pod (UID) Pending again, unless the kubelet gave the pod a new sandbox in between (a new
// sandbox starts initialization again: init containers rerun, and upstream reports that as
// Pending), the kubelet terminated the pod and started it again (a static pod removed and put back
// with its UID), or the object now stands for another pod of the kubelet (a static pod's mirror pod
// outlives an update of its manifest, which is a new pod with a new UID). The pod phase only moves forward, Pending → Running → Succeeded or Failed (the pod
// lifecycle documentation; generateAPIPodStatus's "pods are not allowed to transition out of
// terminal phases" is terminal-phase-never-changes). Source: pkg/kubelet/kubelet_pods.go
// convertToAPIContainerStatuses and getPhase; PR #95561 "kubelet container status calculation
// doesn't handle suddenly missing data properly" ("Unknown statuses could cause transitions from
// Running->Pending"), PR #95364; issues #102821, #54499; race R13.
import type { TraceRecord } from "../../sim/index.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";

const ID = "phase-regressed-to-pending";

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  RunPodSandbox: ["result", "pod"],
  Terminated: ["pod"],
  SyncPod: ["pod", "uid"],
  PodView: ["uid", "deleted", "phase", "pod"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** UID → when the API first showed it Running, and the kubelet's pod UID (its last SyncPod) then. */
  private readonly runningSince = new Map<string, { atMs: number; kubeletUid: string }>();
  /** Pod key → the UID of the kubelet's pod whose SyncPod began last (a static pod's differs from its mirror's). */
  private readonly kubeletUid = new Map<string, string>();
  /** Pod key → when the runtime last created a sandbox for it. */
  private readonly lastSandboxMs = new Map<string, number>();
  /** Pod key → when a pod worker last finished terminating a pod of that key. */
  private readonly lastTerminatedMs = new Map<string, number>();
  private readonly reported = new Set<string>();

  observe(rec: TraceRecord): Violation | null {
    if (rec.component === "runtime" && rec.kind === "RunPodSandbox" && rec.result === "ok" && typeof rec.pod === "string") {
      this.lastSandboxMs.set(rec.pod, rec.t);
      return null;
    }
    if (rec.component === "podworker" && rec.kind === "Terminated" && typeof rec.pod === "string") {
      this.lastTerminatedMs.set(rec.pod, rec.t);
      return null;
    }
    if (rec.component === "kubelet" && rec.kind === "SyncPod" && typeof rec.pod === "string" && typeof rec.uid === "string") {
      this.kubeletUid.set(rec.pod, rec.uid);
      return null;
    }
    if (rec.component !== "apiserver" || rec.kind !== "PodView" || typeof rec.uid !== "string" || rec.deleted === true) return null;
    const since = this.runningSince.get(rec.uid);
    if (rec.phase === "Running") {
      if (since === undefined) this.runningSince.set(rec.uid, { atMs: rec.t, kubeletUid: this.kubeletUid.get(String(rec.pod)) ?? "" });
      return null;
    }
    if (rec.phase !== "Pending" || since === undefined || this.reported.has(rec.uid)) return null;
    if ((this.lastSandboxMs.get(String(rec.pod)) ?? -1) > since.atMs) return null;
    if ((this.lastTerminatedMs.get(String(rec.pod)) ?? -1) > since.atMs) return null;
    if ((this.kubeletUid.get(String(rec.pod)) ?? "") !== since.kubeletUid) return null;
    this.reported.add(rec.uid);
    return {
      invariant: ID,
      t: rec.t,
      pod: String(rec.pod),
      message: `phase went from Running (since ${since.atMs}ms) back to Pending in the PodView at ${rec.t}ms for UID ${rec.uid}, with no new sandbox in between`,
    };
  }
}

export const phaseRegressedToPending: InvariantInfo = {
  id: ID,
  statement:
    "Once the apiserver shows a pod Running, the same pod (UID) is never shown Pending again unless the kubelet created a new sandbox for it in between, terminated and restarted it, or the object stands for another pod of the kubelet (a static pod's new UID behind the same mirror pod).",
  source: "pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses, getPhase (PRs #95561, #95364; issues #102821, #54499); race R13",
  make: () => new Monitor(),
};
