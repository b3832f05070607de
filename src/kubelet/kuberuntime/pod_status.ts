// Models pkg/kubelet/kuberuntime/kuberuntime_manager.go (GetPodStatus; GetPods is in get_pods.ts) and
// kuberuntime_container.go (getPodContainerStatuses, toKubeContainerStatus), v1.29 line with the
// generic (relisting) PLEG: statuses come from ListContainers + ContainerStatus per container. From
// 1.33 (#128516) GetPodStatus also reports the containers of the active sandbox, as read in
// KevinTMtz/kubernetes@294f5857 (a fork of upstream master, 1.35+ line) kuberuntime_manager.go
// GetPodStatus and @76e61a29 kuberuntime_container.go getPodContainerStatuses.
import type { Proc } from "../../sim/index.ts";
import type { ContainerEventResponse, ContainerState as CriContainerState, ContainerStatus as CriContainerStatus, PodSandboxStatus as CriSandboxStatus } from "../../cri/api.ts";
import { CriError, isNotFound } from "../../cri/errors.ts";
import {
  ContainerStateCreated, ContainerStateExited, ContainerStateRunning, ContainerStateUnknown,
  type PodSandboxStatus, type PodStatus, type State, type Status,
} from "../container/runtime.ts";
import { KubernetesPodUIDLabel, getContainerInfoFromAnnotations, getContainerInfoFromLabels } from "./labels.ts";
import type { ManagerContext } from "./manager_context.ts";
import { determinePodSandboxIPs, getSandboxIDByPodUID } from "./kuberuntime_sandbox.ts";

/** toKubeContainerState */
export function toKubeContainerState(state: CriContainerState): State {
  switch (state) {
    case "CONTAINER_CREATED":
      return ContainerStateCreated;
    case "CONTAINER_RUNNING":
      return ContainerStateRunning;
    case "CONTAINER_EXITED":
      return ContainerStateExited;
    default:
      return ContainerStateUnknown;
  }
}

/** toKubeContainerStatus: hash and restart count come from the annotations the kubelet wrote. */
export function toKubeContainerStatus(status: CriContainerStatus, runtimeName: string): Status {
  const annotatedInfo = getContainerInfoFromAnnotations(status.annotations);
  const labeledInfo = getContainerInfoFromLabels(status.labels);
  const cStatus: Status = {
    id: { type: runtimeName, id: status.id },
    name: labeledInfo.ContainerName,
    image: status.image.image,
    imageID: status.imageRef,
    hash: annotatedInfo.Hash,
    restartCount: annotatedInfo.RestartCount,
    state: toKubeContainerState(status.state),
    createdAtMs: status.createdAtMs,
    exitCode: 0,
    reason: "",
    message: "",
  };
  // If the container is not in the created state, we have tried and started the container.
  if (status.state !== "CONTAINER_CREATED") cStatus.startedAtMs = status.startedAtMs;
  if (status.state === "CONTAINER_EXITED") {
    cStatus.reason = status.reason;
    cStatus.message = status.message;
    cStatus.exitCode = status.exitCode;
    cStatus.finishedAtMs = status.finishedAtMs;
  }
  return cStatus;
}

/** The CRI sandbox status as kubecontainer.PodStatus.SandboxStatuses holds it. */
export function toKubeSandboxStatus(s: CriSandboxStatus): PodSandboxStatus {
  const out: PodSandboxStatus = { id: s.id, metadata: { ...s.metadata }, state: s.state, createdAtMs: s.createdAtMs };
  if (s.network !== undefined) out.network = { ip: s.network.ip, additionalIps: s.network.additionalIps.map((a) => a.ip) };
  const network = s.linux?.namespaces?.options?.network;
  if (network !== undefined) out.linux = { namespaces: { options: { network } } };
  return out;
}

/**
 * getPodContainerStatuses gets all containers' statuses for the pod, newest first, and (≥1.33,
 * #128516) those of the containers of the active sandbox, in the same order. With no active
 * sandbox (activePodSandboxID ""), no container matches: the second list is empty.
 */
export function* getPodContainerStatuses(m: ManagerContext, uid: string, activePodSandboxID: string): Proc<[Status[], Status[]] | CriError> {
  const containers = yield* m.runtimeService.ListContainers({ labelSelector: { [KubernetesPodUIDLabel]: uid } });
  if (containers instanceof CriError) return containers;
  const statuses: Status[] = [];
  const activeContainerStatuses: Status[] = [];
  for (const c of containers) {
    const resp = yield* m.runtimeService.ContainerStatus(c.id);
    // Between List and ContainerStatus another thread might remove a container; that is normal (≥1.24).
    if (isNotFound(resp) && m.skipVanishedOnStatus) continue;
    if (resp instanceof CriError) return resp;
    const cStatus = toKubeContainerStatus(resp, m.runtimeName);
    statuses.push(cStatus);
    if (c.podSandboxId === activePodSandboxID) activeContainerStatuses.push(cStatus);
  }
  // containerStatusByCreated: newest first; stable among equal creation times.
  const byCreated = (a: Status, b: Status): number => b.createdAtMs - a.createdAtMs;
  return [statuses.sort(byCreated), activeContainerStatuses.sort(byCreated)];
}

/**
 * ≥1.32.0 (#127195, merged to master in Oct 2024, after release-1.31 was cut; no cherry-pick
 * found): GetPodStatus stamps every status with time.Now() and reads the runtime's
 * PodSandboxStatus timestamp as nanoseconds. Before, the stamp stayed Go's zero time unless the
 * runtime set one, and that one was read as seconds: time.Unix(resp.Timestamp, 0).
 */
