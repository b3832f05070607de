// Models pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions and its helpers), v1.29 line.
//
// Simplified: InPlacePodVerticalScaling is off (no computePodResizeAction, no re-query of
// GetPodStatus, no HashWithoutResources), and the internal PostStopContainer lifecycle hook
// (CPU manager bookkeeping) is not called. Everything else follows upstream step by step.
import type { VersionLike } from "../version.ts";
import type { Container, Pod } from "../../k8s/pod.ts";
import { HashContainer, ShouldContainerBeRestarted, ephemeralContainerCommon } from "../container/helpers.ts";
import {
  ContainerStateRunning,
  ContainerStateUnknown,
  FindContainerStatusByName,
  containerIDString,
  type PodStatus,
  type Status,
} from "../container/runtime.ts";
import {
  computeInitContainerActions,
  findNextInitContainerToRun,
  hasAnyRegularContainerCreated,
  shouldRestartOnFailure,
} from "./kuberuntime_container.ts";
import { isInitContainerFailed } from "./helpers.ts";
import {
  reasonLivenessProbe,
  reasonStartupProbe,
  reasonUnknown,
  type ComputePodActionsDeps,
  type ContainerKillReason,
  type PodActions,
} from "./pod_actions.ts";
import { PodSandboxChanged } from "./util/util.ts";

export { shouldRestartOnFailure };

/** containerChanged: the expected hash, the running container's hash, and whether they differ. */
export function containerChanged(container: Container, containerStatus: Status): [number, number, boolean] {
  const expectedHash = HashContainer(container);
  return [expectedHash, containerStatus.hash, containerStatus.hash !== expectedHash];
}

/** containerSucceeded: the latest status is not running and exited with code 0. */
export function containerSucceeded(c: Container, podStatus: PodStatus): boolean {
  const cStatus = FindContainerStatusByName(podStatus, c.name);
  if (cStatus === undefined || cStatus.state === ContainerStateRunning) return false;
  return cStatus.exitCode === 0;
}

/** computePodActions checks whether the pod spec has changed and returns the changes if true. */
export function computePodActions(pod: Pod, podStatus: PodStatus, deps: ComputePodActionsDeps): PodActions {
  const sandbox = PodSandboxChanged(pod, podStatus);
  const changes: PodActions = {
    KillPod: sandbox.changed,
    CreateSandbox: sandbox.changed,
    SandboxID: sandbox.sandboxID,
    Attempt: sandbox.attempt,
    NextInitContainerToStart: null,
    InitContainersToStart: null,
    ContainersToStart: [],
    ContainersToKill: new Map(),
    EphemeralContainersToStart: null,
  };
  // If we need to (re-)create the pod sandbox, everything will need to be killed and recreated,
  // and init containers should be purged.
  if (sandbox.changed) return computeSandboxRecreateActions(pod, podStatus, changes, deps);

  // Ephemeral containers may be started even if initialization is not yet complete.
  (pod.spec.ephemeralContainers ?? []).forEach((ec, i) => {
    // Ephemeral containers are never restarted.
    if (FindContainerStatusByName(podStatus, ephemeralContainerCommon(ec).name) === undefined) {
      (changes.EphemeralContainersToStart ??= []).push(i);
    }
  });

  // Check initialization progress. Initialization failed or still in progress: skip inspecting
  // non-init containers.
  if (!deps.features.SidecarContainers) {
    if (!computeNonSidecarInitActions(pod, podStatus, changes, deps.version)) return changes;
  } else {
    const hasInitialized = computeInitContainerActions(pod, podStatus, changes, deps);
    if (changes.KillPod || !hasInitialized) return changes;
  }

  const keepCount = computeContainerActions(pod, podStatus, changes, deps);
  if (keepCount === 0 && changes.ContainersToStart.length === 0) {
    changes.KillPod = true;
    // To prevent the restartable init containers to keep pod alive, we should not restart them.
    if (deps.features.SidecarContainers) changes.InitContainersToStart = null;
  }
  return changes;
}

/** The createPodSandbox branch of computePodActions. */
function computeSandboxRecreateActions(
  pod: Pod,
  podStatus: PodStatus,
  changes: PodActions,
  deps: ComputePodActionsDeps,
): PodActions {
  if (!shouldRestartOnFailure(pod) && changes.Attempt !== 0 && podStatus.containerStatuses.length !== 0) {
    // Should not restart the pod: do not create a sandbox, just kill the pod if it is already done.
    // If ContainerStatuses is empty, no container was ever created, so creating the sandbox is retried.
    changes.CreateSandbox = false;
    return changes;
  }
  // Get the containers to start, excluding the ones that succeeded if RestartPolicy is OnFailure.
  const containersToStart: number[] = [];
  pod.spec.containers.forEach((c, idx) => {
    if (pod.spec.restartPolicy === "OnFailure" && containerSucceeded(c, podStatus)) return;
    containersToStart.push(idx);
  });
  // We should not create a sandbox, and just kill the pod if initialization is done and there is
  // no container to start.
  if (containersToStart.length === 0) {
    const hasInitialized = !deps.features.SidecarContainers
      ? findNextInitContainerToRun(pod, podStatus, deps.version).done
      : // If there is any regular container, all init containers have been initialized.
        hasAnyRegularContainerCreated(pod, podStatus);
    if (hasInitialized) {
      changes.CreateSandbox = false;
      return changes;
    }
  }
  // If we are creating a pod sandbox, we should restart from the initial state.
  const inits = pod.spec.initContainers ?? [];
  if (inits.length !== 0) {
    // Pod has init containers, return the first one.
    if (!deps.features.SidecarContainers) changes.NextInitContainerToStart = inits[0]!;
    else changes.InitContainersToStart = [0];
    return changes;
  }
  changes.ContainersToStart = containersToStart;
  return changes;
}

