// Models staging/src/k8s.io/client-go/tools/cache/reflector.go (Run, ListAndWatch, list, watch, watchHandler).
//
// The list-then-watch loop the kubelet's apiserver source runs, with its relist backoff. Run is
// wait.BackoffUntil(ListAndWatch, backoffManager, sliding=true): after every ListAndWatch return,
// whether it failed or a watch ended with an error (410 Expired, a refused connection), the
// reflector sleeps the next backoff and lists again.
// Simplifications: no pagination, no resync (the kubelet's resyncPeriod is 0), no watch-list
// streaming, no bookmarks, no retry of internal errors, no "too large resource version".
import { recv, sleep, type Proc, type Rng, type Sim } from "../../sim/index.ts";
import type { ApiResult, ListOptions, PodList, PodsClient, WatchInterface } from "../../apiserver/client.ts";
import { isConnectionRefused, isExpiredError, isNotFound, type StatusError } from "../../apiserver/errors.ts";
import type { UndeltaStore } from "./undelta_store.ts";
import { ExponentialBackoffManager, REFLECTOR_BACKOFF, type BackoffParams } from "./wait_backoff.ts";

/** cache.ListerWatcher */
export interface ListerWatcher {
  List(opts: ListOptions): Proc<ApiResult<PodList>>;
  Watch(opts: ListOptions): Proc<ApiResult<WatchInterface>>;
}

/** cache.NewListWatchFromClient(c, "pods", NamespaceAll, OneTermEqualSelector("spec.nodeName", node)). */
export function NewListWatchFromClient(client: PodsClient, nodeName: string): ListerWatcher {
  return {
    List: (opts) => client.listPods(withNodeName(opts, nodeName)),
    Watch: (opts) => client.watchPods(withNodeName(opts, nodeName)),
  };
}

/**
 * `{ ...opts, nodeName }` (the field selector), copied by Object.assign: on Node 20 a spread copy of
 * an object that is not frozen gets a new hidden class when it grows, so the apiserver's readers of
 * the options met a new class each call (`node --log-ic`; docs/BENCHMARKS-history.md, "Object shapes on the
 * hot path"). The options are the reflector's own literals (no "__proto__" key).
 */
function withNodeName(opts: ListOptions, nodeName: string): ListOptions {
  const o: ListOptions = Object.assign({}, opts);
  o.nodeName = nodeName;
  return o;
}

/** minWatchTimeout: watch timeouts are random in [5 min, 10 min). */
export const MIN_WATCH_TIMEOUT_MS = 5 * 60_000;

export interface ReflectorOptions {
  readonly name: string;
  readonly backoff?: BackoffParams;
}

export class Reflector {
  private lastSyncResourceVersion = "";
  private isLastSyncResourceVersionUnavailable = false;
  private readonly backoffManager: ExponentialBackoffManager;
  private readonly rng: Rng;

  constructor(
    private readonly sim: Sim,
    private readonly listerWatcher: ListerWatcher,
    private readonly store: UndeltaStore,
    readonly opts: ReflectorOptions,
  ) {
    this.rng = sim.rng(`reflector/${opts.name}`);
    this.backoffManager = new ExponentialBackoffManager(opts.backoff ?? REFLECTOR_BACKOFF, () => sim.nowMs, this.rng);
  }

  LastSyncResourceVersion(): string {
    return this.lastSyncResourceVersion;
  }

  /** Run: wait.BackoffUntil(ListAndWatch, backoffManager, sliding=true, NeverStop). */
  *Run(): Proc<void> {
    for (;;) {
      const err = yield* this.ListAndWatch();
      if (err !== null) this.emit("WatchError", { error: err.message });
      yield* this.backoff();
    }
  }

  /** ListAndWatch: list, then watch until a watch ends with an error. Returns an error only if the list failed. */
  *ListAndWatch(): Proc<Error | null> {
    const err = yield* this.list();
    if (err !== null) return err;
    return yield* this.watch();
  }

