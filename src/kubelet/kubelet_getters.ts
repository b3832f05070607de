// Models pkg/kubelet/kubelet_pods.go GetPods and GetRunningPods, and kubecontainer.Pod.ToAPIPod
// (container/runtime.go): the answers the kubelet server's /pods and /runningpods/ give.
import type { Pod } from "../k8s/pod.ts";
import type { RunningPod } from "./types.ts";
import { IsStaticPod } from "./types.ts";

/** The pod manager and status manager slices GetPods reads. */
export interface GetPodsDeps {
  podManager: { GetPods(): Pod[] };
  statusManager: { GetPodStatus(uid: string): Pod["status"] | undefined };
}

/**
 * GetPods returns all pods bound to the kubelet and their spec. A static pod shows the status
 * manager's status (a kubelet running without apiserver requires it, #57106); the cached pods are
 * never changed. The pod manager's order is sorted by UID here; upstream's is a Go map's.
 */
export function GetPods(deps: GetPodsDeps): Pod[] {
  return deps.podManager.GetPods().map((p) => {
    if (!IsStaticPod(p)) return p;
    const status = deps.statusManager.GetPodStatus(p.metadata.uid ?? "");
    return status === undefined ? p : { ...p, status };
  });
}

/** kubecontainer.Pod.ToAPIPod: only the UID, name, namespace and each container's name and image. */
export function ToAPIPod(p: RunningPod): Pod {
  return {
    metadata: { uid: p.id, name: p.name, namespace: p.namespace },
    spec: { containers: p.containers.map((c) => ({ name: c.name, image: c.image })) },
  };
}

/**
 * GetRunningPods returns all running pods as the runtime cache lists them, as API pods. Simplified:
 * the cache is read as it stands; upstream refreshes a cache older than its period first, which is a
 * runtime call a read-only view at a virtual instant must not make.
 */
export function GetRunningPods(runtimeCache: { peek(): { pods: readonly RunningPod[] } }): Pod[] {
  return runtimeCache.peek().pods.map(ToAPIPod);
}
