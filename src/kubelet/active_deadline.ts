// Models pkg/kubelet/active_deadline.go: activeDeadlineHandler, registered by the kubelet both as a
// PodSyncLoopHandler (ShouldSync: getPodsToSync syncs a pod past its deadline even when its work
// queue time has not come) and as a PodSyncHandler (ShouldEvict: generateAPIPodStatus turns the pod
// Failed with reason DeadlineExceeded, and the pod worker then terminates it).
import type { Pod, PodStatus } from "../k8s/pod.ts";
import type { Sim } from "../sim/index.ts";
import { parseMetaTime } from "./status/metatime.ts";
import type { EventRecorder } from "./pod_workers_types.ts";

export const DeadlineExceededReason = "DeadlineExceeded";
export const DeadlineExceededMessage = "Pod was active on the node longer than the specified deadline";

export interface ShouldEvictResponse {
  reason: string;
  message: string;
}

export class ActiveDeadlineHandler {
  constructor(
    private readonly sim: Sim,
    /** status.PodStatusProvider: the status manager's latest status of a pod, if any. */
    private readonly podStatusProvider: { GetPodStatus(uid: string): PodStatus | undefined },
    private readonly recorder: EventRecorder,
  ) {}

  /** ShouldSync returns true if the pod is past its active deadline. */
  ShouldSync(pod: Pod): boolean {
    return this.pastActiveDeadline(pod);
  }

  /** ShouldEvict: past the deadline, records the event and says evict; null otherwise. */
  ShouldEvict(pod: Pod): ShouldEvictResponse | null {
    if (!this.pastActiveDeadline(pod)) return null;
    this.recorder.Eventf(pod, "Normal", DeadlineExceededReason, DeadlineExceededMessage);
    return { reason: DeadlineExceededReason, message: DeadlineExceededMessage };
  }

  /** pastActiveDeadline: active for at least activeDeadlineSeconds since the status's start time. */
  private pastActiveDeadline(pod: Pod): boolean {
    // No active deadline was specified.
    const deadlineSeconds = pod.spec.activeDeadlineSeconds;
    if (deadlineSeconds === undefined || deadlineSeconds === null) return false;
    // Get the latest status to determine if it was started.
    const podStatus = this.podStatusProvider.GetPodStatus(pod.metadata.uid ?? "") ?? pod.status ?? {};
    // We have no start time so just return.
    if (podStatus.startTime === undefined || podStatus.startTime === null || podStatus.startTime === "") return false;
    // Determine if the deadline was exceeded (clock.Since(start) >= allowed).
    return this.sim.nowMs - parseMetaTime(podStatus.startTime) >= deadlineSeconds * 1000;
  }
}
