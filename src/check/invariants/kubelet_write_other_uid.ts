// Invariant kubelet-write-to-other-uid: every write the kubelet makes to a pod (PATCH pods/status,
// DELETE) lands on the object it meant, the one whose metadata.uid it read, or fails. Source:
// PR #86320 ("kubelets should ensure their patch only applies to the same instance of the pod they
// observed") and PR #25224 ("so that kubelet won't delete pods with different uid but the same name
// and namespace accidentally"); race R15 (#82387, #25169).
//
// Read from the apiserver's own records (at the instant a request is applied): a kubelet Get that
// succeeded says which UID the kubelet saw under that name; a kubelet PatchStatus or Delete that
// succeeded says which UID it changed. The UID the write meant is its UID precondition when it has
// one, else the UID of the kubelet's last successful Get of the name. Simplification: the trace
// does not say which goroutine sent a request, so two kubelet loops reading the same name
// interleaved could hide a violation (never report a false one: a later Get can only have seen the
// object that holds the name now).
import type { TraceRecord } from "../../sim/index.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";

const ID = "kubelet-write-to-other-uid";
const KUBELET = "kubelet";

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  Get: ["actor", "result", "pod", "uid"],
  PatchStatus: ["actor", "result", "pod", "uid", "uidPrecondition"],
  Delete: ["actor", "result", "pod", "uid", "uidPrecondition"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** "ns/name" → the UID the kubelet's last successful Get of that name returned. */
  private readonly seen = new Map<string, string>();

  observe(rec: TraceRecord): Violation | null {
    if (rec.component !== "apiserver" || rec.actor !== KUBELET || rec.result !== "ok" || typeof rec.pod !== "string") return null;
    if (typeof rec.uid !== "string") return null;
    if (rec.kind === "Get") {
      this.seen.set(rec.pod, rec.uid);
      return null;
    }
    if (rec.kind !== "PatchStatus" && rec.kind !== "Delete") return null;
    const meant = typeof rec.uidPrecondition === "string" ? rec.uidPrecondition : this.seen.get(rec.pod);
    if (meant === undefined || meant === rec.uid) return null;
    const verb = rec.kind === "Delete" ? "DELETE" : "PATCH pods/status";
    return {
      invariant: ID,
      t: rec.t,
      pod: rec.pod,
      message: `the kubelet's ${verb} for uid ${meant} landed on ${rec.pod} uid ${rec.uid}, a pod recreated under the same name (no UID precondition)`,
    };
  }
}

export const kubeletWriteToOtherUid: InvariantInfo = {
  id: ID,
  statement:
    "Every kubelet PATCH pods/status or DELETE meant for the pod with uid A changes the object whose metadata.uid is A, or fails; it never lands on a pod recreated under the same name.",
  source: "PR #86320 (UID precondition on the status patch), PR #25224 (on delete); race R15 (#82387, #25169)",
  make: () => new Monitor(),
};
