// Models pkg/kubelet/container/runtime.go (Pod, Container: a pod as the runtime runs it) and
// helpers.go (ConvertPodStatusToRunningPod, SandboxToContainerState), v1.29 line.
//
// Added here, next to the runtime manager that needs them, because src/kubelet/container/ is
// another engineer's; they can move there unchanged.
import {
  ContainerStateExited, ContainerStateRunning, ContainerStateUnknown,
  type ContainerID, type PodSandboxState, type PodStatus, type State,
} from "../container/runtime.ts";

/** kubecontainer.Container: a running container (or a sandbox viewed as one). */
export interface RuntimeContainer {
  id: ContainerID;
  name: string;
  image: string;
  imageID: string;
  hash: number;
  state: State;
}

/** kubecontainer.Pod: a group of containers the runtime runs for one pod UID. */
export interface RuntimePod {
  id: string;
  name: string;
  namespace: string;
  createdAtMs: number;
  containers: RuntimeContainer[];
  sandboxes: RuntimeContainer[];
}

/** SandboxToContainerState: READY is running, NOTREADY exited, anything else unknown. */
export function SandboxToContainerState(state: PodSandboxState): State {
  if (state === "SANDBOX_READY") return ContainerStateRunning;
  if (state === "SANDBOX_NOTREADY") return ContainerStateExited;
  return ContainerStateUnknown;
}

/**
 * ConvertPodStatusToRunningPod returns the running containers of a PodStatus, and every sandbox
 * (ready or not), so killPodWithSyncResult stops all of them.
 */
export function ConvertPodStatusToRunningPod(runtimeName: string, podStatus: PodStatus): RuntimePod {
  const runningPod: RuntimePod = {
    id: podStatus.id,
    name: podStatus.name,
    namespace: podStatus.namespace,
    createdAtMs: 0,
    containers: [],
    sandboxes: [],
  };
  for (const cs of podStatus.containerStatuses) {
    if (cs.state !== ContainerStateRunning) continue;
    runningPod.containers.push({ id: cs.id, name: cs.name, image: cs.image, imageID: cs.imageID, hash: cs.hash, state: cs.state });
  }
  for (const s of podStatus.sandboxStatuses) {
    runningPod.sandboxes.push({
      id: { type: runtimeName, id: s.id },
      name: "",
      image: "",
      imageID: "",
      hash: 0,
      state: SandboxToContainerState(s.state),
    });
  }
  return runningPod;
}
