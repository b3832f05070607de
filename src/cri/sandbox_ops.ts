// Models the sandbox half of the CRI RuntimeService (RunPodSandbox, StopPodSandbox,
// RemovePodSandbox, PodSandboxStatus, ListPodSandbox) as containerd's CRI plugin serves it.
import type { Op } from "../sim/index.ts";
import { matchLabels, type PodSandbox, type PodSandboxConfig, type PodSandboxFilter, type PodSandboxStatus } from "./api.ts";
import { drawMs } from "./config.ts";
import { deliverSignal } from "./container_process.ts";
import type { CriCall, RuntimeCore } from "./core.ts";
import type { CallSite } from "./faults.ts";
import { CriError, notFound } from "./errors.ts";
import { pullFailure, pullTimeOf } from "./image_ops.ts";
import { sandboxName, type SandboxRecord } from "./store.ts";
import { podSandboxView, toContainerStatus, toSandboxStatus } from "./views.ts";

/** CRI timestamps are Unix nanoseconds; virtual time is in ms. */
const NS_PER_MS = 1_000_000;

export function podKeyOf(config: PodSandboxConfig): string {
  return `${config.metadata.namespace}/${config.metadata.name}`;
}

function sandboxNotFound(id: string): CriError {
  return notFound(`an error occurred when try to find sandbox "${id}": not found`);
}

/**
 * RunPodSandbox: pull the pause image if absent, create and start the sandbox, set up its network
 * (an IP from the pod subnet unless it uses the host network). containerd refuses a second
 * sandbox with the same name_namespace_uid_attempt while the first is not removed.
 */
export function RunPodSandbox(rt: RuntimeCore, config: PodSandboxConfig, runtimeHandler: string): Op | CriError {
  const podKey = podKeyOf(config);
  return rt.call<string>(
    { method: "RunPodSandbox", pod: podKey, container: null },
    null,
    (c) => {
      const name = sandboxName(config);
      const holder = rt.store.reservedNames.get(name);
      if (holder !== undefined) {
        return new CriError("Unknown", `failed to reserve sandbox name "${name}": name "${name}" is reserved for "${holder}"`);
      }
      const create = () => createSandbox(rt, config, runtimeHandler, podKey, name);
      return rt.store.findImage(rt.config.pauseImage) === undefined ? pullSandboxImage(rt, c, create) : create();
    },
    (id) => {
      const rec = rt.store.sandboxes.get(id)!;
      return { newId: id, attempt: config.metadata.attempt, ip: rec.ip };
    },
  );
}

/** The sandbox itself, created and started once the pause image is there. */
function createSandbox(rt: RuntimeCore, config: PodSandboxConfig, runtimeHandler: string, podKey: string, name: string): string {
  const hostNetwork = config.linux?.securityContext?.namespaceOptions?.network === "NODE";
  const rec: SandboxRecord = {
    id: rt.store.newSandboxId(),
    config,
    runtimeHandler,
    podKey,
    hostNetwork,
    createdAtMs: rt.nowMs,
    state: "SANDBOX_READY",
    ip: hostNetwork ? "" : rt.store.allocateIp(rt.options.podSubnetPrefix),
  };
  rt.store.sandboxes.set(rec.id, rec);
  rt.store.reservedNames.set(name, rec.id);
  return rec.id;
}

/** Step 1 of RunPodSandbox when the pause image is absent: pulled (taking its pull time), then `create`. */
function pullSandboxImage(rt: RuntimeCore, c: CriCall<string>, create: () => string): Op {
  const image = rt.config.pauseImage;
  const startMs = rt.nowMs;
  return c.after(drawMs(rt.rng, pullTimeOf(rt, image)), "cri pull sandbox image", () => {
    const err = pullFailure(rt, image, startMs);
    rt.emit("PullSandboxImage", { image, tookMs: rt.nowMs - startMs, ...(err === null ? { result: "ok" } : { error: err.message }) });
    if (err !== null) {
      return new CriError(err.code, `failed to get sandbox image "${image}": failed to pull image "${image}": ${err.desc}`);
    }
    rt.store.addImage(image);
    return create();
  });
}

