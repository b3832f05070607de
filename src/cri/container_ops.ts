// Models the container half of the CRI RuntimeService (CreateContainer, StartContainer,
// StopContainer, RemoveContainer, ListContainers, ContainerStatus, UpdateContainerResources) as
// containerd's CRI plugin serves it.
import type { Op } from "../sim/index.ts";
import { matchLabels, type Container, type ContainerConfig, type ContainerFilter, type ContainerStatus, type PodSandboxConfig } from "./api.ts";
import {
  EXIT_CODE_START_ERROR, REASON_START_ERROR, deliverSignal, scheduleFor, startProcess,
} from "./container_process.ts";
import type { RuntimeCore } from "./core.ts";
import type { CallSite } from "./faults.ts";
import { CriError, notFound } from "./errors.ts";
import { programForAttempt } from "./program.ts";
import { removeContainerRecord } from "./sandbox_ops.ts";
import { containerName, type ContainerRecord } from "./store.ts";
import { toContainer, toContainerStatus } from "./views.ts";
import { dockerStartFailed, dockershimContainerStatus } from "./dockershim.ts";

export function containerNotFound(id: string): CriError {
  return notFound(`an error occurred when try to find container "${id}": not found`);
}

/**
 * CreateContainer: the sandbox must exist and be ready, the image must be on the node, and the
 * name container_sandbox_namespace_uid_attempt must be free. The container is CREATED; its
 * program is the one scripted for its pod, name and attempt.
 */
export function CreateContainer(rt: RuntimeCore, podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig): Op | CriError {
  const site = { method: "CreateContainer" as const, pod: rt.store.sandboxes.get(podSandboxId)?.podKey ?? null, container: config.metadata.name };
  return rt.call<string>(
    site,
    null,
    () => {
      const sandbox = rt.store.sandboxes.get(podSandboxId);
      if (sandbox === undefined) return notFound(`failed to find sandbox id "${podSandboxId}": not found`);
      if (sandbox.state !== "SANDBOX_READY") return new CriError("Unknown", `sandbox "${podSandboxId}" is not in ready state`);
      const image = rt.store.findImage(config.image.image);
      if (image === undefined) return notFound(`failed to resolve image "${config.image.image}": not found`);
      const name = containerName(config, sandboxConfig);
      const holder = rt.store.reservedNames.get(name);
      if (holder !== undefined) {
        return new CriError("Unknown", `failed to reserve container name "${name}": name "${name}" is reserved for "${holder}"`);
      }
      const rec = newContainerRecord(rt, sandbox.podKey, podSandboxId, config, image.id, image.repoTags[0]!);
      rt.store.containers.set(rec.id, rec);
      rt.store.reservedNames.set(name, rec.id);
      rt.publishContainerEvent(rec, "CONTAINER_CREATED_EVENT");
      return rec.id;
    },
    (id) => ({ newId: id, attempt: config.metadata.attempt }),
  );
}

function newContainerRecord(rt: RuntimeCore, podKey: string, sandboxId: string, config: ContainerConfig, imageRef: string, imageName: string): ContainerRecord {
  const name = config.metadata.name;
  return {
    id: rt.store.newContainerId(),
    sandboxId,
    config,
    podKey,
    name,
    imageRef,
    imageName,
    program: programForAttempt(rt.behaviourFor(podKey, name), config.metadata.attempt),
    createdAtMs: rt.nowMs,
    state: "CONTAINER_CREATED",
    startedAtMs: 0,
    finishedAtMs: 0,
    exitCode: 0,
    reason: "",
    message: "",
    exited: null,
    timers: [],
    sigtermAtMs: null,
  };
}

/**
 * StartContainer: only a CREATED container in a ready sandbox starts. A program scripted to fail
 * at start leaves the container EXITED with 128 and reason StartError, as containerd does (docker
 * left it CREATED with exit code 128: dockershim.ts).
 */
