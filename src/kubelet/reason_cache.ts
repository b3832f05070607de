// Models pkg/kubelet/reason_cache.go (ReasonCache: the failure reason of each container's latest start, in an LRU of 1000).
//
// ReasonCache stores the failure reason of the latest container start, keyed by
// <pod_UID>_<container_name>, to propagate it to the container status as a Waiting reason
// (CrashLoopBackOff, ImagePullBackOff, ErrImagePull, ...). This is "best-effort": the cache is not
// persisted (a kubelet restart empties it), and its LRU may recycle entries before a pod is deleted.
// The groupcache LRU is a Map in recency order here: Get and Add move an entry to the newest end.
import type { SyncResult } from "./kuberuntime/sync_result.ts";

/** What Update reads of a kubecontainer.PodSyncResult (kuberuntime's PodSyncResult is one). */
export interface PodSyncResultView {
  readonly SyncResults: readonly Pick<SyncResult, "Action" | "Target" | "Error" | "Message">[];
}

/** reasonItem: the error (as its Error() text, which is what the status shows) and its message. */
export interface reasonItem {
  readonly Err: string;
  readonly Message: string;
}

/**
 * maxReasonCacheEntries is the cache entry number in lru cache. 1000 is a proper number for our
 * 100 pods per node target.
 */
export const maxReasonCacheEntries = 1000;

export class ReasonCache {
  private readonly cache = new Map<string, reasonItem>();
  private changes = 0;

  /**
   * Not upstream: how many changes the cache has had, its recency order included (every add, every
   * removal of an entry, every Get that found one). Equal numbers, the same cache: a host-side
   * cache of what was derived from it (kubelet_sync.ts's status reuse) compares them.
   */
  get generation(): number {
    return this.changes;
  }

  constructor(private readonly maxEntries = maxReasonCacheEntries) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`ReasonCache: bad size ${maxEntries}`);
  }

  private composeKey(uid: string, name: string): string {
    return `${uid}_${name}`;
  }

  /** add adds error reason into the cache, evicting the least recently used entry past the limit. */
  private add(uid: string, name: string, reason: string, message: string): void {
    const key = this.composeKey(uid, name);
    this.changes++;
    this.cache.delete(key);
    this.cache.set(key, { Err: reason, Message: message });
    if (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
  }

  /**
   * Update updates the reason cache with the SyncPodResult. Only SyncResult with StartContainer
   * action will change the cache: a failure records its reason, a success removes it.
   */
  Update(uid: string, result: PodSyncResultView): void {
    for (const r of result.SyncResults) {
      if (r.Action !== "StartContainer") continue;
      const name = r.Target;
      if (r.Error !== null) this.add(uid, name, r.Error, r.Message);
      else this.Remove(uid, name);
    }
  }

  /** Remove removes error reason from the cache. */
  Remove(uid: string, name: string): void {
    if (this.cache.delete(this.composeKey(uid, name))) this.changes++;
  }

  /** Get gets error reason from the cache (and marks it recently used), or undefined. */
  Get(uid: string, name: string): reasonItem | undefined {
    const key = this.composeKey(uid, name);
    const item = this.cache.get(key);
    if (item === undefined) return undefined;
    this.changes++;
    this.cache.delete(key);
    this.cache.set(key, item);
    return item;
  }

  /** The number of entries (lru.Cache.Len). */
  get size(): number {
    return this.cache.size;
  }
}
