// Invariant one-static-pod-per-full-name: at most one pod per static full name has running
// containers. Updating a static pod's manifest gives a new UID under the same full name
// (name_namespace); the new pod must not start while the old one still runs: two etcds on one data
// directory, two apiservers on one port. Source: pkg/kubelet/pod_workers.go allowPodStart and
// allowStaticPodStart ("Ensure there is one running static pod with the same full name", PR
// #104743; issue #97722 "Static pod should be updated by respecting terminationGracePeriodSeconds");
// race R04.
//
// From the runtime's records: a container belongs to the kubelet UID whose SyncPod began last
// under its pod key (RuntimeContainers); a ContainerStarted for one UID while a container of
// another UID of the same key still runs is the violation. Only static pods are checked: for pods
// from the apiserver, a new object under an old name is a controller's decision (a StatefulSet
// waits for the old object to be gone), not the pod worker's.
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { staticPodKeys, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";
import { CALL_CONTAINER_READS, RuntimeContainers } from "./containers.ts";

const ID = "one-static-pod-per-full-name";

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads: RecordReads = CALL_CONTAINER_READS;
  private readonly containers = new RuntimeContainers("call");
  /** Pod keys already reported. */
  private readonly reported = new Set<string>();

  constructor(private readonly staticKeys: ReadonlySet<string>) {}

  observe(rec: TraceRecord): Violation | null {
    const started = this.containers.observe(rec);
    if (started === null || !this.staticKeys.has(started.pod) || this.reported.has(started.pod)) return null;
    const other = this.containers.runningOf(started.pod).find((c) => c.kubeletUid !== started.kubeletUid);
    if (other === undefined) return null;
    this.reported.add(started.pod);
    return {
      invariant: ID,
      t: rec.t,
      pod: started.pod,
      message:
        `container ${started.container} (${started.id}) of pod UID ${short(started.kubeletUid)} started while container ` +
        `${other.container} (${other.id}) of UID ${short(other.kubeletUid)}, the same static full name, still ran (since ${other.startedAtMs}ms)`,
    };
  }
}

function short(uid: string): string {
  return uid === "" ? "(unknown)" : uid.slice(0, 8);
}

export const oneStaticPodPerFullName: InvariantInfo = {
  id: ID,
  statement: "At most one pod per static pod full name has running containers: an updated static pod starts only after the old one stopped.",
  source: "pkg/kubelet/pod_workers.go allowPodStart, allowStaticPodStart (PR #104743; issue #97722); race R04",
  make: (scenario: Scenario) => new Monitor(staticPodKeys(scenario)),
};
