// Models pkg/kubelet/status/generate.go (GenerateContainersReadyCondition, GeneratePodReadyCondition, GeneratePodInitializedCondition).
//
// Simplified: ObservedGeneration (the newest releases' PodObservedGenerationTracking) is not set,
// and GeneratePodReadyToStartContainersCondition lives with the pod status generation, which reads
// the runtime's sandboxes.
import type { Container, ContainerStatus, Pod, PodCondition, PodPhase } from "../../k8s/pod.ts";
import { isRestartableInitContainer } from "../../k8s/podutil.ts";

export const UnknownContainerStatuses = "UnknownContainerStatuses";
export const PodCompleted = "PodCompleted";
export const PodFailed = "PodFailed";
export const ContainersNotReady = "ContainersNotReady";
export const ContainersNotInitialized = "ContainersNotInitialized";
export const ReadinessGatesNotReady = "ReadinessGatesNotReady";

export interface GenerateOptions {
  /** SidecarContainers: restartable init containers count for ContainersReady and Initialized. */
  sidecarContainers: boolean;
  /** ≥1.25 ≈ (#110256): a Failed pod is never ContainersReady, whatever its containers say. */
  terminalPhaseNotReady: boolean;
  /** ≥1.28: a started regular container makes the pod Initialized, gate or not (see StatusEra). */
  initializedOnceRegularStarted: boolean;
}

/** GenerateContainersReadyCondition: True when every container is ready. */
export function GenerateContainersReadyCondition(
  pod: Pod,
  containerStatuses: readonly ContainerStatus[] | undefined,
  podPhase: PodPhase | undefined,
  opts: GenerateOptions,
): PodCondition {
  // Go tells a nil slice from an empty one here; an absent list is nil.
  if (containerStatuses === undefined) return cond("ContainersReady", "False", UnknownContainerStatuses);
  const unknownContainers: string[] = [];
  const unreadyContainers: string[] = [];
  const sidecars = opts.sidecarContainers ? (pod.spec.initContainers ?? []).filter(isRestartableInitContainer) : [];
  for (const container of [...sidecars, ...pod.spec.containers]) {
    const s = getContainerStatus(containerStatuses, container.name);
    if (s === undefined) unknownContainers.push(container.name);
    else if (s.ready !== true) unreadyContainers.push(container.name);
  }
  // If all containers are known and succeeded, just return PodCompleted.
  if (podPhase === "Succeeded" && unknownContainers.length === 0) {
    return cond("ContainersReady", "False", PodCompleted);
  }
  // A failed pod's containers may still be terminating: never call them ready.
  if (opts.terminalPhaseNotReady && podPhase === "Failed") return cond("ContainersReady", "False", PodFailed);
  const unreadyMessages: string[] = [];
  if (unknownContainers.length > 0) unreadyMessages.push(`containers with unknown status: ${goList(unknownContainers)}`);
  if (unreadyContainers.length > 0) unreadyMessages.push(`containers with unready status: ${goList(unreadyContainers)}`);
  if (unreadyMessages.length > 0) return cond("ContainersReady", "False", ContainersNotReady, unreadyMessages.join(", "));
  return cond("ContainersReady", "True");
}

/** GeneratePodReadyCondition: True when the containers are ready and every readiness gate is True. */
export function GeneratePodReadyCondition(
  pod: Pod,
  conditions: readonly PodCondition[] | undefined,
  containerStatuses: readonly ContainerStatus[] | undefined,
  podPhase: PodPhase | undefined,
  opts: GenerateOptions,
): PodCondition {
  const containersReady = GenerateContainersReadyCondition(pod, containerStatuses, podPhase, opts);
  // If the status of ContainersReady is not True, return the same status, reason and message.
  if (containersReady.status !== "True") {
    return cond("Ready", containersReady.status, containersReady.reason, containersReady.message);
  }
  const unreadyMessages: string[] = [];
  for (const rg of readinessGates(pod)) {
    const c = (conditions ?? []).find((x) => x.type === rg);
    if (c === undefined) {
      unreadyMessages.push(`corresponding condition of pod readiness gate "${rg}" does not exist.`);
    } else if (c.status !== "True") {
      unreadyMessages.push(`the status of pod readiness gate "${rg}" is not "True", but ${c.status}`);
    }
  }
  if (unreadyMessages.length > 0) return cond("Ready", "False", ReadinessGatesNotReady, unreadyMessages.join(", "));
  return cond("Ready", "True");
}

