// What the runtime hands out: fresh CRI messages built from its records, so no caller can change
// the runtime's state through a value it was given (no upstream file; containerd's toCRI* helpers).
import type { Container, ContainerStatus, Image, PodSandbox, PodSandboxStatus } from "./api.ts";
import type { ContainerRecord, ImageRecord, SandboxRecord } from "./store.ts";

export function toPodSandbox(s: SandboxRecord): PodSandbox {
  return {
    id: s.id,
    metadata: { ...s.config.metadata },
    state: s.state,
    createdAtMs: s.createdAtMs,
    labels: { ...s.config.labels },
    annotations: { ...s.config.annotations },
    runtimeHandler: s.runtimeHandler,
  };
}

export function toSandboxStatus(s: SandboxRecord): PodSandboxStatus {
  const status: PodSandboxStatus = {
    ...toPodSandbox(s),
    linux: { namespaces: { options: { network: s.hostNetwork ? "NODE" : "POD" } } },
  };
  // containerd reports no IP for host-network sandboxes and an empty one once the netns is closed.
  if (!s.hostNetwork) status.network = { ip: s.ip, additionalIps: [] };
  return status;
}

export function toContainer(c: ContainerRecord): Container {
  return {
    id: c.id,
    podSandboxId: c.sandboxId,
    metadata: { ...c.config.metadata },
    image: { ...c.config.image },
    imageRef: c.imageRef,
    state: c.state,
    createdAtMs: c.createdAtMs,
    labels: { ...c.config.labels },
    annotations: { ...c.config.annotations },
  };
}

export function toContainerStatus(c: ContainerRecord): ContainerStatus {
  return {
    id: c.id,
    metadata: { ...c.config.metadata },
    state: c.state,
    createdAtMs: c.createdAtMs,
    startedAtMs: c.startedAtMs,
    finishedAtMs: c.finishedAtMs,
    exitCode: c.exitCode,
    image: { image: c.imageName },
    imageRef: c.imageRef,
    reason: c.reason,
    message: c.message,
    labels: { ...c.config.labels },
    annotations: { ...c.config.annotations },
    logPath: c.config.logPath ?? "",
  };
}

export function toImage(i: ImageRecord): Image {
  return { id: i.id, repoTags: [...i.repoTags], repoDigests: [], size: i.size, pinned: false };
}
