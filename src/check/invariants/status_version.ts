// Invariant status-version-monotonic: the status manager's versions of a pod's status only grow:
// each new cached status gets a higher version than the last, and the apiserver is never written
// an older version after a newer one. Source: pkg/kubelet/status/status_manager.go
// (versionedPodStatus: "Monotonically increasing version number (per pod)"; apiStatusVersions).
// A kubelet restart starts a new status manager, and a status the manager forgot (its pod deleted,
// recreated or orphaned) starts again at 1: both reset the count.
import type { TraceRecord } from "../../sim/index.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";

const ID = "status-version-monotonic";
/** The records updateStatusInternal writes when it caches a new version, named by their cause. */
const MINTED = new Set(["SetPodStatus", "SetContainerReadiness", "SetContainerStartup", "TerminatePod"]);

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  KubeletStart: [],
  RemoveOrphanedStatuses: ["uids", "uid", "version"],
  DeletePod: ["uid", "version", "result", "pod"],
  PodRecreated: ["uid", "version"],
  ...Object.fromEntries([...MINTED].map((k) => [k, ["uid", "version", "pod"]])),
  PatchStatus: ["uid", "version", "result", "pod"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** UID → the last version cached, and the last version written to the apiserver. */
  private readonly minted = new Map<string, number>();
  private readonly written = new Map<string, number>();

  observe(rec: TraceRecord): Violation | null {
    if (rec.component === "kubelet" && rec.kind === "KubeletStart") {
      this.minted.clear();
      this.written.clear();
      return null;
    }
    if (rec.component !== "status") return null;
    if (rec.kind === "RemoveOrphanedStatuses" && Array.isArray(rec.uids)) for (const u of rec.uids) this.forget(String(u));
    const uid = typeof rec.uid === "string" ? rec.uid : null;
    const version = typeof rec.version === "number" ? rec.version : null;
    if (uid === null || version === null) return null;
    if ((rec.kind === "DeletePod" && rec.result === "deleted") || rec.kind === "PodRecreated") {
      this.forget(uid);
      return null;
    }
    if (MINTED.has(rec.kind)) return this.check(this.minted, rec, uid, version, true, "cached");
    if (rec.kind === "PatchStatus" && (rec.result === "patched" || rec.result === "unchanged")) {
      return this.check(this.written, rec, uid, version, false, "written to the apiserver");
    }
    return null;
  }

  private check(seen: Map<string, number>, rec: TraceRecord, uid: string, version: number, strict: boolean, what: string): Violation | null {
    const last = seen.get(uid);
    seen.set(uid, Math.max(version, last ?? 0));
    if (last === undefined || version > last || (!strict && version === last)) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod: String(rec.pod ?? uid),
      message: `status version ${version} ${what} (${rec.kind}) after version ${last} for UID ${uid}`,
    };
  }

  private forget(uid: string): void {
    this.minted.delete(uid);
    this.written.delete(uid);
  }
}

export const statusVersionMonotonic: InvariantInfo = {
  id: ID,
  statement: "A pod's status version only grows: each cached status is newer than the last, and the apiserver never gets an older one after a newer one.",
  source: "pkg/kubelet/status/status_manager.go (versionedPodStatus: \"Monotonically increasing version number (per pod)\"; apiStatusVersions)",
  make: () => new Monitor(),
};
