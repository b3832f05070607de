// Models updateRunningPodAndContainerMetrics of pkg/kubelet/pleg/generic.go: the gauges
// kubelet_running_containers{container_state} and kubelet_running_pods, set by every relist from
// the pods GetPods listed. Every release modelled (1.19+) counts a pod once it has a running
// sandbox (#85983); the label values are kubecontainer's container states.
import type { RuntimePod } from "../kuberuntime/running_pod.ts";

/** The two gauges, as the kubelet's metrics registry holds them (per PLEG here: one kubelet per node). */
export class RunningPodAndContainerMetrics {
  /** kubelet_running_containers by container_state: a state keeps its last value when a relist lists none in it (a GaugeVec's label). */
  readonly runningContainers = new Map<string, number>();
  /** kubelet_running_pods: null until the first successful relist. */
  runningPods: number | null = null;
  /**
   * Not upstream: the listing the gauges were last set from, when its pods are all frozen (deeply:
   * get_pods.ts freezes a pod with its containers and sandboxes). The same pods again set the
   * same values, so a relist of an unchanged node (most seconds) skips the count.
   */
  private lastListing: readonly RuntimePod[] | null = null;

  /** updateRunningPodAndContainerMetrics(pods). */
  update(pods: readonly RuntimePod[]): void {
    if (this.lastListing !== null && sameItems(this.lastListing, pods)) return;
    let runningSandboxNum = 0;
    const containerStateCount = new Map<string, number>();
    for (const pod of pods) {
      for (const c of pod.containers) containerStateCount.set(c.state, (containerStateCount.get(c.state) ?? 0) + 1);
      // Every pod should only have one running sandbox.
      if (pod.sandboxes.some((s) => s.state === "running")) runningSandboxNum++;
    }
    for (const [state, n] of containerStateCount) this.runningContainers.set(state, n);
    this.runningPods = runningSandboxNum;
    this.lastListing = pods.every((p) => Object.isFrozen(p)) ? pods : null;
  }
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
