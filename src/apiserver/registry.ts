// Models pkg/registry/core/pod/storage/storage.go on the generic store (registry/generic/registry/store.go).
//
// The server side of every pods verb, applied at one instant: no virtual time passes in here (the
// network around it is apiserver.ts). Each method reads the immutable store, decides with the
// strategies, builds the next object by copy-on-write edits (objects.ts), writes through
// store.writePod and fans the event out to the open watches.
import { cloneJSON, jsonEqual } from "../k8s/json.ts";
import type { StoredEvent } from "./store.ts";
import type { Sim } from "../sim/index.ts";
import type { Pod, PodStatus } from "../k8s/pod.ts";
import type { ApiResult, DeleteOptions, DeleteResult, ListOptions, PodList } from "./client.ts";
import { OBJECT_MODIFIED, newAlreadyExists, newBadRequest, newConflict, newNotFound, newResourceExpired } from "./errors.ts";
import {
  prepareForCreate, prepareForStatusUpdate, prepareForUpdate,
  validateCreate, validateStatusUpdate, validateUpdate,
} from "./strategy.ts";
import { beforeDelete } from "./delete.ts";
import { applyStatusDiff } from "./status_patch.ts";
import { Edit } from "./objects.ts";
import { compact, emptyStore, eventsSince, listPods, writePod, type StoreState } from "./store.ts";
import { Watcher, type WatcherOptions } from "./watch.ts";
import { DEFAULT_NAMESPACE } from "../k8s/defaults.ts";
import { formatRFC3339 } from "./time.ts";

export interface RegistryOptions {
  watchWindow: number;
  watchBuffer: number;
  watchDelayMs: () => number;
  newUID: () => string;
  /**
   * Told synchronously of every stored write, after it is applied: for checkers and the pod views
   * of the report, which must see each state without a watch's delay or its scheduling points.
   */
  onWrite?: (event: StoredEvent) => void;
  /**
   * Pods ("namespace/name") whose creates and updates skip validation: a scenario's
   * `skipApiValidation`, to study a pod that only a bug could store. Simulator-only.
   */
  skipValidation?: ReadonlySet<string>;
}

/** The storage key of a pod: "namespace/name" (registry/generic NamespaceKeyFunc, without the prefix). */
export function storageKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

const ok = <T>(value: T): ApiResult<T> => ({ value, err: null });

export class PodRegistry {
  private state: StoreState = emptyStore();
  private readonly watchers: Watcher[] = [];
  private nextWatchId = 1;

  constructor(
    private readonly sim: Sim,
    private readonly opts: RegistryOptions,
  ) {}

  /** The current store value (immutable): for checkers and tests. */
  get snapshot(): StoreState {
    return this.state;
  }

  /** A write of another kind (a Node, a Lease) takes the next revision of etcd's one counter. */
  bumpRevision(): number {
    const rv = this.state.resourceVersion + 1;
    // A shallow copy: the pod table is updated in place (store.ts) and must stay extensible.
    this.state = Object.freeze({ ...this.state, resourceVersion: rv });
    return rv;
  }

  create(input: Pod): ApiResult<Pod> {
    const key = storageKey(input.metadata.namespace || DEFAULT_NAMESPACE, input.metadata.name);
    const invalid = this.skipsValidation(key) ? null : validateCreate(input);
    if (invalid !== null) return { value: null, err: invalid };
    if (this.state.pods[key] !== undefined) return { value: null, err: newAlreadyExists(input.metadata.name) };
    return ok(this.write(key, prepareForCreate(input, this.opts.newUID(), this.sim.nowMs)));
  }

  get(namespace: string, name: string): ApiResult<Pod> {
    const pod = this.state.pods[storageKey(namespace, name)];
    return pod === undefined ? { value: null, err: newNotFound(name) } : ok(pod);
  }

  /** Simplification: a list is always served at the latest revision, whatever resourceVersion asks. */
  list(opts: ListOptions): ApiResult<PodList> {
    return ok({ resourceVersion: String(this.state.resourceVersion), items: listPods(this.state, opts.nodeName) });
  }