export function StartContainer(rt: RuntimeCore, id: string): Op | CriError {
  return rt.call<null>(rt.containerSite("StartContainer", id), id, () => {
    const c = rt.store.containers.get(id);
    if (c === undefined) return containerNotFound(id);
    if (c.state !== "CONTAINER_CREATED") return new CriError("Unknown", `container "${id}" is in ${c.state} state`);
    const sandbox = rt.store.sandboxes.get(c.sandboxId);
    if (sandbox === undefined || sandbox.state !== "SANDBOX_READY") {
      return new CriError("Unknown", `sandbox container "${c.sandboxId}" is not running`);
    }
    if (c.program.startError !== null && rt.options.failedStartStaysCreated) return dockerStartFailed(rt, c);
    if (c.program.startError !== null) {
      const desc = `failed to create containerd task: failed to create shim task: OCI runtime create failed: ${c.program.startError}: unknown`;
      c.state = "CONTAINER_EXITED";
      c.startedAtMs = rt.nowMs;
      c.finishedAtMs = rt.nowMs;
      c.exitCode = EXIT_CODE_START_ERROR;
      c.reason = REASON_START_ERROR;
      c.message = desc;
      rt.store.touch();
      rt.emit("ContainerExited", { pod: c.podKey, container: c.name, id, exitCode: c.exitCode, reason: c.reason });
      return new CriError("Unknown", desc);
    }
    startProcess(rt, c);
    return null;
  });
}

/**
 * StopContainer: SIGTERM, then SIGKILL when timeoutSeconds run out (at once for 0); returns once
 * the process is gone. A container that is not running is left as it is. If the call fails (a
 * fault), nothing was signalled and the container keeps running.
 */
export function StopContainer(rt: RuntimeCore, id: string, timeoutSeconds: number): Op | CriError {
  return rt.call<null>(
    rt.containerSite("StopContainer", id),
    id,
    (call) => {
      const c = rt.store.containers.get(id);
      if (c === undefined) return containerNotFound(id);
      if (c.state !== "CONTAINER_RUNNING") return null;
      const exited = c.exited!;
      if (timeoutSeconds > 0) {
        deliverSignal(rt, c, "SIGTERM");
        if (c.state === "CONTAINER_RUNNING") scheduleFor(rt, c, rt.nowMs + timeoutSeconds * 1000, () => deliverSignal(rt, c, "SIGKILL"));
      } else {
        deliverSignal(rt, c, "SIGKILL");
      }
      return call.afterRecv(exited, () => null);
    },
    () => ({ timeoutSeconds }),
  );
}

/** RemoveContainer: a running container is killed first (CRI: "must be forcibly removed"). Idempotent. */
export function RemoveContainer(rt: RuntimeCore, id: string): Op | CriError {
  return rt.call<null>(rt.containerSite("RemoveContainer", id), id, () => {
    const c = rt.store.containers.get(id);
    if (c === undefined) return null;
    deliverSignal(rt, c, "SIGKILL");
    removeContainerRecord(rt, id);
    return null;
  });
}

/** The call site of every ListContainers (it names no pod): one object for every call, as nothing writes a site. */
const LIST_CONTAINERS_SITE: CallSite = Object.freeze({ method: "ListContainers", pod: null, container: null });
/** A listing's trace fields. */
const listCount = (list: readonly unknown[]): Record<string, unknown> => ({ count: list.length });

export function ListContainers(rt: RuntimeCore, filter: ContainerFilter | null): Op | CriError {
  return rt.call<Container[]>(
    LIST_CONTAINERS_SITE,
    null,
    () => rt.store.containerListings.list(rt.store.generation, filter, () => {
      const out: Container[] = [];
      for (const c of rt.store.containersByLabel.candidates(filter?.labelSelector)) {
        if (filter?.id !== undefined && c.id !== filter.id) continue;
        if (filter?.state !== undefined && c.state !== filter.state) continue;
        if (filter?.podSandboxId !== undefined && c.sandboxId !== filter.podSandboxId) continue;
        if (!matchLabels(c.config.labels, filter?.labelSelector)) continue;
        out.push(toContainer(c));
      }
      return out;
    }),
    listCount,
  );
}

export function ContainerStatus(rt: RuntimeCore, id: string): Op | CriError {
  return rt.call<ContainerStatus>(
    rt.containerSite("ContainerStatus", id),
    id,
    () => {
      const c = rt.store.containers.get(id);
      if (c === undefined) return containerNotFound(id);
      return rt.options.failedStartStaysCreated ? dockershimContainerStatus(c) : toContainerStatus(c);
    },
    (s) => ({ state: s.state }),
  );
}

/** UpdateContainerResources: accepted and ignored (resources are not modelled). */
export function UpdateContainerResources(rt: RuntimeCore, id: string): Op | CriError {
  return rt.call<null>(rt.containerSite("UpdateContainerResources", id), id, () => {
    return rt.store.containers.has(id) ? null : containerNotFound(id);
  });
}
