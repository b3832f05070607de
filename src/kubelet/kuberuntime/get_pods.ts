// Models pkg/kubelet/kuberuntime/kuberuntime_manager.go GetPods, v1.29 line: the sandboxes and the
// containers the runtime lists, grouped by pod. The PLEG's relist calls it every second for every
// pod of the node, so what it derives from the runtime's frozen views is kept per view, and an
// unchanged listing gives back the same frozen pods (host work only: the CRI calls, their latency
// and the records are those of upstream's GetPods). A listing is known unchanged at once when the
// runtime's generation (a change count, not part of the CRI) is the one of the last listing.
import type { Proc } from "../../sim/index.ts";
import type { Container as CriContainer, PodSandbox } from "../../cri/api.ts";
import { CriError } from "../../cri/errors.ts";
import { getContainerInfoFromAnnotations, getContainerInfoFromLabels } from "./labels.ts";
import type { ManagerContext } from "./manager_context.ts";
import { getKubeletSandboxes } from "./kuberuntime_sandbox.ts";
import { SandboxToContainerState, type RuntimeContainer, type RuntimePod } from "./running_pod.ts";
import { toKubeContainerState } from "./pod_status.ts";

/**
 * GetPods returns a list of containers grouped by pods; `all` includes exited containers and
 * not-ready sandboxes. Ordered newest first by the creation time of their latest sandbox.
 * A pod whose listing did not change since the last call is the same (frozen) object as then:
 * see samePods.
 */
export function* GetPods(m: ManagerContext, all: boolean): Proc<RuntimePod[] | CriError> {
  const sandboxes = yield* getKubeletSandboxes(m, all);
  if (sandboxes instanceof CriError) return sandboxes;
  const sandboxesGeneration = m.runtimeService.generation;
  const containers = yield* m.runtimeService.ListContainers(all ? null : { state: "CONTAINER_RUNNING" });
  if (containers instanceof CriError) return containers;
  const memory = listingMemory(m, all);
  // Both listings taken at the generation of the last ones: the runtime did not change, nor did
  // what it lists (same filters), so neither did the result. Otherwise the runtime hands out the
  // same frozen views for unchanged records: the same views, the same result.
  const generation = sandboxesGeneration === m.runtimeService.generation ? sandboxesGeneration : undefined;
  const unchanged = generation !== undefined && generation === memory.generation;
  memory.generation = generation;
  if (unchanged || (sameFrozenItems(sandboxes, memory.sandboxes) && sameFrozenItems(containers, memory.containers))) return [...memory.sorted];
  const pods = new Map<string, RuntimePod>();
  const podOf = (uid: string, name: string, namespace: string): RuntimePod => {
    let p = pods.get(uid);
    if (p === undefined) pods.set(uid, (p = { id: uid, name, namespace, createdAtMs: 0, containers: [], sandboxes: [] }));
    return p;
  };
  for (const s of sandboxes) {
    const p = podOf(s.metadata.uid, s.metadata.name, s.metadata.namespace);
    p.sandboxes.push(runtimeSandboxOf(s, m.runtimeName));
    p.createdAtMs = s.createdAtMs;
  }
  for (const c of containers) {
    const { labeled: l, container } = runtimeContainerOf(c, m.runtimeName);
    podOf(l.PodUID, l.PodName, l.PodNamespace).containers.push(container);
  }
  const sorted = samePods(memory, [...pods.values()]).sort((a, b) => b.createdAtMs - a.createdAtMs);
  Object.assign(memory, { sandboxes, containers, sorted });
  return [...sorted];
}

/** What GetPods listed last time (of one manager, with one `all`), and what it returned. */
interface ListingMemory {
  sandboxes: readonly PodSandbox[];
  containers: readonly CriContainer[];
  byUID: Map<string, RuntimePod>;
  sorted: readonly RuntimePod[];
  /** The runtime's generation when both were listed; undefined when unknown or it changed in between. */
  generation: number | undefined;
}

