// Models pkg/kubelet/container/helpers.go (ShouldContainerBeRestarted, HashContainer, GetContainerSpec, IsHostNetworkPod,
// HasAnyActiveRegularContainerStarted).
import type { Container, EphemeralContainer, Pod, PodSpec } from "../../k8s/pod.ts";
import { canonicalJSON } from "../../k8s/json.ts";
import { perFrozenObject } from "../../k8s/memo.ts";

export { canonicalJSON } from "../../k8s/json.ts";
import {
  ContainerStateCreated,
  ContainerStateRunning,
  ContainerStateUnknown,
  FindContainerStatusByName,
  type PodStatus,
} from "./runtime.ts";

/**
 * ShouldContainerBeRestarted checks whether a container needs to be restarted (v1.2x–v1.29 form:
 * no restartOnCreatedState parameter; Unknown and Created containers are always restarted).
 */
export function ShouldContainerBeRestarted(container: Container, pod: Pod, podStatus: PodStatus, opts: RestartOptions = {}): boolean {
  // Once a pod has been marked deleted, it should not be restarted.
  if (pod.metadata.deletionTimestamp != null) return false;
  // Get latest container status.
  const status = FindContainerStatusByName(podStatus, container.name);
  // If the container was never started before, we should start it. If all historical containers
  // were garbage-collected, we also return true here (race R22, #51142).
  if (status === undefined) return opts.lostContainerReadsAPIStatus === true ? !apiStatusForbidsRestart(container, pod) : true;
  if (status.state === ContainerStateRunning) return false;
  // Always restart container in the unknown, or in the created state.
  if (status.state === ContainerStateUnknown || status.state === ContainerStateCreated) return true;
  // Check RestartPolicy for dead container.
  if (pod.spec.restartPolicy === "Never") return false;
  // Check the exit code: OnFailure does not restart a container that succeeded.
  if (pod.spec.restartPolicy === "OnFailure" && status.exitCode === 0) return false;
  return true;
}

/** Model switches of ShouldContainerBeRestarted. */
export interface RestartOptions {
  /**
   * Variant lostContainerReadsAPIStatus, the fix issue #51142 asked for (no upstream PR; the
   * issue was closed unfixed): a container the runtime has no record of is not "never started"
   * when the pod's API status shows it terminated; the restart policy applies to that state.
   */
  lostContainerReadsAPIStatus?: boolean;
}

/** Whether the pod object's status shows the container terminated in a state its restart policy does not restart. */
function apiStatusForbidsRestart(container: Container, pod: Pod): boolean {
  const s = (pod.status?.containerStatuses ?? []).find((c) => c.name === container.name);
  const terminated = s?.state?.terminated;
  if (terminated === undefined) return false;
  if (pod.spec.restartPolicy === "Never") return true;
  return pod.spec.restartPolicy === "OnFailure" && terminated.exitCode === 0;
}

/**
 * HashContainer returns the hash of the container, compared against the hash label of the running
 * container to detect spec changes. Upstream (v1.29) is FNV-32a over DeepHashObject of the JSON
 * encoding. Simplified: FNV-32a over a canonical JSON (keys sorted, undefined dropped) of the spec,
 * so the value differs from Go's but is stable, and changes exactly when a hashed field changes.
 */
export function HashContainer(container: Container): number {
  return hashOfContainer(container);
}

// Pods handed around the kubelet are frozen, so a frozen container's hash never changes (and
// computePodActions asks for it on every sync of every container).
const hashOfContainer = perFrozenObject((container: Container) => fnv32a(canonicalJSON(container)));

/** The ephemeral container viewed as a v1.Container, as `(*v1.Container)(&ec.EphemeralContainerCommon)` does. */
export function ephemeralContainerCommon(ec: EphemeralContainer): Container {
  const { targetContainerName: _target, ...common } = ec;
  return common as Container;
}

/** GetContainerSpec, visiting containers in podutil.VisitContainers order: init, regular, ephemeral. */
export function GetContainerSpec(pod: Pod, containerName: string): Container | undefined {
  const fromLists = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find((c) => c.name === containerName);
  if (fromLists) return fromLists;
  const ec = (pod.spec.ephemeralContainers ?? []).find((c) => c.name === containerName);
  return ec ? ephemeralContainerCommon(ec) : undefined;
}

/** IsHostNetworkPod */
export function IsHostNetworkPod(pod: Pod): boolean {
  return pod.spec.hostNetwork === true;
}

/**
 * HasAnyActiveRegularContainerStarted (≥1.33, #128516) returns true if any regular container of the
 * current pod sandbox has started, which indicates all init containers have been initialized.
 * Upstream counts any regular container the active sandbox holds, whatever its state (a created
 * one too), so this checks names only.
 */
export function HasAnyActiveRegularContainerStarted(spec: PodSpec, podStatus: PodStatus | null | undefined): boolean {
  if (podStatus == null) return false;
  const containerNames = new Set(spec.containers.map((c) => c.name));
  return (podStatus.activeContainerStatuses ?? []).some((status) => containerNames.has(status.name));
}

/** format.Pod: "name_namespace(uid)", how the kubelet names a pod in messages. */
export function formatPod(pod: Pod): string {
  return `${pod.metadata.name}_${pod.metadata.namespace ?? ""}(${pod.metadata.uid ?? ""})`;
}

/** FNV-1a, 32 bits, over the UTF-8 bytes of the text (hash/fnv New32a). */
export function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
