// Invariant api-delete-before-containers-stopped: the kubelet removes a pod's API object (the
// status manager's DeletePod, a delete with grace period 0) only once none of the pod's containers
// runs. Source: pkg/kubelet/status/status_manager.go canBeDeleted and kubelet_pods.go
// PodResourcesAreReclaimed ("We shouldn't delete pods that still have running containers"); race
// R02 (#102344: before 1.22 the status manager deleted pods whose containers the pod worker was
// still starting).
// Mirror pods of static pods are left out: the kubelet replaces a mirror pod while the static
// pod runs on, which is how mirror pods work.
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { mergeReads, staticPodKeys, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";
import { RUNTIME_CONTAINER_READS, RuntimeContainers } from "./containers.ts";

const ID = "api-delete-before-containers-stopped";

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = mergeReads(RUNTIME_CONTAINER_READS, {
  PodView: ["uid"],
  ContainerStarted: ["uid"],
  ContainerExited: ["uid"],
  DeletePod: ["pod", "uid", "result"],
  Delete: ["pod", "uid", "actor", "result", "gracePeriodSeconds"],
});

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  private readonly containers = new RuntimeContainers();
  /** "pod|uid" deletes already judged (the apiserver's record and the status manager's name the same delete). */
  private readonly judged = new Set<string>();

  constructor(private readonly staticPods: ReadonlySet<string>) {}

  observe(rec: TraceRecord): Violation | null {
    this.containers.observe(rec);
    if (!this.isKubeletDelete(rec)) return null;
    const pod = rec.pod as string;
    const uid = String(rec.uid);
    const once = `${pod}|${uid}`;
    if (this.judged.has(once)) return null;
    this.judged.add(once);
    const running = this.containers.runningOf(pod, uid);
    if (running.length === 0) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod,
      message: `the kubelet deleted the pod's API object (${rec.component} ${rec.kind}, grace 0) while container(s) ${running.map((c) => `${c.container} (${c.id})`).join(", ")} still ran`,
    };
  }

  private isKubeletDelete(rec: TraceRecord): boolean {
    if (typeof rec.pod !== "string" || typeof rec.uid !== "string" || this.staticPods.has(rec.pod)) return false;
    if (rec.component === "status") return rec.kind === "DeletePod" && rec.result === "deleted";
    return rec.component === "apiserver" && rec.kind === "Delete" && rec.actor === "kubelet" && rec.result === "ok" && rec.gracePeriodSeconds === 0;
  }
}

export const apiDeleteBeforeContainersStopped: InvariantInfo = {
  id: ID,
  statement: "The kubelet deletes a pod's API object (grace period 0) only once none of the pod's containers runs.",
  source: "pkg/kubelet/status/status_manager.go canBeDeleted, kubelet_pods.go PodResourcesAreReclaimed; race R02 (#102344)",
  make: (scenario: Scenario) => new Monitor(staticPodKeys(scenario)),
};