function listingMemory(m: ManagerContext, all: boolean): ListingMemory {
  let byAll = lastListings.get(m);
  if (byAll === undefined) lastListings.set(m, (byAll = new Map()));
  let memory = byAll.get(all);
  if (memory === undefined) byAll.set(all, (memory = { sandboxes: [], containers: [], byUID: new Map(), sorted: [], generation: undefined }));
  return memory;
}

/**
 * The pods of this listing, each replaced by the pod of the previous listing when it is equal:
 * same fields and the same container and sandbox objects, which the view caches keep identical
 * while the runtime's records do not change. The PLEG's relist lists every pod every second, and
 * finds a pod unchanged at once when its old and current records are one object. The pods handed
 * out are frozen, so sharing them is safe.
 */
function samePods(memory: ListingMemory, pods: RuntimePod[]): RuntimePod[] {
  const next = new Map<string, RuntimePod>();
  const out = pods.map((p) => {
    const prev = memory.byUID.get(p.id);
    const pod = prev !== undefined && equalPods(prev, p) ? prev : freezePod(p);
    next.set(pod.id, pod);
    return pod;
  });
  memory.byUID = next;
  return out;
}

const lastListings = new WeakMap<ManagerContext, Map<boolean, ListingMemory>>();

function equalPods(a: RuntimePod, b: RuntimePod): boolean {
  return a.id === b.id && a.name === b.name && a.namespace === b.namespace && a.createdAtMs === b.createdAtMs &&
    sameItems(a.containers, b.containers) && sameItems(a.sandboxes, b.sandboxes);
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The same objects, each frozen (so unchanged since the last listing). */
function sameFrozenItems<T extends object>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] || !Object.isFrozen(a[i])) return false;
  return true;
}

function freezePod(p: RuntimePod): RuntimePod {
  Object.freeze(p.containers);
  Object.freeze(p.sandboxes);
  return Object.freeze(p);
}

/** A sandbox as GetPods lists it (a container by SandboxToContainerState), kept per frozen CRI view. */
function runtimeSandboxOf(s: PodSandbox, runtimeName: string): RuntimeContainer {
  const kept = Object.isFrozen(s) ? convertedSandboxes.get(s) : undefined;
  if (kept !== undefined && kept.id.type === runtimeName) return kept;
  const sandbox: RuntimeContainer = Object.freeze({
    id: Object.freeze({ type: runtimeName, id: s.id }), name: s.metadata.name, image: "", imageID: "", hash: 0, state: SandboxToContainerState(s.state),
  });
  if (Object.isFrozen(s)) convertedSandboxes.set(s, sandbox);
  return sandbox;
}

const convertedSandboxes = new WeakMap<PodSandbox, RuntimeContainer>();

interface ConvertedContainer {
  readonly runtimeName: string;
  readonly labeled: ReturnType<typeof getContainerInfoFromLabels>;
  readonly container: RuntimeContainer;
}

/**
 * The kubecontainer.Container of a CRI container and the pod it belongs to. The runtime hands out
 * the same frozen view until the container changes, so the conversion is kept per view (GetPods
 * converts every container of the node at every relist).
 */
function runtimeContainerOf(c: CriContainer, runtimeName: string): ConvertedContainer {
  const kept = Object.isFrozen(c) ? convertedContainers.get(c) : undefined;
  if (kept !== undefined && kept.runtimeName === runtimeName) return kept;
  const labeled = getContainerInfoFromLabels(c.labels);
  const a = getContainerInfoFromAnnotations(c.annotations);
  const container: RuntimeContainer = Object.freeze({
    id: Object.freeze({ type: runtimeName, id: c.id }), name: labeled.ContainerName, image: c.image.image, imageID: c.imageRef, hash: a.Hash, state: toKubeContainerState(c.state),
  });
  const converted = { runtimeName, labeled, container };
  if (Object.isFrozen(c)) convertedContainers.set(c, converted);
  return converted;
}

const convertedContainers = new WeakMap<CriContainer, ConvertedContainer>();
