// Models pkg/kubelet/status/status_manager.go: the status rewrite of TerminatePod (hasPodInitialized, initializedContainers), per release.
import type { ContainerStatus, Pod, PodStatus } from "../../k8s/pod.ts";
import { IsStaticPod } from "../types.ts";
import { isRestartableInitContainer } from "../../k8s/podutil.ts";
import type { StatusEra } from "./era.ts";
import { cloneJSON } from "../../k8s/json.ts";

const CONTAINER_STATUS_UNKNOWN = {
  reason: "ContainerStatusUnknown",
  message: "The container could not be located when the pod was terminated",
  exitCode: 137,
} as const;

/**
 * The status TerminatePod hands to updateStatusInternal: every container that could have started
 * and has no terminated state is reported as terminated with exit code 137, so that a status lost
 * to garbage collection or a restart is never mistaken for success. `oldStatus` is the cached
 * status, or the pod's own when nothing is cached; the result is a fresh object.
 */
export function terminatedPodStatus(pod: Pod, oldStatus: PodStatus, era: StatusEra): PodStatus {
  const status: PodStatus = cloneJSON(oldStatus);
  const regular = status.containerStatuses ?? [];
  const init = status.initContainerStatuses ?? [];
  if (!era.terminatePodInitAware) {
    // ≤1.23: every container without a terminated state (≤1.21: nor a waiting one) is defaulted.
    for (const s of [...regular, ...init]) {
      if (s.state?.terminated !== undefined) continue;
      if (era.terminatePodSkipsWaiting && s.state?.waiting !== undefined) continue;
      markUnknown(s);
    }
  } else {
    // Once a pod has initialized, any missing status is treated as a failure.
    if (hasPodInitialized(pod, era.sidecarAwareReadiness)) for (const s of regular) if (s.state?.terminated === undefined) markUnknown(s);
    // All but the final suffix of init containers with no evidence of a start are marked failed.
    const n = initializedContainers(init);
    for (const s of init.slice(0, n)) if (s.state?.terminated === undefined) markUnknown(s);
  }
  if (era.terminatePodSetsTerminalPhase && !IsStaticPod(pod)) {
    // Make sure all pods are transitioned to a terminal phase. Upstream logs a "programmer error"
    // for a cached Running status and for an unknown phase; both become Failed all the same.
    if (status.phase !== "Succeeded" && status.phase !== "Failed") status.phase = "Failed";
  }
  return status;
}

function markUnknown(s: ContainerStatus): void {
  s.state = { terminated: { ...CONTAINER_STATUS_UNKNOWN } };
}

/**
 * hasPodInitialized: true if the pod shows evidence of having started a regular container or of
 * having finished its init containers. It reads the pod's own (API) status, as upstream does.
 */
export function hasPodInitialized(pod: Pod, sidecarAware = false): boolean {
  const initContainers = pod.spec.initContainers ?? [];
  // A pod without init containers is always initialized.
  if (initContainers.length === 0) return true;
  // If any container has ever moved out of waiting state, the pod has initialized.
  for (const s of pod.status?.containerStatuses ?? []) {
    if (s.lastState?.terminated !== undefined || s.state?.waiting === undefined) return true;
  }
  // If the last init container has ever completed with a zero exit code, the pod is initialized.
  const inits = pod.status?.initContainerStatuses ?? [];
  const last = inits[inits.length - 1];
  if (last === undefined) return false;
  if (sidecarAware) {
    // ≥1.28 (KEP-753): matched to the spec by index; a last init container that is a sidecar
    // counts once it runs and has started.
    const container = initContainers[inits.length - 1];
    if (container === undefined || container.name !== last.name) return false; // "Mismatch between pod spec and status"
    if (isRestartableInitContainer(container)) return last.state?.running !== undefined && last.started === true;
  }
  if (last.lastState?.terminated?.exitCode === 0) return true;
  if (last.state?.terminated?.exitCode === 0) return true;
  return false;
}

/**
 * initializedContainers: how many leading statuses to consider, i.e. all but the suffix still
 * Waiting with no previous termination; at least one when the list is not empty.
 */
export function initializedContainers(containers: readonly ContainerStatus[]): number {
  for (let i = containers.length - 1; i >= 0; i--) {
    const c = containers[i]!;
    if (c.state?.waiting === undefined || c.lastState?.terminated !== undefined) return i + 1;
  }
  return containers.length > 0 ? 1 : 0;
}
