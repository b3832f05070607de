// Invariant container-start-after-pod-deleted: no container of a pod is created or started after
// the pod's object was removed from the apiserver (the status manager's final delete). Source:
// race R02 (PR #102344): before 1.22, cleanup loops took "not started yet" for "terminated",
// let the pod be deleted, and the in-flight sync then started its containers.
//
// Distance (guided exploration's directed feedback): in ms, how long before the pod's object left
// the apiserver the latest CreateContainer/StartContainer of that pod began (the smallest over the
// run's deletions): a call that begins that much later breaks the rule. 0 once broken.
import type { TraceRecord } from "../../sim/index.ts";
import { callStartMs, isOkCall, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "container-start-after-pod-deleted";

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  PodView: ["pod", "deleted", "uid"],
  CreateContainer: ["pod", "result", "tookMs", "container"],
  StartContainer: ["pod", "result", "tookMs", "container"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** Pod key → when its object left the apiserver, and its UID. */
  private readonly deleted = new Map<string, { atMs: number; uid: unknown }>();
  /** Pod key → when its latest successful CreateContainer/StartContainer began. */
  private readonly lastStartMs = new Map<string, number>();
  private closestMs: number | null = null;

  distance(): number | null {
    return this.closestMs;
  }

  private closer(ms: number): void {
    if (this.closestMs === null || ms < this.closestMs) this.closestMs = Math.max(0, ms);
  }

  observe(rec: TraceRecord): Violation | null {
    if (typeof rec.pod !== "string") return null;
    if (rec.component === "apiserver" && rec.kind === "PodView") {
      if (rec.deleted === true) {
        this.deleted.set(rec.pod, { atMs: rec.t, uid: rec.uid });
        const last = this.lastStartMs.get(rec.pod);
        if (last !== undefined) this.closer(rec.t - last);
      }
      else if (this.deleted.get(rec.pod)?.uid !== rec.uid) this.deleted.delete(rec.pod); // a new pod, same name
      return null;
    }
    if (!(isOkCall(rec, "CreateContainer") || isOkCall(rec, "StartContainer"))) return null;
    const d = this.deleted.get(rec.pod);
    this.lastStartMs.set(rec.pod, callStartMs(rec));
    if (d !== undefined) this.closer(d.atMs - callStartMs(rec));
    if (d === undefined || callStartMs(rec) <= d.atMs) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod: rec.pod,
      message: `${rec.kind} of container ${String(rec.container)} began at ${callStartMs(rec)}ms, after the pod was deleted from the apiserver at ${d.atMs}ms`,
    };
  }
}

export const containerStartAfterPodDeleted: InvariantInfo = {
  id: ID,
  statement: "No container of a pod is created or started after the pod was deleted from the apiserver.",
  source: "race R02 (kubernetes PR #102344, v1.22: \"Keep pod worker running until pod is truly complete\")",
  make: () => new Monitor(),
};
