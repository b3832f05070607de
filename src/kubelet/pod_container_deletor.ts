// Models pkg/kubelet/pod_container_deletor.go: removes dead containers of a pod in the background
// when PLEG reports one died, keeping the newest `containersToKeep` of each name (all of them once
// the pod is deleted or evicted). A buffer of 50; a full buffer drops the request, as upstream.
import { recv, type Chan, type Proc, type Sim } from "../sim/index.ts";
import type { PodStatus, Status } from "./container/runtime.ts";
import type { GoError } from "./types.ts";

/** containerDeletorBufferLimit */
export const containerDeletorBufferLimit = 50;
/** minDeadContainerInPod (the kubelet keeps max(MaxPerPodContainer=1, this) dead containers per name). */
export const minDeadContainerInPod = 1;

export interface ContainerRemover {
  RemoveContainer(containerID: string): Proc<GoError>;
}

export class PodContainerDeletor {
  private readonly worker: Chan<string>;

  constructor(
    private readonly sim: Sim,
    private readonly runtime: ContainerRemover,
    private readonly containersToKeep = minDeadContainerInPod,
    group = "kubelet",
  ) {
    this.worker = sim.chan<string>("podContainerDeletor", containerDeletorBufferLimit);
    sim.go("kubelet/podContainerDeletor", () => this.loop(), { group, daemon: true });
  }

  private *loop(): Proc<void> {
    for (;;) {
      const { value: id, ok } = yield* recv(this.worker);
      if (!ok) return;
      const err = yield* this.runtime.RemoveContainer(id!);
      this.sim.emit("kubelet", "DeleteContainer", { containerID: id, err: err === null ? null : err.message });
    }
  }

  /** deleteContainersInPod: queue removals without blocking; a full buffer drops them. */
  deleteContainersInPod(filterContainerID: string, podStatus: PodStatus, removeAll: boolean): void {
    const keep = removeAll ? 0 : this.containersToKeep;
    const filter = removeAll ? "" : filterContainerID;
    for (const candidate of getContainersToDeleteInPod(filter, podStatus, keep)) {
      if (!this.worker.offer(candidate.id.id)) {
        this.sim.emit("kubelet", "DeleteContainerDropped", { containerID: candidate.id.id });
      }
    }
  }
}

/** getContainersToDeleteInPod: exited containers (of the filtered container's name), newest kept. */
export function getContainersToDeleteInPod(filterContainerID: string, podStatus: PodStatus, containersToKeep: number): Status[] {
  let matched: Status | undefined;
  if (filterContainerID !== "") {
    matched = podStatus.containerStatuses.find((s) => s.id.id === filterContainerID);
    if (matched === undefined) return []; // "Container not found in pod's containers"
  }
  const candidates = podStatus.containerStatuses.filter(
    (s) => s.state === "exited" && (matched === undefined || matched.name === s.name),
  );
  if (candidates.length <= containersToKeep) return [];
  // containerStatusbyCreatedList: newest first, the ID as a final tie-break.
  candidates.sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id.id < b.id.id ? -1 : 1));
  return candidates.slice(containersToKeep);
}
