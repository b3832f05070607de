// Invariant phase-regressed-to-pending: once the apiserver shows a pod Running, it never shows the
// same pod (UID) Pending again, unless the kubelet gave the pod a new sandbox in between (a new
// sandbox starts initialization again: init containers rerun, and upstream reports that as
// Pending). The pod phase only moves forward, Pending → Running → Succeeded or Failed (the pod
// lifecycle documentation; generateAPIPodStatus's "pods are not allowed to transition out of
// terminal phases" is terminal-phase-never-changes). Source: pkg/kubelet/kubelet_pods.go
// convertToAPIContainerStatuses and getPhase; PR #95561 "kubelet container status calculation
// doesn't handle suddenly missing data properly" ("Unknown statuses could cause transitions from
// Running->Pending"), PR #95364; issues #102821, #54499; race R13.
import type { TraceRecord } from "../../sim/index.ts";
import type { InvariantInfo, InvariantMonitor, Violation } from "./common.ts";

const ID = "phase-regressed-to-pending";

class Monitor implements InvariantMonitor {
  readonly id = ID;
  /** UID → when the API first showed it Running. */
  private readonly runningSince = new Map<string, number>();
  /** Pod key → when the runtime last created a sandbox for it. */
  private readonly lastSandboxMs = new Map<string, number>();
  private readonly reported = new Set<string>();

  observe(rec: TraceRecord): Violation | null {
    if (rec.component === "runtime" && rec.kind === "RunPodSandbox" && rec.result === "ok" && typeof rec.pod === "string") {
      this.lastSandboxMs.set(rec.pod, rec.t);
      return null;
    }
    if (rec.component !== "apiserver" || rec.kind !== "PodView" || typeof rec.uid !== "string" || rec.deleted === true) return null;
    const since = this.runningSince.get(rec.uid);
    if (rec.phase === "Running") {
      if (since === undefined) this.runningSince.set(rec.uid, rec.t);
      return null;
    }
    if (rec.phase !== "Pending" || since === undefined || this.reported.has(rec.uid)) return null;
    if ((this.lastSandboxMs.get(String(rec.pod)) ?? -1) > since) return null;
    this.reported.add(rec.uid);
    return {
      invariant: ID,
      t: rec.t,
      pod: String(rec.pod),
      message: `phase went from Running (since ${since}ms) back to Pending for UID ${rec.uid}, with no new sandbox in between`,
    };
  }
}

export const phaseRegressedToPending: InvariantInfo = {
  id: ID,
  statement: "Once the apiserver shows a pod Running, the same pod (UID) is never shown Pending again unless the kubelet created a new sandbox for it in between.",
  source: "pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses, getPhase (PRs #95561, #95364; issues #102821, #54499); race R13",
  make: () => new Monitor(),
};