  /**
   * A watch from resourceVersion "" or "0" starts with a synthetic ADDED per existing object; from
   * a number it replays the window after it, or fails with 410 Expired when that is gone.
   */
  watch(opts: ListOptions, actor: string): ApiResult<Watcher> {
    const rvText = opts.resourceVersion ?? "";
    const fromRv = rvText === "" || rvText === "0" ? null : Number(rvText);
    if (fromRv !== null && !Number.isInteger(fromRv)) return { value: null, err: newBadRequest(`invalid resource version: ${rvText}`) };
    const w = this.newWatcher(opts, actor);
    if (fromRv === null) {
      for (const pod of listPods(this.state, opts.nodeName)) w.enqueue({ type: "ADDED", object: pod, status: null });
      return ok(w);
    }
    const events = eventsSince(this.state, fromRv);
    if (events === null) {
      w.fail(newResourceExpired(`too old resource version: ${fromRv} (${this.state.oldestWatchableRv})`));
    } else {
      for (const e of events) w.offerStored(e);
    }
    return ok(w);
  }

  update(pod: Pod): ApiResult<Pod> {
    const key = storageKey(pod.metadata.namespace || DEFAULT_NAMESPACE, pod.metadata.name);
    const old = this.state.pods[key];
    if (old === undefined) return { value: null, err: newNotFound(pod.metadata.name) };
    const rv = pod.metadata.resourceVersion;
    if (rv !== undefined && rv !== "" && rv !== old.metadata.resourceVersion) {
      return { value: null, err: newConflict("pods", pod.metadata.name, OBJECT_MODIFIED) };
    }
    const edit = new Edit(pod);
    const meta = new Edit(pod.metadata);
    // doUnconditionalUpdate: an update without a resourceVersion takes the stored one.
    if (!meta.get("resourceVersion")) meta.set("resourceVersion", old.metadata.resourceVersion);
    prepareForUpdate(edit, meta, old);
    const next = edit.set("metadata", meta.result()).result();
    const invalid = this.skipsValidation(key) ? null : validateUpdate(next, old);
    if (invalid !== null) return { value: null, err: invalid };
    return ok(this.writeUnlessUnchanged(key, next, old));
  }

  /**
   * PATCH pods/status with the uid in the patch (statusutil.PatchPodStatus). With `base`, the patch
   * is the two-way diff from base to status, applied to whatever object holds the name now.
   */
  patchStatus(namespace: string, name: string, status: PodStatus, uid: string | undefined, base?: PodStatus): ApiResult<Pod> {
    const key = storageKey(namespace, name);
    const old = this.state.pods[key];
    if (old === undefined) return { value: null, err: newNotFound(name) };
    const edit = new Edit(old);
    const meta = new Edit(old.metadata);
    if (uid !== undefined) meta.set("uid", uid);
    // A copy, as the apiserver decodes its own from the request. (Sharing the caller's frozen
    // status was measured slower: the stored objects then come in the status manager's shapes,
    // and the kubelet's readers of them turn polymorphic.)
    edit.set("status", base === undefined ? cloneJSON(status) : applyStatusDiff(old.status ?? {}, base, status));
    prepareForStatusUpdate(edit, meta, old);
    const next = edit.set("metadata", meta.result()).result();
    const invalid = validateStatusUpdate(next, old);
    if (invalid !== null) return { value: null, err: invalid };
    return ok(this.writeUnlessUnchanged(key, next, old));
  }