  private *backoff(): Proc<void> {
    const delayMs = this.backoffManager.next();
    this.emit("Backoff", { delayMs });
    yield* sleep(delayMs, `reflector ${this.opts.name} backoff`);
  }

  private *list(): Proc<Error | null> {
    const requested = this.relistResourceVersion();
    let r = yield* this.listerWatcher.List({ resourceVersion: requested });
    if (isExpiredError(r.err)) {
      this.isLastSyncResourceVersionUnavailable = true;
      // Retry immediately if the resource version used to list is unavailable.
      r = yield* this.listerWatcher.List({ resourceVersion: this.relistResourceVersion() });
    }
    if (r.err !== null) {
      // An emergency sync with an empty list unblocks waiters when the resource does not exist.
      if (isNotFound(r.err)) yield* this.store.Replace([], "");
      this.emit("ListFailed", { requested, error: r.err.message });
      return new Error(`failed to list *v1.Pod: ${r.err.message}`);
    }
    this.isLastSyncResourceVersionUnavailable = false; // list was successful
    const { resourceVersion, items } = r.value;
    this.emit("Listed", { requested, resourceVersion, count: items.length });
    yield* this.store.Replace(items, resourceVersion); // syncWith
    this.lastSyncResourceVersion = resourceVersion;
    return null;
  }

  /** watch: rewatch from the last seen resourceVersion until a watch ends with an error. */
  private *watch(): Proc<Error | null> {
    for (;;) {
      const startMs = this.sim.nowMs;
      const timeoutSeconds = Math.floor((MIN_WATCH_TIMEOUT_MS + this.rng.below(MIN_WATCH_TIMEOUT_MS)) / 1000);
      const r = yield* this.listerWatcher.Watch({ resourceVersion: this.lastSyncResourceVersion, timeoutSeconds });
      if (r.err !== null) {
        if (isWatchErrorRetriable(r.err)) {
          this.emit("WatchRetry", { error: r.err.message });
          yield* this.backoff();
          continue;
        }
        return r.err;
      }
      const err = yield* this.watchHandler(startMs, r.value);
      r.value.stop(); // ensure that the watch is not reused across iterations
      if (err !== null) {
        this.emit("WatchEnded", { error: err.message, expired: isExpiredError(err as StatusError) });
        return null;
      }
    }
  }

  /** watchHandler: apply events to the store until the stream closes or sends an ERROR. */
  private *watchHandler(startMs: number, w: WatchInterface): Proc<Error | null> {
    let eventCount = 0;
    for (;;) {
      const { value: event, ok } = yield* recv(w.resultChan);
      if (!ok || event === undefined) break;
      if (event.type === "ERROR") return event.status ?? new Error("watch error");
      const obj = event.object;
      if (obj === null) continue;
      if (event.type === "ADDED") yield* this.store.Add(obj);
      else if (event.type === "MODIFIED") yield* this.store.Update(obj);
      else if (event.type === "DELETED") yield* this.store.Delete(obj);
      this.lastSyncResourceVersion = obj.metadata.resourceVersion ?? this.lastSyncResourceVersion;
      eventCount++;
    }
    if (this.sim.nowMs - startMs < 1000 && eventCount === 0) {
      return new Error(`very short watch: ${this.opts.name}: Unexpected watch close - watch lasted less than a second and no items received`);
    }
    this.emit("WatchClosed", { events: eventCount });
    return null;
  }

  /**
   * relistResourceVersion: "" after a 410 (a consistent read), "0" for the very first list (any
   * version, from the watch cache), else the last version seen.
   */
  private relistResourceVersion(): string {
    if (this.isLastSyncResourceVersionUnavailable) return "";
    if (this.lastSyncResourceVersion === "") return "0";
    return this.lastSyncResourceVersion;
  }

  private emit(kind: string, fields: Record<string, unknown>): void {
    this.sim.emit("reflector", kind, { name: this.opts.name, ...fields });
  }
}

/** isWatchErrorRetriable: connection refused (or 429) means back off and re-watch, not relist. */
export function isWatchErrorRetriable(err: StatusError): boolean {
  return isConnectionRefused(err) || err.code === 429;
}
