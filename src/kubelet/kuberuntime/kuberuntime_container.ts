// Models pkg/kubelet/kuberuntime/kuberuntime_container.go (init-container progress, kill grace period), v1.29 line.
import { atLeast, type VersionLike } from "../version.ts";
import type { Container, Pod } from "../../k8s/pod.ts";
import { isRestartableInitContainer } from "../../k8s/podutil.ts";
import {
  ContainerStateCreated,
  ContainerStateExited,
  ContainerStateRunning,
  FindContainerStatusByName,
  containerIDString,
  type PodStatus,
  type Status,
} from "../container/runtime.ts";
import { isInitContainerFailed } from "./helpers.ts";
import {
  reasonLivenessProbe,
  reasonStartupProbe,
  reasonUnknown,
  type ComputePodActionsDeps,
  type ContainerKillReason,
  type PodActions,
} from "./pod_actions.ts";

/** shouldRestartOnFailure (kuberuntime_manager.go): only Never forbids restarts; unset behaves like Always. */
export function shouldRestartOnFailure(pod: Pod): boolean {
  return pod.spec.restartPolicy !== "Never";
}

export interface NextInitContainer {
  /** The status of the last failed init container, when one failed (next then points at it). */
  status: Status | undefined;
  next: Container | undefined;
  done: boolean;
}

/**
 * Whether a running main container proves initialization done: PR #96572 ("do not rerun init
 * containers if any main containers have status", milestone v1.21). It merged after v1.20.0 was
 * cut and no cherry-pick to release-1.20 shows in the 1.20 patch notes, so its first release is
 * v1.21.0. Before it (kubelet 1.20 and older) an init container whose exited record the garbage
 * collector removed looked as if it had never run, and ran again next to the running app (race
 * R21: #62362, #90271). Simplified: #96572 first checked "has status"; the model uses the later
 * "has status and is Running" form (the v1.29 text) for every release from 1.21.
 */
export function mainContainersEndInitialization(version: VersionLike): boolean {
  return atLeast(version, "1.21");
}

/** The release findNextInitContainerToRun follows when the caller names none. */
export const LATEST_INIT_VERSION: VersionLike = "1.29";

/**
 * findNextInitContainerToRun returns the status of the last failed container, the next init
 * container to start, or done if there are no further init containers. Used when SidecarContainers
 * is off; identical to the pre-sidecar (v1.21) algorithm. `version` selects the release (see
 * mainContainersEndInitialization).
 */
export function findNextInitContainerToRun(pod: Pod, podStatus: PodStatus, version: VersionLike = LATEST_INIT_VERSION): NextInitContainer {
  const inits = pod.spec.initContainers ?? [];
  if (inits.length === 0) return { status: undefined, next: undefined, done: true };
  // If any of the main containers have status and are Running, then all init containers must have
  // been executed at some point in the past, even if the runtime has since removed them.
  if (mainContainersEndInitialization(version) && anyMainContainerRunning(pod, podStatus)) {
    return { status: undefined, next: undefined, done: true };
  }
  // If there are failed containers, return the status of the last failed one.
  for (let i = inits.length - 1; i >= 0; i--) {
    const status = FindContainerStatusByName(podStatus, inits[i]!.name);
    if (status !== undefined && isInitContainerFailed(status)) return { status, next: inits[i], done: false };
  }
  // There are no failed containers now.
  for (let i = inits.length - 1; i >= 0; i--) {
    const status = FindContainerStatusByName(podStatus, inits[i]!.name);
    if (status === undefined) continue;
    // Container is still running, return not done.
    if (status.state === ContainerStateRunning) return { status: undefined, next: undefined, done: false };
    if (status.state === ContainerStateExited) {
      // All init containers successful, or all up to i successful: go to i+1.
      if (i === inits.length - 1) return { status: undefined, next: undefined, done: true };
      return { status: undefined, next: inits[i + 1], done: false };
    }
  }
  return { status: undefined, next: inits[0], done: false };
}

function anyMainContainerRunning(pod: Pod, podStatus: PodStatus): boolean {
  return pod.spec.containers.some((c) => FindContainerStatusByName(podStatus, c.name)?.state === ContainerStateRunning);
}

/** hasAnyRegularContainerCreated: any regular container created, running or exited means initialized. */
export function hasAnyRegularContainerCreated(pod: Pod, podStatus: PodStatus): boolean {
  return pod.spec.containers.some((container) => {
    const state = FindContainerStatusByName(podStatus, container.name)?.state;
    return state === ContainerStateCreated || state === ContainerStateRunning || state === ContainerStateExited;
  });
}

/**
 * computeInitContainerActions sets the actions for the init containers (SidecarContainers path)
 * and returns true if the pod has been initialized: start the first init container not yet
 * started, restart restartable init containers that are not running, kill those that failed a
 * probe or are in unknown state. v1.29: a Created init container waits, and a running sidecar's
 * definition change is not checked.
 */
