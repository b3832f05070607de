// Models pkg/kubelet/kuberuntime/kuberuntime_manager.go (podActions, containerToKillInfo, containerKillReason).
//
// Field names are upstream's. Go's nil slice is null here, because the vectors (and SyncPod's
// logic) tell a nil slice from an empty one. The resize fields (ContainersToUpdate,
// UpdatePodResources) are left out: InPlacePodVerticalScaling is not modelled.
import type { VersionLike } from "../version.ts";
import type { Container } from "../../k8s/pod.ts";
import type { ContainerID } from "../container/runtime.ts";
import type { Result } from "../prober/worker_core.ts";

/** containerKillReason explains what killed a given container; "" is Go's zero value (spec change). */
export type ContainerKillReason = "" | "StartupProbe" | "LivenessProbe" | "FailedPostStartHook" | "Unknown";

export const reasonStartupProbe: ContainerKillReason = "StartupProbe";
export const reasonLivenessProbe: ContainerKillReason = "LivenessProbe";
export const reasonFailedPostStartHook: ContainerKillReason = "FailedPostStartHook";
export const reasonUnknown: ContainerKillReason = "Unknown";

/** containerToKillInfo, plus the map key (the container ID) so a list of them stands alone. */
export interface ContainerToKillInfo {
  containerID: ContainerID;
  /** The spec of the container. */
  container: Container;
  name: string;
  /** Why the container will be killed; becomes the Killing event's message. */
  message: string;
  reason: ContainerKillReason;
}

/** podActions keeps information what to do for a pod. */
export interface PodActions {
  /** Stop all running (regular, init and ephemeral) containers and the sandbox for the pod. */
  KillPod: boolean;
  /** Whether a new sandbox is needed; if the pod is also killed, init containers are purged. */
  CreateSandbox: boolean;
  /** The ID of the existing sandbox, used for starting containers in ContainersToStart. */
  SandboxID: string;
  /** The attempt number of creating sandboxes for the pod. */
  Attempt: number;
  /** The next init container to start (SidecarContainers off). */
  NextInitContainerToStart: Container | null;
  /** Indexes into spec.initContainers to start (SidecarContainers on); null is Go's nil. */
  InitContainersToStart: number[] | null;
  /** Indexes into spec.containers to start; never null. */
  ContainersToStart: number[];
  /**
   * Containers to kill, keyed by ContainerID.String(). Upstream this is a Go map, so SyncPod's
   * iteration order over it is unspecified; a caller that iterates must make that order a choice.
   */
  ContainersToKill: Map<string, ContainerToKillInfo>;
  /** Indexes into spec.ephemeralContainers to start; null is Go's nil. */
  EphemeralContainersToStart: number[] | null;
}

/** podActions.String(), for logs and traces. */
export function podActionsString(p: PodActions): string {
  const list = (v: number[] | null): string => (v === null ? "[]" : `[${v.join(" ")}]`);
  const kill = [...p.ContainersToKill.values()].map((k) => `${k.name}(${k.containerID.id})`).join(" ");
  return (
    `KillPod: ${p.KillPod}, CreateSandbox: ${p.CreateSandbox}, Attempt: ${p.Attempt}, ` +
    `InitContainersToStart: ${list(p.InitContainersToStart)}, ContainersToStart: ${list(p.ContainersToStart)}, ` +
    `EphemeralContainersToStart: ${list(p.EphemeralContainersToStart)}, ContainersToKill: map[${kill}]`
  );
}

/** The read side of a prober results manager (results.Manager.Get): undefined when no result yet. */
export interface ProbeResultsGetter {
  get(id: ContainerID): Result | undefined;
}

/** Feature gates computePodActions consults (v1.29: SidecarContainers is beta, on by default). */
export interface FeatureGates {
  SidecarContainers: boolean;
}

/** What computePodActions reads besides the pod and its runtime status. */
export interface ComputePodActionsDeps {
  livenessManager: ProbeResultsGetter;
  startupManager: ProbeResultsGetter;
  features: FeatureGates;
  /** The kubelet release, for decisions that changed between releases; v1.29 when omitted. */
  version?: VersionLike;
  /** Variant lostContainerReadsAPIStatus (race R22's proposed fix): see container/helpers.ts RestartOptions. */
  lostContainerReadsAPIStatus?: boolean;
}

/** An empty results manager: no container has a probe result yet. */
export const noProbeResults: ProbeResultsGetter = { get: () => undefined };
