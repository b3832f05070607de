// Models pkg/kubelet/kubelet_pods.go (convertToAPIContainerStatuses and its convertContainerStatus), 1.21–1.35 forms.
//
// Split from kubelet_pods.ts only to keep modules short; the upstream function is one. The old
// statuses given are never mutated: what is reused is cloned first.
import type { Container, ContainerState, ContainerStateTerminated, ContainerStatus, Pod } from "../k8s/pod.ts";
import { formatRFC3339 } from "../apiserver/time.ts";
import { ShouldContainerBeRestarted } from "./container/helpers.ts";
import { FindContainerStatusByName, containerIDString, type PodStatus, type Status } from "./container/runtime.ts";
import type { reasonItem } from "./reason_cache.ts";
import { cloneJSON } from "../k8s/json.ts";

/** Container state reasons. */
export const PodInitializing = "PodInitializing";
export const ContainerCreating = "ContainerCreating";
/** kubecontainer.ContainerReasonStatusUnknown */
export const ContainerReasonStatusUnknown = "ContainerStatusUnknown";

/** The era flag and the reason cache convertToAPIContainerStatuses reads. */
export interface ContainerStatusesDeps {
  /**
   * createdIsWaiting ≥1.24 (#107845): a created-but-not-started container is Waiting; before,
   * Terminated with its exit code. containerStatusResources ≥1.33 (InPlacePodVerticalScaling on by
   * default): a container seen in the runtime reports its resources and allocated requests.
   * missingStatusesInferred ≥1.20 ≈ (#95561, #95364): a running container that vanished is inferred
   * terminated. startedInheritedByName ≥1.35 (KEP-4781, the ChangeContainerStatusOnKubeletRestart
   * gate off by default): a running container takes Started from the old status of the same name.
   */
  era: { createdIsWaiting: boolean; containerStatusResources?: boolean; missingStatusesInferred: boolean; startedInheritedByName?: boolean };
  /**
   * Variant startedInheritedOnlyForSameContainerID (PR #141342, merged after 1.37, cherry-picks
   * open): Started is inherited only when the old status is of the same container ID (race R17).
   */
  startedInheritedOnlyForSameContainerID?: boolean;
  reasonCache: { Get(uid: string, name: string): reasonItem | undefined };
}

