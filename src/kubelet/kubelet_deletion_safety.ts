// Models PodResourcesAreReclaimed / PodCouldHaveRunningContainers in pkg/kubelet/kubelet_pods.go,
// the podDeletionSafety the status manager asks before deleting a pod from the apiserver.
import type { Pod, PodStatus as APIPodStatus } from "../k8s/pod.ts";
import type { PodDeletionSafetyProvider } from "./status/interfaces.ts";
import type { PodCacheReader } from "./pod_workers_types.ts";
import type { PodSetup } from "./kubelet_sync_common.ts";
import { notRunning } from "./kubelet_sync_legacy.ts";

/**
 * v1.21 and before: the API status shows no running container, the runtime's cache lists no
 * container of the pod at all (dead ones must be removed first), and volumes and the pod cgroup
 * are gone. Judging "no running containers" from statuses is what race R02 exploits.
 */
export function legacyDeletionSafety(podCache: PodCacheReader, setup: PodSetup): PodDeletionSafetyProvider {
  return {
    PodResourcesAreReclaimed(pod: Pod, status: APIPodStatus): boolean {
      if (!notRunning(status.containerStatuses ?? [])) return false; // "some containers are still running"
      const runtimeStatus = podCache.Get(pod.metadata.uid!);
      if (runtimeStatus === undefined) return false; // "Error getting runtimeStatus from the podCache"
      if (runtimeStatus.containerStatuses.length > 0) return false; // "some containers have not been cleaned up"
      return !setup.volumesExist(pod.metadata.uid!) && !setup.cgroupExists(pod.metadata.uid!);
    },
    PodCouldHaveRunningContainers(pod: Pod): boolean {
      // Not asked before 1.24; answered from the same evidence for completeness.
      const runtimeStatus = podCache.Get(pod.metadata.uid!);
      return runtimeStatus === undefined || runtimeStatus.containerStatuses.some((c) => c.state === "running");
    },
  };
}

/**
 * v1.22 and after: the pod workers say no container can be running, and volumes and the pod cgroup
 * are gone. Removing dead containers no longer blocks the final delete (background cleanup).
 */
export function deletionSafety(
  couldHaveRunningContainers: (uid: string) => boolean,
  setup: PodSetup,
): PodDeletionSafetyProvider {
  return {
    PodResourcesAreReclaimed(pod: Pod, _status: APIPodStatus): boolean {
      const uid = pod.metadata.uid!;
      if (couldHaveRunningContainers(uid)) return false;
      return !setup.volumesExist(uid) && !setup.cgroupExists(uid);
    },
    PodCouldHaveRunningContainers(pod: Pod): boolean {
      return couldHaveRunningContainers(pod.metadata.uid!);
    },
  };
}