/**
 * GeneratePodInitializedCondition: True when every init container is done. The caller passes the
 * init container statuses (pre-sidecar releases) or init and regular statuses together (sidecar era).
 */
export function GeneratePodInitializedCondition(
  pod: Pod,
  containerStatuses: readonly ContainerStatus[] | undefined,
  podPhase: PodPhase | undefined,
  opts: GenerateOptions,
): PodCondition {
  const initContainers = pod.spec.initContainers ?? [];
  if (containerStatuses === undefined && initContainers.length > 0) {
    return cond("Initialized", "False", UnknownContainerStatuses);
  }
  const unknownContainers: string[] = [];
  const incompleteContainers: string[] = [];
  for (const container of initContainers) {
    const s = getContainerStatus(containerStatuses ?? [], container.name);
    if (s === undefined) unknownContainers.push(container.name);
    else if (!isInitContainerInitialized(container, s, opts)) incompleteContainers.push(container.name);
  }
  // If all init containers are known and succeeded, just return PodCompleted.
  if (podPhase === "Succeeded" && unknownContainers.length === 0) return cond("Initialized", "True", PodCompleted);
  // A regular container that started means the pod was initialized before (sidecars may be restarting).
  if (opts.initializedOnceRegularStarted && hasAnyRegularContainerStarted(pod, containerStatuses ?? [])) {
    return cond("Initialized", "True");
  }
  const unreadyMessages: string[] = [];
  if (unknownContainers.length > 0) unreadyMessages.push(`containers with unknown status: ${goList(unknownContainers)}`);
  if (incompleteContainers.length > 0) unreadyMessages.push(`containers with incomplete status: ${goList(incompleteContainers)}`);
  if (unreadyMessages.length > 0) return cond("Initialized", "False", ContainersNotInitialized, unreadyMessages.join(", "));
  return cond("Initialized", "True");
}

/** generateContainersReadyConditionForTerminalPhase / generatePodReadyConditionForTerminalPhase */
export function readyConditionForTerminalPhase(type: "Ready" | "ContainersReady", podPhase: PodPhase): PodCondition {
  if (podPhase === "Failed") return cond(type, "False", PodFailed);
  if (podPhase === "Succeeded") return cond(type, "False", PodCompleted);
  return cond(type, "False");
}

function isInitContainerInitialized(c: Container, s: ContainerStatus, opts: GenerateOptions): boolean {
  if (opts.sidecarContainers && isRestartableInitContainer(c)) return s.started === true;
  return s.ready === true;
}

/** kubecontainer.HasAnyRegularContainerStarted */
function hasAnyRegularContainerStarted(pod: Pod, statuses: readonly ContainerStatus[]): boolean {
  const names = new Set(pod.spec.containers.map((c) => c.name));
  return statuses.some((s) => names.has(s.name) && (s.state?.running !== undefined || s.state?.terminated !== undefined));
}

/** podutil.GetContainerStatus: the first status with that name. */
export function getContainerStatus(statuses: readonly ContainerStatus[], name: string): ContainerStatus | undefined {
  return statuses.find((s) => s.name === name);
}

/** spec.readinessGates[].conditionType; the Pod schema keeps unknown fields, so read it loosely. */
function readinessGates(pod: Pod): string[] {
  const gates = (pod.spec as { readinessGates?: { conditionType?: string }[] }).readinessGates ?? [];
  return gates.map((g) => g.conditionType ?? "");
}

/** fmt.Sprintf("%s", []string{...}) prints "[a b]". */
function goList(items: readonly string[]): string {
  return `[${items.join(" ")}]`;
}

function cond(type: string, status: PodCondition["status"], reason?: string, message?: string): PodCondition {
  const c: PodCondition = { type, status };
  if (reason !== undefined && reason !== "") c.reason = reason;
  if (message !== undefined && message !== "") c.message = message;
  return c;
}