export function computeInitContainerActions(
  pod: Pod,
  podStatus: PodStatus,
  changes: PodActions,
  deps: ComputePodActionsDeps,
): boolean {
  const inits = pod.spec.initContainers ?? [];
  if (inits.length === 0) return true;
  const exitedCounts = !atLeast(deps.version ?? LATEST_INIT_VERSION, "1.29");
  const progress: InitProgress = {
    // A created or running regular container means initialization happened in the past. From 1.29
    // (#120269) exited ones do not count: after a node reboot every container is exited, and a new
    // sandbox must not be mistaken for an initialized one. Before, any status counted, and the
    // statuses of the dead sandbox's containers made a new sandbox look initialized (race R20).
    // Simplified: the 1.28 form is taken to be "any status"; the text before #120269 was not read.
    podHasInitialized: pod.spec.containers.some((c) => {
      const state = FindContainerStatusByName(podStatus, c.name)?.state;
      return state === ContainerStateCreated || state === ContainerStateRunning || (exitedCounts && state === ContainerStateExited);
    }),
    isPreviouslyInitialized: false,
  };
  progress.isPreviouslyInitialized = progress.podHasInitialized;
  const restartOnFailure = shouldRestartOnFailure(pod);
  // Iterate in reverse: completed init containers may have been removed from the runtime, so rely
  // on the last one; once the next one to run is found, the rest are sidecars to keep running.
  for (let i = inits.length - 1; i >= 0; i--) {
    const container = inits[i]!;
    const status = FindContainerStatusByName(podStatus, container.name);
    if (status === undefined) {
      // Previously initialized but its status is gone: restart it if it is a sidecar.
      if (progress.isPreviouslyInitialized && isRestartableInitContainer(container)) {
        appendInitToStart(changes, i);
      }
      continue;
    }
    // After initialization, only restartable init containers need to be kept running.
    if (progress.isPreviouslyInitialized && !isRestartableInitContainer(container)) continue;
    const verdict = initContainerAction(pod, i, container, status, changes, deps, progress, restartOnFailure);
    if (verdict === "kill-pod") return false;
    // The one before this init container has been initialized.
    progress.isPreviouslyInitialized = true;
  }
  // This means no init containers have been started: start the first one.
  if (!progress.isPreviouslyInitialized) appendInitToStart(changes, 0);
  // Reverse, as the loop went backwards but they must start in pod-spec order.
  changes.InitContainersToStart?.reverse();
  return progress.podHasInitialized;
}

interface InitProgress {
  podHasInitialized: boolean;
  isPreviouslyInitialized: boolean;
}

/** The switch on status.State inside computeInitContainerActions' loop. */
function initContainerAction(
  pod: Pod,
  i: number,
  container: Container,
  status: Status,
  changes: PodActions,
  deps: ComputePodActionsDeps,
  progress: InitProgress,
  restartOnFailure: boolean,
): "continue" | "kill-pod" {
  const last = (pod.spec.initContainers ?? []).length - 1;
  const restartable = isRestartableInitContainer(container);
  switch (status.state) {
    case ContainerStateCreated:
      // Nothing to do but wait for it to start.
      return "continue";
    case ContainerStateRunning:
      // A running regular init container: nothing to do but wait for it to finish.
      if (restartable) runningSidecarAction(i, last, container, status, changes, deps, progress);
      return "continue";
    case ContainerStateExited:
      if (restartable) {
        appendInitToStart(changes, i);
      } else if (isInitContainerFailed(status)) {
        // If the init container failed and the restart policy is Never, the pod is terminal.
        if (!restartOnFailure) return killPodForInit(changes);
        appendInitToStart(changes, i);
      } else if (i === last) {
        progress.podHasInitialized = true;
      } else {
        // This init container is initialized for the first time: start the next one.
        appendInitToStart(changes, i + 1);
      }
      return "continue";
    default:
      // ContainerStateUnknown or other unknown states: a sidecar is restarted; a regular init
      // container ends the pod under restartPolicy Never, else is killed and restarted.
      if (!restartable && !restartOnFailure) return killPodForInit(changes);
      killBeforeRestart(changes, container, status, `Init container is in ${JSON.stringify(status.state)} state, try killing it before restart`, reasonUnknown);
      appendInitToStart(changes, i);
      return "continue";
  }
}

/** The running restartable init container case: startup and liveness probe results decide. */
function runningSidecarAction(
  i: number,
  last: number,
  container: Container,
  status: Status,
  changes: PodActions,
  deps: ComputePodActionsDeps,
  progress: InitProgress,
): void {
  if (container.startupProbe !== undefined) {
    const startup = deps.startupManager.get(status.id);
    // If the startup probe has not been run, wait for it.
    if (startup === undefined) return;
    if (startup !== "Success") {
      if (startup === "Failure") {
        killBeforeRestart(changes, container, status, `Init container ${container.name} failed startup probe`, reasonStartupProbe);
        appendInitToStart(changes, i);
      }
      return;
    }
  }
  // The init container has been initialized.
  if (i === last) {
    progress.podHasInitialized = true;
  } else if (!progress.isPreviouslyInitialized) {
    // This init container is initialized for the first time: start the next one.
    appendInitToStart(changes, i + 1);
  }
  // A restartable init container does not take its liveness probe into account when it
  // determines to start the next init container.
  if (container.livenessProbe !== undefined) {
    const liveness = deps.livenessManager.get(status.id);
    // If the liveness probe has not been run, wait for it.
    if (liveness === "Failure") {
      killBeforeRestart(changes, container, status, `Init container ${container.name} failed liveness probe`, reasonLivenessProbe);
      appendInitToStart(changes, i);
    }
  }
}

function appendInitToStart(changes: PodActions, index: number): void {
  (changes.InitContainersToStart ??= []).push(index);
}

function killPodForInit(changes: PodActions): "kill-pod" {
  changes.KillPod = true;
  changes.InitContainersToStart = null;
  return "kill-pod";
}

function killBeforeRestart(
  changes: PodActions,
  container: Container,
  status: Status,
  message: string,
  reason: ContainerKillReason,
): void {
  changes.ContainersToKill.set(containerIDString(status.id), {
    containerID: status.id,
    container,
    name: container.name,
    message,
    reason,
  });
}
