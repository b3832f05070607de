// The machinery every workload controller here shares, each upstream controller's own in small:
// a pod informer (client-go's reflector and indexer: a watch of every pod, the cache cleared and
// re-listed when the watch closes) whose events go to the controller's handler, and a workqueue of
// object keys drained by one worker (upstream runs several workers: one here, simplified), plus
// the owner lookup (metav1.GetControllerOf, checked against the owner's UID as
// resolveControllerRef does) and the expectations' observed add and delete
// (controller_utils.go ControllerExpectations, fed by addPod, updatePod and deletePod).
import { recv, sleep, type Chan, type Proc, type Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { podKey } from "../k8s/podutil.ts";
import type { PodsClient, WatchEvent } from "../apiserver/index.ts";
import { isPodActive } from "./controller_utils.ts";

/** What a controller does with the loop: react to a pod event (the cache already updated), and sync one key. */
export interface ControllerHandlers {
  observe(e: WatchEvent, pod: Pod, before: Pod | undefined): void;
  sync(key: string): Proc<void>;
}

/** The pods one controller reference owns in the cache, in the cache's order, and how many are active (IsPodActive). */
export interface OwnedPods {
  readonly pods: Map<string, Pod>;
  active: number;
}

const NO_PODS: OwnedPods = Object.freeze({ pods: new Map<string, Pod>(), active: 0 });

export class ControllerLoop {
  /** The informer's cache, by pod key. */
  readonly pods = new Map<string, Pod>();
  /**
   * The cache indexed by controller reference (controller.PodControllerUIDIndex, which the
   * ReplicaSet controller lists its pods by since 1.27), with the count of active pods kept as pods
   * come and go, so that a sync that has nothing to do reads no pod list.
   */
  private readonly byController = new Map<string, OwnedPods>();
  private readonly queue: string[] = [];
  private readonly wake: Chan<null>;
  /** The delaying queue's waiting keys (workqueue AddAfter): each key's earliest ready time. */
  private readonly waiting = new Map<string, number>();

  /** `name`: the controller's goroutines are `<name>/informer` and `<name>/worker`, its queue `<name>/queue`. */
  constructor(private readonly sim: Sim, private readonly client: PodsClient, private readonly name: string, private readonly handlers: ControllerHandlers) {
    this.wake = sim.chan<null>(`${name}/queue`, 1);
  }

  start(): void {
    this.sim.go(`${this.name}/informer`, () => this.informer(), { daemon: true });
    this.sim.go(`${this.name}/worker`, () => this.worker(), { daemon: true });
  }

  /** workqueue.Add: a key already waiting (dirty) is neither added twice nor signalled again. */
  enqueue(key: string): void {
    if (this.queue.includes(key)) return;
    this.queue.push(key);
    this.wake.trySend(null);
  }

  /**
   * workqueue.AddAfter: the key is added once `delayMs` has passed; a key already waiting keeps the
   * earlier of its two ready times, as the delaying queue's waitingForQueue does.
   */
  enqueueAfter(key: string, delayMs: number): void {
    if (delayMs <= 0) return this.enqueue(key);
    const readyMs = this.sim.nowMs + delayMs;
    const waitingMs = this.waiting.get(key);
    if (waitingMs !== undefined && waitingMs <= readyMs) return;
    this.waiting.set(key, readyMs);
    const loop = this;
    this.sim.go(`${this.name}/requeue`, function* () {
      yield* sleep(delayMs, `${loop.name} requeue after`);
      // A key moved earlier by a later AddAfter was added by that one's goroutine.
      if (loop.waiting.get(key) !== readyMs) return;
      loop.waiting.delete(key);
      loop.enqueue(key);
    }, { daemon: true });
  }

  private *informer(): Proc<void> {
    // Bounded by the run: a closed watch is re-opened (the reflector re-lists).
    for (;;) {
      const w = yield* this.client.watchPods({});
      if (w.err === null) {
        this.pods.clear();
        this.byController.clear();
        for (;;) {
          const { value, ok } = yield* recv(w.value.resultChan);
          if (!ok) break;
          this.observe(value!);
        }
      }
      yield* sleep(1_000, `${this.name} informer backoff`);
    }
  }

  private observe(e: WatchEvent): void {
    const pod = e.object;
    if (pod === null) return;
    const key = podKey(pod);
    const before = this.pods.get(key);
    if (before !== undefined) this.unindex(key, before, e.type === "DELETED" || controllerRefKey(pod) !== controllerRefKey(before));
    if (e.type === "DELETED") this.pods.delete(key);
    else {
      this.pods.set(key, pod);
      this.index(key, pod);
    }
    this.handlers.observe(e, pod, before);
  }

  /** The pods the controller reference (kind, namespace, name, uid) owns: read, do not change. */
  owned(kind: string, namespace: string, name: string, uid: string): OwnedPods {
    return this.byController.get(`${kind}/${namespace}/${name}/${uid}`) ?? NO_PODS;
  }

  private index(key: string, pod: Pod): void {
    const ref = controllerRefKey(pod);
    if (ref === null) return;
    let owned = this.byController.get(ref);
    if (owned === undefined) {
      owned = { pods: new Map(), active: 0 };
      this.byController.set(ref, owned);
    }
    owned.pods.set(key, pod);
    if (isPodActive(pod)) owned.active++;
  }

  /** Takes the pod's old state out of the index: out of its owner's map only when it leaves it (a set keeps its place). */
  private unindex(key: string, before: Pod, leaves: boolean): void {
    const ref = controllerRefKey(before);
    const owned = ref === null ? undefined : this.byController.get(ref);
    if (owned === undefined) return;
    if (isPodActive(before)) owned.active--;
    if (leaves) owned.pods.delete(key);
  }

  private *worker(): Proc<void> {
    for (;;) {
      if (this.queue.length === 0) yield* recv(this.wake);
      const key = this.queue.shift();
      if (key !== undefined) yield* this.handlers.sync(key);
    }
  }
}

/** The index key of the pod's controller reference (kind/namespace/name/uid), or null without one. */
function controllerRefKey(pod: Pod): string | null {
  const ref = pod.metadata.ownerReferences?.find((r) => r.controller === true);
  return ref === undefined ? null : `${ref.kind}/${pod.metadata.namespace ?? "default"}/${ref.name}/${ref.uid}`;
}

/** The key of the pod's controller when it is a `kind` whose UID (`uidOf(key)`) matches the reference's; else undefined. */
export function controllerKey(pod: Pod, kind: string, uidOf: (key: string) => string | undefined): string | undefined {
  const ref = pod.metadata.ownerReferences?.find((r) => r.controller === true);
  if (ref === undefined || ref.kind !== kind) return undefined;
  const key = `${pod.metadata.namespace ?? "default"}/${ref.name}`;
  return uidOf(key) === ref.uid ? key : undefined;
}

/**
 * Which expectation an event meets: "add" for a pod first seen, "del" for a pod gone or newly
 * being deleted (updatePod counts a DeletionTimestamp set as the deletion), else null.
 */
export function observedExpectation(e: WatchEvent, pod: Pod, before: Pod | undefined): "add" | "del" | null {
  if (e.type === "ADDED" && before === undefined) return "add";
  if ((e.type === "DELETED" && !before?.metadata.deletionTimestamp) || (e.type === "MODIFIED" && pod.metadata.deletionTimestamp && !before?.metadata.deletionTimestamp)) return "del";
  return null;
}