/**
 * StopPodSandbox: every running container of the sandbox is killed at once (containerd stops
 * them with timeout 0), the network is torn down and the sandbox is NOTREADY. Idempotent.
 */
export function StopPodSandbox(rt: RuntimeCore, id: string): Op | CriError {
  return rt.call<null>(rt.sandboxSite("StopPodSandbox", id), id, () => {
    const rec = rt.store.sandboxes.get(id);
    if (rec === undefined) return sandboxNotFound(id);
    stopSandbox(rt, rec);
    return null;
  });
}

/** The effect of StopPodSandbox, shared with the node faults that take a sandbox down. */
export function stopSandbox(rt: RuntimeCore, rec: SandboxRecord): void {
  for (const c of rt.store.sandboxContainers(rec.id)) deliverSignal(rt, c, "SIGKILL");
  rec.ip = "";
  rec.state = "SANDBOX_NOTREADY";
  rt.store.touch();
}

/** RemovePodSandbox: force-removes its containers, then the sandbox. An unknown ID is not an error. */
export function RemovePodSandbox(rt: RuntimeCore, id: string): Op | CriError {
  return rt.call<null>(rt.sandboxSite("RemovePodSandbox", id), id, () => {
    const rec = rt.store.sandboxes.get(id);
    if (rec === undefined) return null;
    stopSandbox(rt, rec);
    for (const c of rt.store.sandboxContainers(id)) removeContainerRecord(rt, c.id);
    rt.store.sandboxes.delete(id);
    rt.store.reservedNames.delete(sandboxName(rec.config));
    return null;
  });
}

/** Drops a container record and its name reservation (the process must already be gone). */
export function removeContainerRecord(rt: RuntimeCore, id: string): void {
  const c = rt.store.containers.get(id);
  if (c === undefined) return;
  rt.store.containers.delete(id);
  for (const [name, holder] of rt.store.reservedNames) if (holder === id) rt.store.reservedNames.delete(name);
  rt.publishContainerEvent(c, "CONTAINER_DELETED_EVENT");
}

export function PodSandboxStatus(rt: RuntimeCore, id: string): Op | CriError {
  return rt.call<PodSandboxStatus>(
    rt.sandboxSite("PodSandboxStatus", id),
    id,
    () => {
      const rec = rt.store.sandboxes.get(id);
      if (rec === undefined) return sandboxNotFound(id);
      if (!rt.config.podSandboxStatusTimestamp) return toSandboxStatus(rec);
      // The instant the status is read (virtual ms as ns) and the statuses of the sandbox's containers.
      const containersStatuses = rt.store.sandboxContainers(id).map(toContainerStatus);
      // Added to the status, not spread into a new object (a spread of a fresh object then a property costs about 1 µs on Node 20's V8).
      const status: PodSandboxStatus = toSandboxStatus(rec);
      status.timestamp = rt.nowMs * NS_PER_MS;
      status.containersStatuses = containersStatuses;
      return status;
    },
    (s) => ({ state: s.state }),
  );
}

/** The call site of every ListPodSandbox (it names no pod): one object for every call, as nothing writes a site. */
const LIST_SANDBOXES_SITE: CallSite = Object.freeze({ method: "ListPodSandbox", pod: null, container: null });
/** A listing's trace fields. */
const listCount = (list: readonly unknown[]): Record<string, unknown> => ({ count: list.length });

export function ListPodSandbox(rt: RuntimeCore, filter: PodSandboxFilter | null): Op | CriError {
  return rt.call<PodSandbox[]>(
    LIST_SANDBOXES_SITE,
    null,
    () => rt.store.sandboxListings.list(rt.store.generation, filter, () => {
      const out: PodSandbox[] = [];
      for (const s of rt.store.sandboxesByLabel.candidates(filter?.labelSelector)) {
        if (filter?.id !== undefined && s.id !== filter.id) continue;
        if (filter?.state !== undefined && s.state !== filter.state) continue;
        if (!matchLabels(s.config.labels, filter?.labelSelector)) continue;
        out.push(podSandboxView(s));
      }
      return out;
    }),
    listCount,
  );
}
