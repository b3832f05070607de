// Models pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer, startSpec,
// generateContainerConfig, recordContainerEvent), v1.29 line, as a process: pull, create, start,
// postStart hook, each step a CRI call that takes virtual time.
//
// Simplified: the container config carries metadata, image, command, labels, annotations and the
// log path (no env, mounts, devices, security context); the internal PreCreate/PreStart lifecycle
// hooks (CPU/memory managers) always succeed; with no status for the container the restart count
// is 0 (upstream then reads it from the log directory, which the simulator does not keep).
import { replaceContainerID } from "./helpers.ts";
import type { Proc } from "../../sim/index.ts";
import type { Container, EphemeralContainer, Pod } from "../../k8s/pod.ts";
import type { ContainerConfig, PodSandboxConfig } from "../../cri/api.ts";
import type { CallContext } from "../../cri/services.ts";
import { CriError } from "../../cri/errors.ts";
import { ephemeralContainerCommon } from "../container/helpers.ts";
import { FindContainerStatusByName, type ContainerID, type PodStatus } from "../container/runtime.ts";
import { CreatedContainer, FailedPostStartHook, FailedToCreateContainer, FailedToStartContainer, StartedContainer, containerFieldPath, type EventType } from "./events.ts";
import { killContainer } from "./kuberuntime_container_kill.ts";
import { newContainerAnnotations, newContainerLabels } from "./labels.ts";
import type { ManagerContext } from "./manager_context.ts";
import { reasonFailedPostStartHook } from "./pod_actions.ts";
import { ErrCreateContainer, ErrCreateContainerConfig, ErrPostStartHook, ErrRunContainer } from "./sync_result.ts";

/** startSpec wraps the spec required to start a container, either a regular/init container or an ephemeral container. */
export interface StartSpec {
  container: Container;
  ephemeralContainer: EphemeralContainer | null;
}

export function containerStartSpec(c: Container): StartSpec {
  return { container: c, ephemeralContainer: null };
}

export function ephemeralContainerStartSpec(ec: EphemeralContainer): StartSpec {
  return { container: ephemeralContainerCommon(ec), ephemeralContainer: ec };
}

/** getTargetID resolves an ephemeral container's targetContainerName to a container ID. */
export function getTargetID(spec: StartSpec, podStatus: PodStatus): ContainerID | null | { err: string } {
  const target = spec.ephemeralContainer?.targetContainerName;
  if (target === undefined || target === "") return null;
  const targetStatus = FindContainerStatusByName(podStatus, target);
  if (targetStatus === undefined) return { err: `unable to find target container ${target}` };
  return targetStatus.id;
}

/**
 * recordContainerEvent: every container event goes through here; a container ID in the message
 * is replaced by the container's name, so events deduplicate across restarts.
 */
export function recordContainerEvent(m: ManagerContext, pod: Pod, container: Container, containerID: string, type: EventType, reason: string, message: string): void {
  const text = replaceContainerID(message, containerID, container.name);
  m.recorder.Eventf(pod, type, reason, text, containerFieldPath(pod, container));
}

/** generateContainerConfig generates container config for kubelet runtime v1. */
export function generateContainerConfig(container: Container, pod: Pod, restartCount: number, imageRef: string): ContainerConfig {
  return {
    metadata: { name: container.name, attempt: restartCount },
    image: { image: imageRef },
    ...(container.command === undefined ? {} : { command: [...container.command] }),
    ...(container.args === undefined ? {} : { args: [...container.args] }),
    workingDir: container.workingDir ?? "",
    labels: newContainerLabels(container, pod),
    annotations: newContainerAnnotations(container, pod, restartCount),
    logPath: `${container.name}/${restartCount}.log`,
    stdin: container.stdin ?? false,
    tty: container.tty ?? false,
  };
}

export interface StartContainerResult {
  msg: string;
  /** An error name (ErrImagePull, CreateContainerError, RunContainerError, ...), null on success. */
  err: string | null;
}

/**
 * startContainer starts a container and returns a message indicating why it failed on error:
 * pull the image, create the container, start it, run the postStart hook. Only the pull is given
 * ctx (the scope of PR #131260); the other calls run to completion as before.
 */
export function* startContainer(
  m: ManagerContext,
  podSandboxID: string,
  podSandboxConfig: PodSandboxConfig,
  spec: StartSpec,
  pod: Pod,
  podStatus: PodStatus,
  ctx: CallContext | null = null,
): Proc<StartContainerResult> {
  const container = spec.container;
  const event = (id: string, type: EventType, reason: string, message: string) => recordContainerEvent(m, pod, container, id, type, reason, message);
  // Step 1: pull the image.
  const pulled = yield* m.imagePuller.EnsureImageExists(pod, container, podSandboxConfig, ctx);
  if (pulled.err !== null) {
    event("", "Warning", FailedToCreateContainer, `Error: ${pulled.err}`);
    return { msg: pulled.msg, err: pulled.err };
  }
  // Step 2: create the container. For a new container, the RestartCount should be 0.
  const containerStatus = FindContainerStatusByName(podStatus, container.name);
  const restartCount = containerStatus !== undefined ? containerStatus.restartCount + 1 : 0;
  const target = getTargetID(spec, podStatus);
  if (target !== null && "err" in target) {
    event("", "Warning", FailedToCreateContainer, `Error: ${target.err}`);
    return { msg: target.err, err: ErrCreateContainerConfig };
  }
  const containerConfig = generateContainerConfig(container, pod, restartCount, pulled.imageRef);
  const containerID = yield* m.runtimeService.CreateContainer(podSandboxID, containerConfig, podSandboxConfig);
  if (containerID instanceof CriError) {
    event("", "Warning", FailedToCreateContainer, `Error: ${containerID.desc}`);
    return { msg: containerID.desc, err: ErrCreateContainer };
  }
  event(containerID, "Normal", CreatedContainer, `Created container ${container.name}`);
  // Step 3: start the container.
  const started = yield* m.runtimeService.StartContainer(containerID);
  if (started instanceof CriError) {
    event(containerID, "Warning", FailedToStartContainer, `Error: ${started.desc}`);
    return { msg: started.desc, err: ErrRunContainer };
  }
  event(containerID, "Normal", StartedContainer, `Started container ${container.name}`);
  // Step 4: execute the post start hook.
  const postStart = container.lifecycle?.postStart;
  if (postStart !== undefined) {
    const kubeContainerID = { type: m.runtimeName, id: containerID };
    const { msg, err } = yield* m.runner.Run(kubeContainerID, pod, container, postStart, "postStart");
    if (err !== null) {
      // Do not record the message in the event so that secrets won't leak from the server.
      event(containerID, "Warning", FailedPostStartHook, "PostStartHook failed");
      yield* killContainer(m, pod, kubeContainerID, container.name, "FailedPostStartHook", reasonFailedPostStartHook, null);
      return { msg, err: ErrPostStartHook };
    }
  }
  return { msg: "", err: null };
}