/** convertToAPIContainerStatuses converts the given internal container statuses into API container statuses. */
export function convertToAPIContainerStatuses(
  pod: Pod,
  podStatus: PodStatus,
  previousStatus: readonly ContainerStatus[],
  containers: readonly Container[],
  hasInitContainers: boolean,
  isInitContainer: boolean,
  deps: ContainerStatusesDeps,
): ContainerStatus[] {
  const x: Conv = {
    pod,
    podStatus,
    containers,
    oldStatuses: new Map(previousStatus.map((s) => [s.name, s] as const)),
    statuses: new Map(),
    defaultWaitingReason: hasInitContainers ? PodInitializing : ContainerCreating,
  };
  // Set all container statuses to default waiting state, with some values of the old statuses.
  for (const c of containers) {
    const old = x.oldStatuses.get(c.name);
    const status = old?.state?.terminated ? cloneJSON(old) : newStatus(c.name, c.image ?? "", { waiting: { reason: x.defaultWaitingReason } });
    if (old !== undefined && !old.state?.terminated) {
      status.restartCount = old.restartCount ?? 0;
      status.lastState = cloneJSON(old.lastState ?? {});
    }
    x.statuses.set(c.name, status);
  }
  if (deps.era.missingStatusesInferred) inferMissingTerminations(x);
  // Set container statuses according to the statuses seen in pod status: the latest first, two per name at most.
  const newestFirst = [...podStatus.containerStatuses].sort((a, b) => b.createdAtMs - a.createdAtMs);
  const containerSeen = new Map<string, number>();
  for (const cs of newestFirst) {
    const seen = containerSeen.get(cs.name) ?? 0;
    if (!x.statuses.has(cs.name) || seen >= 2) continue; // This would also ignore the infra container.
    const old = x.oldStatuses.get(cs.name);
    const status = convertContainerStatus(cs, old, deps.era);
    // 1.35: Started survives a kubelet restart, matched by name: a replacement container (liveness
    // restart) inherits its predecessor's Started=true before its own startup probe ran (race R17).
    if (deps.era.startedInheritedByName === true && cs.state === "running" && old?.started != null) {
      if (deps.startedInheritedOnlyForSameContainerID !== true || old.containerID === status.containerID) status.started = old.started;
    }
    if (deps.era.containerStatusResources === true) setResources(pod, status);
    if (seen === 0) x.statuses.set(cs.name, status);
    else x.statuses.get(cs.name)!.lastState = status.state!;
    containerSeen.set(cs.name, seen + 1);
  }
  applyStartFailureReasons(x, isInitContainer, deps.reasonCache);
  // Sort the container statuses since clients of this interface expect a deterministic order.
  if (isInitContainer) return containers.filter((c) => x.statuses.has(c.name)).map((c) => x.statuses.get(c.name)!);
  return [...x.statuses.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The working state of one convertToAPIContainerStatuses call. */
interface Conv {
  pod: Pod;
  podStatus: PodStatus;
  containers: readonly Container[];
  oldStatuses: ReadonlyMap<string, ContainerStatus>;
  statuses: Map<string, ContainerStatus>;
  defaultWaitingReason: string;
}

function newStatus(name: string, image: string, state: ContainerState): ContainerStatus {
  return { name, state, lastState: {}, ready: false, restartCount: 0, image, imageID: "" };
}

/**
 * convertContainerStatus: one runtime status as an API container status. Its objects are literals
 * with fields added in order, not spreads: on Node 20's V8 a literal that spreads a fresh object
 * and adds a property costs about 1 µs, and so do a few conditional spreads in a row (see podFields
 * in container/cache.ts). A runtime time absent (Go's zero time, JSON null) stays absent.
 */
function convertContainerStatus(cs: Status, oldStatus: ContainerStatus | undefined, era: ContainerStatusesDeps["era"]): ContainerStatus {
  const cid = containerIDString(cs.id);
  // newStatus's fields, in its order, with the runtime's restart count and image ID, then the ID.
  const status: ContainerStatus = { name: cs.name, state: {}, lastState: {}, ready: false, restartCount: cs.restartCount, image: cs.image, imageID: cs.imageID, containerID: cid };
  const terminated = (): ContainerStateTerminated => {
    const t: ContainerStateTerminated = { exitCode: cs.exitCode };
    if (cs.reason) t.reason = cs.reason;
    if (cs.message) t.message = cs.message;
    if (cs.startedAtMs !== undefined) t.startedAt = formatRFC3339(cs.startedAtMs);
    if (cs.finishedAtMs !== undefined) t.finishedAt = formatRFC3339(cs.finishedAtMs);
    t.containerID = cid;
    return t;
  };
  if (cs.state === "running") status.state = { running: cs.startedAtMs === undefined ? {} : { startedAt: formatRFC3339(cs.startedAtMs) } };
  else if (cs.state === "created" && era.createdIsWaiting) status.state = { waiting: {} }; // "waiting to be running"
  else if (cs.state === "created" || cs.state === "exited") status.state = { terminated: terminated() }; // ≤1.23: created as exited
  else if (cs.state === "unknown" && oldStatus?.state?.running && era.missingStatusesInferred) {
    // The container was running and is no more: "container never ran" is different from "ran and failed".
    const message = "The container could not be located when the pod was terminated";
    status.state = { terminated: { reason: ContainerReasonStatusUnknown, message, exitCode: 137 } };
    status.restartCount = (oldStatus.restartCount ?? 0) + 1;
  } else status.state = { waiting: {} }; // Any unknown state collapses to waiting.
  return status;
}

/**
 * convertContainerStatusResources, simplified: without a resize or resources reported by the CRI
 * (the simulated one reports none), the status's resources are the allocated ones, the spec's; a
 * container without resources still gets an empty, non-nil list.
 */
function setResources(pod: Pod, status: ContainerStatus): void {
  const all = [...pod.spec.containers, ...(pod.spec.initContainers ?? []), ...(pod.spec.ephemeralContainers ?? [])];
  const allocated = all.find((c) => c.name === status.name);
  if (allocated === undefined) return;
  status.resources = cloneJSON(allocated.resources ?? {});
  if (allocated.resources?.requests !== undefined) status.allocatedResources = cloneJSON(allocated.resources.requests);
}

/** A container with no runtime status that used to be running has terminated, even if we don't know how. */
function inferMissingTerminations(x: Conv): void {
  for (const c of x.containers) {
    if (x.podStatus.containerStatuses.some((cs) => cs.name === c.name)) continue;
    const old = x.oldStatuses.get(c.name);
    if (old === undefined || old.state?.terminated || !old.state?.running) continue;
    const status = x.statuses.get(c.name)!;
    // The default Waiting status would force the pod back into Pending; we know it was running.
    if (status.state?.waiting?.reason !== x.defaultWaitingReason || status.lastState?.terminated) continue;
    const message = "The container could not be located when the pod was deleted.  The container used to be Running";
    status.lastState = { ...status.lastState, terminated: { reason: ContainerReasonStatusUnknown, message, exitCode: 137 } };
    // If the pod was not deleted, then it's been restarted. Increment restart count.
    if (x.pod.metadata.deletionTimestamp == null) status.restartCount = (status.restartCount ?? 0) + 1;
  }
}

/** Handle the containers failed to be started, which should be in Waiting state with the reason cache's reason. */
function applyStartFailureReasons(x: Conv, isInitContainer: boolean, reasonCache: ContainerStatusesDeps["reasonCache"]): void {
  for (const c of x.containers) {
    if (isInitContainer) {
      // If the init container is terminated with exit code 0, it won't be restarted.
      const s = FindContainerStatusByName(x.podStatus, c.name);
      if (s !== undefined && s.state === "exited" && s.exitCode === 0) continue;
    }
    // If a container should be restarted in next syncpod, it is *Waiting*.
    if (!ShouldContainerBeRestarted(c, x.pod, x.podStatus)) continue;
    const reason = reasonCache.Get(x.pod.metadata.uid ?? "", c.name);
    if (reason === undefined) continue; // The original state is more informative.
    const status = x.statuses.get(c.name)!;
    if (status.state?.terminated) status.lastState = status.state;
    status.state = { waiting: { reason: reason.Err, ...(reason.Message ? { message: reason.Message } : {}) } };
  }
}