/** The SidecarContainers-off init check: returns whether initialization is done. */
function computeNonSidecarInitActions(pod: Pod, podStatus: PodStatus, changes: PodActions, version: VersionLike | undefined): boolean {
  const { status: initLastStatus, next, done } = findNextInitContainerToRun(pod, podStatus, version);
  if (done) return true;
  if (next !== undefined) {
    const initFailed = initLastStatus !== undefined && isInitContainerFailed(initLastStatus);
    if (initFailed && !shouldRestartOnFailure(pod)) {
      changes.KillPod = true;
    } else {
      // Always try to stop containers in unknown state first.
      if (initLastStatus !== undefined && initLastStatus.state === ContainerStateUnknown) {
        const message = `Init container is in ${JSON.stringify(initLastStatus.state)} state, try killing it before restart`;
        setKill(changes, initLastStatus, next, next.name, message, reasonUnknown);
      }
      changes.NextInitContainerToStart = next;
    }
  }
  return false;
}

/** The loop over regular containers; returns keepCount, the number of running containers to keep. */
function computeContainerActions(pod: Pod, podStatus: PodStatus, changes: PodActions, deps: ComputePodActionsDeps): number {
  let keepCount = 0;
  pod.spec.containers.forEach((container, idx) => {
    const containerStatus = FindContainerStatusByName(podStatus, container.name);
    // If container does not exist, or is not running, check whether we need to restart it.
    if (containerStatus === undefined || containerStatus.state !== ContainerStateRunning) {
      if (ShouldContainerBeRestarted(container, pod, podStatus, { lostContainerReadsAPIStatus: deps.lostContainerReadsAPIStatus === true })) {
        changes.ContainersToStart.push(idx);
        if (containerStatus !== undefined && containerStatus.state === ContainerStateUnknown) {
          // We don't know whether it is actually running: always kill it before restart to avoid
          // having 2 running instances of the same container.
          const message = `Container is in ${JSON.stringify(containerStatus.state)} state, try killing it before restart`;
          setKill(changes, containerStatus, container, containerStatus.name, message, reasonUnknown);
        }
      }
      return;
    }
    // The container is running, but kill the container if any of the following condition is met.
    const verdict = runningContainerVerdict(pod, container, containerStatus, deps);
    if (verdict === undefined) {
      // Keep the container.
      keepCount++;
      return;
    }
    let message = verdict.message;
    // If the container is to be restarted afterwards, make the intent clear in the message; the
    // pod is not killed since the container is expected to be running eventually.
    if (verdict.restart) {
      message = `${message}, will be restarted`;
      changes.ContainersToStart.push(idx);
    }
    setKill(changes, containerStatus, container, containerStatus.name, message, verdict.reason);
  });
  return keepCount;
}

interface KillVerdict {
  message: string;
  reason: ContainerKillReason;
  restart: boolean;
}

/** Why a running regular container must be killed, in upstream's order of checks; undefined keeps it. */
function runningContainerVerdict(
  pod: Pod,
  container: Container,
  containerStatus: Status,
  deps: ComputePodActionsDeps,
): KillVerdict | undefined {
  const restart = shouldRestartOnFailure(pod);
  if (containerChanged(container, containerStatus)[2]) {
    // Restart regardless of the restart policy because the container spec changed.
    return { message: `Container ${container.name} definition changed`, reason: "", restart: true };
  }
  if (deps.livenessManager.get(containerStatus.id) === "Failure") {
    return { message: `Container ${container.name} failed liveness probe`, reason: reasonLivenessProbe, restart };
  }
  if (deps.startupManager.get(containerStatus.id) === "Failure") {
    return { message: `Container ${container.name} failed startup probe`, reason: reasonStartupProbe, restart };
  }
  return undefined;
}

function setKill(
  changes: PodActions,
  status: Status,
  container: Container,
  name: string,
  message: string,
  reason: ContainerKillReason,
): void {
  changes.ContainersToKill.set(containerIDString(status.id), { containerID: status.id, container, name, message, reason });
}