export const POD_STATUS_TIMESTAMP_FIX_RELEASE = "1.32";

/** CRI timestamps are Unix nanoseconds; virtual time is in ms. */
const NS_PER_MS = 1_000_000;

/**
 * GetPodStatus retrieves the status of the pod, including the information of all containers in the
 * pod that are visible in Runtime. Under the EventedPLEG gate the containers of the newest sandbox
 * come from its PodSandboxStatus when the runtime stamps it (CRI-O), and the stamp becomes
 * PodStatus.TimeStamp; a runtime that does not (containerd) has them listed, as without the gate.
 * Simplified: TimeStamp is filled only under the gate, its only reader (generic.go updateCache).
 */
export function* GetPodStatus(m: ManagerContext, uid: string, name: string, namespace: string): Proc<PodStatus | CriError> {
  const podSandboxIDs = yield* getSandboxIDByPodUID(m, uid, null);
  if (podSandboxIDs instanceof CriError) return podSandboxIDs;
  const sandboxStatuses: PodSandboxStatus[] = [];
  // ≥1.32 `timestamp := time.Now()`, after the sandboxes are listed; before, Go's zero time (absent).
  let timestampMs = m.podStatusTimestampFixed ? m.sim.nowMs : undefined;
  let listed: [Status[], Status[]] | null = null;
  let podIPs: string[] = [];
  let activePodSandboxID = "";
  for (let idx = 0; idx < podSandboxIDs.length; idx++) {
    const resp = yield* m.runtimeService.PodSandboxStatus(podSandboxIDs[idx]!);
    // Between List and PodSandboxStatus another thread might remove a sandbox; that is normal (≥1.24).
    if (isNotFound(resp) && m.skipVanishedOnStatus) continue;
    if (resp instanceof CriError) return resp;
    sandboxStatuses.push(toKubeSandboxStatus(resp));
    // Only get pod IP from latest sandbox; it is the active one (≥1.33) while it is ready.
    if (idx === 0 && resp.state === "SANDBOX_READY") {
      podIPs = determinePodSandboxIPs(resp);
      activePodSandboxID = podSandboxIDs[idx]!;
    }
    if (idx === 0 && m.eventedPLEG) {
      if ((resp.timestamp ?? 0) === 0) {
        // The Evented PLEG is enabled in the kubelet, but not in the runtime: list the containers.
        const got = yield* getPodContainerStatuses(m, uid, activePodSandboxID);
        if (got instanceof CriError) return got;
        listed = got;
      } else {
        timestampMs = m.podStatusTimestampFixed ? resp.timestamp! / NS_PER_MS : resp.timestamp! * 1000;
        listed = sandboxContainerStatuses(m, resp, activePodSandboxID);
      }
    }
  }
  // Without the gate every container of the pod is listed. With it, only the idx-0 branch above
  // fills them: a pod whose newest sandbox is gone or unlisted has none, as upstream.
  if (!m.eventedPLEG) {
    const got = yield* getPodContainerStatuses(m, uid, activePodSandboxID);
    if (got instanceof CriError) return got;
    listed = got;
  }
  const [containerStatuses, activeContainerStatuses] = listed ?? [[], []];
  const status: PodStatus = { id: uid, name, namespace, ips: podIPs, sandboxStatuses, containerStatuses };
  // Before 1.33 PodStatus has no ActiveContainerStatuses; the field stays absent.
  if (m.activeContainerStatuses) status.activeContainerStatuses = activeContainerStatuses;
  if (m.eventedPLEG && timestampMs !== undefined) status.timestampMs = timestampMs;
  return status;
}

/**
 * The statuses PodSandboxStatus carries (resp.ContainersStatuses), newest first. Simplified: they
 * count as the active sandbox's when that sandbox is the active one (≥1.33); upstream's
 * ActiveContainerStatuses under the gate was not read.
 */
function sandboxContainerStatuses(m: ManagerContext, resp: CriSandboxStatus, activePodSandboxID: string): [Status[], Status[]] {
  const statuses = (resp.containersStatuses ?? []).map((cs) => toKubeContainerStatus(cs, m.runtimeName));
  statuses.sort((a, b) => b.createdAtMs - a.createdAtMs);
  return [statuses, resp.id === activePodSandboxID ? [...statuses] : []];
}

/**
 * GeneratePodStatus (1.26+, Evented PLEG): the pod status an event of the runtime's stream carries,
 * its sandbox and the statuses of the sandbox's containers as the runtime saw them when it created
 * the event. Only the event's sandbox is listed.
 */
export function GeneratePodStatus(event: ContainerEventResponse, runtimeName: string): PodStatus {
  const sandbox = event.podSandboxStatus!;
  // Upstream leaves ActiveContainerStatuses nil here (1.33+ too), so a status from an event never
  // shows the pod initialized to getPhase; the field stays absent.
  const containerStatuses = event.containersStatuses.map((s) => toKubeContainerStatus(s, runtimeName));
  return {
    id: sandbox.metadata.uid,
    name: sandbox.metadata.name,
    namespace: sandbox.metadata.namespace,
    ips: determinePodSandboxIPs(sandbox),
    sandboxStatuses: [toKubeSandboxStatus(sandbox)],
    // containerStatusByCreated: newest first.
    containerStatuses: containerStatuses.sort((a, b) => b.createdAtMs - a.createdAtMs),
  };
}