  /**
   * POST pods/<name>/binding (BindingREST.Create, assignPod, setPodNodeName): a pod being deleted
   * or already bound cannot be bound; otherwise spec.nodeName is set and the PodScheduled condition
   * turns True. `uid` is the binding's precondition (the scheduler's pod), as upstream checks it.
   */
  bind(namespace: string, name: string, nodeName: string, uid: string | undefined): ApiResult<Pod> {
    const key = storageKey(namespace, name);
    const old = this.state.pods[key];
    if (old === undefined) return { value: null, err: newNotFound(name) };
    if (uid !== undefined && uid !== old.metadata.uid) {
      return { value: null, err: newConflict("pods", name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${old.metadata.uid ?? ""}`) };
    }
    if (old.metadata.deletionTimestamp) return { value: null, err: newConflict("pods", name, `pod ${name} is being deleted, cannot be assigned to a host`) };
    if ((old.spec.nodeName ?? "") !== "") return { value: null, err: newConflict("pods", name, `pod ${name} is already assigned to node "${old.spec.nodeName}"`) };
    const status = old.status ?? {};
    const conditions = (status.conditions ?? []).filter((c) => c.type !== "PodScheduled");
    const scheduled = { type: "PodScheduled", status: "True", lastProbeTime: null, lastTransitionTime: formatRFC3339(this.sim.nowMs) };
    const next = new Edit(old)
      .set("spec", new Edit(old.spec).set("nodeName", nodeName).result())
      .set("status", { ...status, conditions: [...conditions, scheduled] } as PodStatus)
      .result();
    return ok(this.write(key, next));
  }

  /** The generic store's Delete: BeforeDelete, the graceful update, then removal when grace is 0. */
  delete(namespace: string, name: string, options: DeleteOptions): ApiResult<DeleteResult> {
    const key = storageKey(namespace, name);
    const old = this.state.pods[key];
    if (old === undefined) return { value: null, err: newNotFound(name) };
    const d = beforeDelete(old, options, this.sim.nowMs);
    switch (d.kind) {
      case "error":
        return { value: null, err: d.err };
      case "pending":
        return ok({ pod: old, deleted: false });
      case "now":
        return ok({ pod: this.write(key, null), deleted: true });
      case "graceful": {
        const meta = new Edit(old.metadata)
          .set("deletionTimestamp", d.deletionTimestamp)
          .set("deletionGracePeriodSeconds", d.deletionGracePeriodSeconds);
        const marked = this.write(key, new Edit(old).set("metadata", meta.result()).result());
        if (!d.deleteNow) return ok({ pod: marked, deleted: false });
        return ok({ pod: this.write(key, null), deleted: true });
      }
    }
  }

  // ---- faults a scenario injects --------------------------------------------------------------

  /** Closes the open watches (of one actor, or all): a dropped connection. */
  dropWatches(actor?: string): number {
    return this.eachWatcher(actor, (w) => w.terminate("connection dropped"));
  }

  /**
   * Adds extraMs to the delivery of every later event on the open watches (of one actor, or all);
   * 0 restores the normal delay. Events already queued keep their time, and order is kept.
   */
  delayWatches(extraMs: number, actor?: string): number {
    if (!Number.isInteger(extraMs) || extraMs < 0) throw new RangeError(`delayWatches: bad delay ${extraMs}`);
    return this.eachWatcher(actor, (w) => { w.extraDelayMs = extraMs; });
  }

  /** Sends 410 Expired on the open watches and forgets the history, as an etcd compaction does. */
  expireWatches(actor?: string): number {
    this.state = compact(this.state);
    const status = newResourceExpired(`The resourceVersion for the provided watch is too old.`);
    return this.eachWatcher(actor, (w) => w.fail(status));
  }

  /** Forgets the event history only: the next watch from an older resourceVersion gets 410. */
  compact(): void {
    this.state = compact(this.state);
  }

  // ---- internals -----------------------------------------------------------------------------

  /** Whether this pod's creates and updates skip validation (see RegistryOptions.skipValidation). */
  skipsValidation(key: string): boolean {
    return this.opts.skipValidation?.has(key) ?? false;
  }

  private newWatcher(opts: ListOptions, actor: string): Watcher {
    const wo: WatcherOptions = {
      id: this.nextWatchId++,
      actor,
      nodeName: opts.nodeName,
      bufferSize: this.opts.watchBuffer,
      timeoutMs: opts.timeoutSeconds === undefined ? null : opts.timeoutSeconds * 1000,
      delayMs: this.opts.watchDelayMs,
    };
    const w = new Watcher(this.sim, wo);
    this.watchers.push(w);
    return w;
  }

  private eachWatcher(actor: string | undefined, f: (w: Watcher) => void): number {
    let n = 0;
    for (const w of this.watchers) {
      if (!w.open || (actor !== undefined && w.opts.actor !== actor)) continue;
      f(w);
      n++;
    }
    this.pruneWatchers();
    return n;
  }

  /** etcd3's GuaranteedUpdate skips a write whose bytes would not change: no new revision. */
  private writeUnlessUnchanged(key: string, next: Pod, old: Pod): Pod {
    const strip = (p: Pod) => ({ ...p, metadata: { ...p.metadata, resourceVersion: undefined } });
    if (jsonEqual(strip(next), strip(old))) return old;
    return this.write(key, next);
  }

  private write(key: string, next: Pod | null): Pod {
    const [state, event] = writePod(this.state, key, next, this.opts.watchWindow);
    this.state = state;
    this.pruneWatchers();
    for (const w of this.watchers) w.offerStored(event);
    this.opts.onWrite?.(event);
    return event.object;
  }

  private pruneWatchers(): void {
    for (let i = this.watchers.length - 1; i >= 0; i--) if (!this.watchers[i]!.open) this.watchers.splice(i, 1);
  }
}
