// Invariant start-after-termination-requested: no container is created or started for a pod after
// its termination was requested. Source: pod_workers.go ("once a pod is terminating, all updates
// are kills"; ShouldPodContainersBeTerminating), races R01 and R02 in ../shared/races.md.
//
// A termination request belongs to a pod UID (the pod worker's records name it). The runtime's
// records name a pod only by namespace/name, which the old and the new UID of a static pod share
// (an updated manifest is a new UID under the same full name, race R04), so a container call is
// attributed to the UID whose SyncPod (the only sync that creates containers) began last for that
// name. The v1.21 kubelet has no termination state: there the kubelet learning of an API deletion
// (SyncLoopDELETE/REMOVE) is the request, for the UID last seen under that name (the pod worker's
// records name it; a static pod's update REMOVEs the old UID before the new one is ADDed, and the
// new UID's containers are not the old UID's business), by name only when no UID was seen yet; a
// static pod's mirror pod deleted in the API is not a request to stop the static pod, and from 1.22
// the pod worker's own records are the only requests (the mirror pod's deletion during a correct
// static pod update is not one). The message names the UID whose history it judges.
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { isLegacyEra } from "../../kubelet/kubelet_core.ts";
import { callStartMs, isOkCall, isSyncPodBegin, staticPodKeys, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "start-after-termination-requested";

interface Request {
  atMs: number;
  why: string;
  /** The UID the request is for (null: by name, before any UID was seen under it). */
  uid: string | null;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  SyncBegin: ["pod", "uid", "mode"],
  SyncPod: ["pod", "uid"],
  TerminationRequested: ["pod", "uid", "why"],
  UpdatePod: ["pod", "uid", "updateType"],
  WorkerRemoved: ["pod", "uid"],
  WorkerForgotten: ["pod", "uid"],
  SyncLoopDELETE: ["pod", "uid", "pods", "source"],
  SyncLoopREMOVE: ["pod", "uid", "pods", "source"],
  CreateContainer: ["pod", "uid", "result", "tookMs", "container"],
  StartContainer: ["pod", "uid", "result", "tookMs", "container"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** Pod UID → when its termination was first requested. */
  private readonly byUid = new Map<string, Request>();
  /** Pod key → UID: the pod whose SyncPod began last under that name. */
  private readonly syncing = new Map<string, string>();
  /** Pod key → a v1.21 request by name (the kubelet saw the API object deleted or removed before any UID of it). */
  private readonly byName = new Map<string, Request>();
  /** Pod key → the UID the pod worker's records named last under it (v1.21's requests go to it). */
  private readonly lastUid = new Map<string, string>();

  constructor(
    private readonly legacy: boolean,
    private readonly staticKeys: ReadonlySet<string>,
  ) {}

  observe(rec: TraceRecord): Violation | null {
    const pod = typeof rec.pod === "string" ? rec.pod : null;
    this.track(rec, pod);
    if (pod === null) return null;
    if (!(isOkCall(rec, "CreateContainer") || isOkCall(rec, "StartContainer"))) return null;
    const uid = this.syncing.get(pod);
    const r = (uid === undefined ? undefined : this.byUid.get(uid)) ?? this.byName.get(pod);
    if (r === undefined || callStartMs(rec) <= r.atMs) return null;
    const whose = r.uid === null ? "" : ` of pod UID ${short(r.uid)}`;
    return {
      invariant: ID,
      t: rec.t,
      pod,
      message: `${rec.kind} of container ${String(rec.container)}${whose} began at ${callStartMs(rec)}ms, after its termination was requested at ${r.atMs}ms (${r.why})`,
    };
  }

  private track(rec: TraceRecord, pod: string | null): void {
    const uid = typeof rec.uid === "string" ? rec.uid : null;
    if (pod !== null && uid !== null && isSyncPodBegin(rec)) this.syncing.set(pod, uid);
    if (pod !== null && uid !== null && (rec.component === "podworker" || isSyncPodBegin(rec))) this.lastUid.set(pod, uid);
    if (rec.component === "podworker" && uid !== null) {
      if (rec.kind === "TerminationRequested") this.mark(uid, rec.t, String(rec.why ?? "terminating"));
      else if (rec.kind === "UpdatePod" && rec.updateType === "kill") this.mark(uid, rec.t, "kill update");
      // The worker is gone; a create for the same UID starts it afresh (R03's restart).
      else if (rec.kind === "WorkerRemoved" || rec.kind === "WorkerForgotten") this.byUid.delete(uid);
      return;
    }
    if (this.legacy) this.trackLegacy(rec);
  }

  private trackLegacy(rec: TraceRecord): void {
    if (rec.component === "kubelet" && (rec.kind === "SyncLoopDELETE" || rec.kind === "SyncLoopREMOVE") && Array.isArray(rec.pods)) {
      for (const p of rec.pods as string[]) {
        // A static pod's name in the API is its mirror pod: deleting that is not a kill.
        if (rec.source === "api" && this.staticKeys.has(p)) continue;
        const uid = this.lastUid.get(p);
        if (uid !== undefined) this.mark(uid, rec.t, rec.kind);
        else if (!this.byName.has(p)) this.byName.set(p, { atMs: rec.t, why: rec.kind, uid: null });
      }
    }
  }

  private mark(uid: string, atMs: number, why: string): void {
    if (!this.byUid.has(uid)) this.byUid.set(uid, { atMs, why, uid });
  }
}

/** A UID as the messages print it: its first 8 characters. */
function short(uid: string): string {
  return uid.slice(0, 8);
}

export const startAfterTerminationRequested: InvariantInfo = {
  id: ID,
  statement: "No container is created or started for a pod after its termination was requested.",
  source: "pkg/kubelet/pod_workers.go (UpdatePod, ShouldPodContainersBeTerminating); races R01, R02",
  make: (scenario: Scenario) => new Monitor(isLegacyEra(scenario.kubelet.version), staticPodKeys(scenario)),
};
