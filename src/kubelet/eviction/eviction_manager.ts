// Models pkg/kubelet/eviction/eviction_manager.go: evictPod, the one step of the eviction manager
// that touches the pod lifecycle. Which pod to evict, and when, is the scenario's to say (an
// `evict` step); the signals, thresholds and ranking that decide it upstream are not modelled.
//
// The kill goes through the kubelet's killPodFunc, whose shape changed with the pod worker rewrite
// (PR #102344, 1.22): before, the eviction manager handed over the final status; from 1.22 it
// hands over isEvicted and a status function the pod worker applies to the status it generates
// when it starts terminating the pod (KillPodOptions{Evict, PodStatusFunc, grace}).
// Not modelled: the DisruptionTarget condition (PodDisruptionConditions, 1.26+) and the eviction
// annotations of the event.
import type { Pod, PodStatus as APIPodStatus } from "../../k8s/pod.ts";
import type { Proc } from "../../sim/index.ts";
import type { GoError } from "../types.ts";
import type { PodStatusFunc } from "../pod_sync_status.ts";
import type { EventRecorder } from "../pod_workers_types.ts";

/** The reason the eviction manager writes into the pod's status and its event. */
export const Reason = "Evicted";

/** ≤1.21 eviction.KillPodFunc: kill with the final status. */
export type LegacyKillPodFunc = (pod: Pod, status: APIPodStatus, gracePeriodOverride: number | undefined) => Proc<GoError>;
/** ≥1.22 eviction.KillPodFunc: kill, marking the pod evicted, with a status function. */
export type KillPodFunc = (pod: Pod, isEvicted: boolean, gracePeriodOverride: number | undefined, statusFn: PodStatusFunc) => Proc<GoError>;

export type EraKillPodFunc = { legacy: true; kill: LegacyKillPodFunc } | { legacy: false; kill: KillPodFunc };

export interface EvictionResult {
  evicted: boolean;
  err: GoError;
}

export class EvictionManager {
  constructor(
    private readonly killPodFunc: EraKillPodFunc,
    private readonly recorder: EventRecorder,
  ) {}

  /**
   * evictPod: record the eviction, then kill the pod and block until its containers are killed.
   * Critical pods (static, mirror, or of system priority) are never evicted. `reason` is Evicted
   * for the eviction manager; other kubelet-internal kills (graceful node shutdown) pass their own.
   */
  *evictPod(pod: Pod, gracePeriodOverride: number | undefined, evictMsg: string, reason: string = Reason): Proc<EvictionResult> {
    if (isCriticalPod(pod)) return { evicted: false, err: new Error("cannot evict a critical pod") };
    // record that we are evicting the pod
    this.recorder.Eventf(pod, "Warning", reason, evictMsg);
    const k = this.killPodFunc;
    // this is a blocking call and should only return when the pod and its containers are killed.
    const err = k.legacy
      ? yield* k.kill(pod, { phase: "Failed", message: evictMsg, reason }, gracePeriodOverride)
      : yield* k.kill(pod, true, gracePeriodOverride, (status) => {
          status.phase = "Failed";
          status.reason = reason;
          status.message = evictMsg;
        });
    return { evicted: err === null, err };
  }
}

/** kubelettypes.IsCriticalPod: static and mirror pods, and pods of system-critical priority. */
export function isCriticalPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.["kubernetes.io/config.source"];
  if (source !== undefined && source !== "api") return true;
  if (pod.metadata.annotations?.["kubernetes.io/config.mirror"] !== undefined) return true;
  const priority = (pod.spec as { priority?: number }).priority;
  return priority !== undefined && priority >= 2_000_000_000;
}
