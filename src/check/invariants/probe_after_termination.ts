// Invariant probe-after-termination-requested: once the kubelet has observed a pod's termination,
// no liveness or startup probe of that pod runs, and no container is killed for failing one.
// Source: pkg/kubelet/prober/worker.go ("Graceful shutdown of the pod": a deleted pod's liveness
// and startup workers set Success "to ensure quiet shutdown" and stop, #98571) and
// kubelet.go SyncTerminatingPod (probeManager.StopLivenessAndStartup, #110191); race R16 in
// ../shared/races.md (#52817, #107473). Readiness is left out on purpose: it keeps running during
// termination so endpoints see the pod go unready (#110309).
import type { TraceRecord } from "../../sim/index.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";

const ID = "probe-after-termination-requested";
const GATED_PROBES = new Set(["liveness", "startup"]);
/** computePodActions' kill message for a failed liveness or startup probe ("Container app failed liveness probe, will be restarted"). */
const PROBE_KILL = /failed (liveness|startup) probe/;

interface Request {
  atMs: number;
  uid: string | null;
  why: string;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  TerminationRequested: ["pod", "uid", "why"],
  UpdatePod: ["pod", "uid", "updateType"],
  WorkerRemoved: ["pod"],
  WorkerForgotten: ["pod"],
  SyncLoopDELETE: ["pod", "pods"],
  SyncLoopREMOVE: ["pod", "pods"],
  PodView: ["pod", "uid"],
  ProbeRun: ["pod", "probeType", "uid", "container"],
  Event: ["pod", "reason", "message"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** Pod key → when the kubelet observed its termination. */
  private readonly requested = new Map<string, Request>();

  observe(rec: TraceRecord): Violation | null {
    const pod = typeof rec.pod === "string" ? rec.pod : null;
    this.track(rec, pod);
    if (pod === null) return null;
    const r = this.requested.get(pod);
    if (r === undefined) return null;
    if (rec.component === "prober" && rec.kind === "ProbeRun" && GATED_PROBES.has(String(rec.probeType))) {
      if (r.uid !== null && rec.uid !== r.uid) return null;
      return this.violation(rec, pod, r, `${String(rec.probeType)} probe of container ${String(rec.container)} ran`);
    }
    if (rec.kind === "Event" && rec.reason === "Killing" && typeof rec.message === "string" && PROBE_KILL.test(rec.message)) {
      return this.violation(rec, pod, r, `container killed for a probe failure ("${rec.message}")`);
    }
    return null;
  }

  private violation(rec: TraceRecord, pod: string, r: Request, what: string): Violation {
    return { invariant: ID, t: rec.t, pod, message: `${what} at ${rec.t}ms, after the kubelet observed the pod's termination at ${r.atMs}ms (${r.why})` };
  }

  /** The same notion of "termination observed" as start-after-termination-requested. */
  private track(rec: TraceRecord, pod: string | null): void {
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
    const uid = typeof rec.uid === "string" ? rec.uid : null;
    const r = this.requested.get(pod);
    if (r === undefined) this.requested.set(pod, { atMs: rec.t, uid, why });
    else if (r.uid === null && uid !== null) r.uid = uid;
  }
}

export const probeAfterTerminationRequested: InvariantInfo = {
  id: ID,
  statement:
    "Once the kubelet has observed a pod's termination, no liveness or startup probe of the pod runs and no container is killed for failing one.",
  source: "pkg/kubelet/prober/worker.go (graceful shutdown, #98571), kubelet.go SyncTerminatingPod (StopLivenessAndStartup, #110191); race R16",
  make: () => new Monitor(),
};
