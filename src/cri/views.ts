// What the runtime hands out: fresh CRI messages built from its records, so no caller can change
// the runtime's state through a value it was given (no upstream file; containerd's toCRI* helpers).
// A record's labels and annotations never change after creation, so they go out as one frozen
// copy per record rather than a new copy per call (ListContainers runs every relist).
import type { Container, ContainerStatus, Image, PodSandbox, PodSandboxStatus } from "./api.ts";
import type { ContainerRecord, ImageRecord, SandboxRecord } from "./store.ts";

const frozenCopies = new WeakMap<object, Readonly<Record<string, string>>>();

/**
 * `{ ...m }`: the same keys in the same order, copied by Object.assign. On Node 20 (V8 11.3) a spread
 * copy of an object that is not frozen has a hidden class outside V8's transition tree, so freezing
 * it (the views below freeze their copies) makes a new hidden class for every copy: every reader of
 * the views then met a class it had never seen (each a miss of its inline cache, counted with
 * `node --log-ic`; docs/BENCHMARKS-history.md, "Object shapes on the hot path"). Copies made by
 * Object.assign share one class frozen. Object.assign sets a key "__proto__" as the prototype where
 * a spread defines it, so such an object is spread.
 */
function copyOf<T extends object>(m: T): T {
  return Object.hasOwn(m, "__proto__") ? { ...m } : Object.assign({}, m);
}

/** A frozen copy of a record's labels or annotations, made once per source object. */
function frozenCopy(m: Readonly<Record<string, string>> | undefined): Record<string, string> {
  if (m === undefined) return {};
  let copy = frozenCopies.get(m);
  if (copy === undefined) {
    copy = Object.freeze(copyOf(m));
    frozenCopies.set(m, copy);
  }
  return copy as Record<string, string>;
}

export function toPodSandbox(s: SandboxRecord): PodSandbox {
  return {
    id: s.id,
    metadata: copyOf(s.config.metadata), // podSandboxView freezes it
    state: s.state,
    createdAtMs: s.createdAtMs,
    labels: frozenCopy(s.config.labels),
    annotations: frozenCopy(s.config.annotations),
    runtimeHandler: s.runtimeHandler,
  };
}

/**
 * ListPodSandbox's view of a record: frozen and kept until the sandbox's state changes (the only
 * field of a PodSandbox that changes during a record's life), as toContainer does for containers,
 * so the relist's readers can keep what they derive per view.
 */
export function podSandboxView(s: SandboxRecord): PodSandbox {
  const kept = sandboxViews.get(s);
  if (kept !== undefined && kept.state === s.state) return kept;
  const view = toPodSandbox(s);
  Object.freeze(view.metadata);
  Object.freeze(view);
  sandboxViews.set(s, view);
  return view;
}

const sandboxViews = new WeakMap<SandboxRecord, PodSandbox>();

export function toSandboxStatus(s: SandboxRecord): PodSandboxStatus {
  // toPodSandbox's fields in its order, written out: spreading a PodSandbox built for the purpose
  // cost a second object per PodSandboxStatus call (every GetPodStatus makes one).
  const status: PodSandboxStatus = {
    id: s.id,
    metadata: { ...s.config.metadata },
    state: s.state,
    createdAtMs: s.createdAtMs,
    labels: frozenCopy(s.config.labels),
    annotations: frozenCopy(s.config.annotations),
    runtimeHandler: s.runtimeHandler,
    linux: { namespaces: { options: { network: s.hostNetwork ? "NODE" : "POD" } } },
  };
  // containerd reports no IP for host-network sandboxes and an empty one once the netns is closed.
  if (!s.hostNetwork) status.network = { ip: s.ip, additionalIps: [] };
  return status;
}

/**
 * ListContainers' view of a record. Of its fields only the state (and the image ref, for safety)
 * change during a record's life, so the frozen view is kept until one of them does: relist lists
 * every container every second, and its readers can then cache what they derive per view.
 */
export function toContainer(c: ContainerRecord): Container {
  const kept = containerViews.get(c);
  if (kept !== undefined && kept.state === c.state && kept.imageRef === c.imageRef) return kept;
  const view: Container = Object.freeze({
    id: c.id,
    podSandboxId: c.sandboxId,
    metadata: Object.freeze(copyOf(c.config.metadata)),
    image: Object.freeze(copyOf(c.config.image)),
    imageRef: c.imageRef,
    state: c.state,
    createdAtMs: c.createdAtMs,
    labels: frozenCopy(c.config.labels),
    annotations: frozenCopy(c.config.annotations),
  });
  containerViews.set(c, view);
  return view;
}

const containerViews = new WeakMap<ContainerRecord, Container>();

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
    labels: frozenCopy(c.config.labels),
    annotations: frozenCopy(c.config.annotations),
    logPath: c.config.logPath ?? "",
  };
}

export function toImage(i: ImageRecord): Image {
  return { id: i.id, repoTags: [...i.repoTags], repoDigests: [], size: i.size, pinned: false };
}
