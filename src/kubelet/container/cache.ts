// Models pkg/kubelet/container/cache.go (Cache: Get, Set, GetNewerThan, UpdateTime, Delete, subscribers and notify).
//
// Cache stores the PodStatus for the pods. All cache entries are at least as new or newer than the
// global timestamp (set by UpdateTime()), while individual entries may be slightly newer than the
// global timestamp. GetNewerThan blocks its caller: a subscriber record holds a channel of
// capacity 1 that notify fills and closes, exactly as upstream, so a blocked pod worker is a
// process parked on a kernel channel. Times are virtual ms; Go's `After` is strict (>) and
// notify's `!timestamp.Before(r.time)` is not (>=), and both are kept.
//
// With the EventedPLEG feature gate (1.26+), Set keeps an entry that is newer than the one offered
// and says whether it stored it: two PLEGs write the cache, and events may arrive out of order.
// Simplification: the RWMutex is not modelled, because every method runs between two yields of its caller and so
// is atomic in the kernel, as the lock makes it in Go.
import { recv, type Chan, type Proc, type Sim } from "../../sim/index.ts";
import type { GoError } from "../types.ts";
import type { PodStatus } from "./runtime.ts";

/** cache.go `data`: a pod's status, the error got when inspecting it, and when it was last modified. */
export interface CacheData {
  readonly status: PodStatus | null;
  readonly err: GoError;
  /** Absent on the default data of a cache miss (Go's zero time). */
  readonly modifiedMs?: number;
}

interface subRecord {
  readonly timeMs: number;
  readonly ch: Chan<CacheData>;
}

/** The trace component of every cache record. */
const COMPONENT = "cache";

export class Cache {
  private readonly pods = new Map<string, CacheData>();
  /** The global timestamp: null after initialization, until the first UpdateTime. */
  private timestampMs: number | null = null;
  private readonly subscribers = new Map<string, subRecord[]>();
  private subscriptions = 0;

  constructor(
    private readonly sim: Sim,
    /** The EventedPLEG feature gate: Set refuses data older than the entry it holds. */
    private readonly eventedPLEG = false,
  ) {}

  /** Each cached pod's modification time, by pod UID in order (play mode shows them). */
  modifiedTimes(): { uid: string; modifiedMs: number | null }[] {
    return sortedKeys(this.pods).map((uid) => ({ uid, modifiedMs: this.pods.get(uid)!.modifiedMs ?? null }));
  }

  /** The global timestamp (null until the first UpdateTime). */
  get globalTimestampMs(): number | null {
    return this.timestampMs;
  }

  /**
   * Get as the pod workers' PodCacheReader reads it: the status, or undefined when the cached entry
   * holds an inspection error (Go's `err != nil`). A cache miss is an empty PodStatus with the ID.
   */
  Get(id: string): PodStatus | undefined {
    const d = this.get(id);
    return d.err === null && d.status !== null ? d.status : undefined;
  }

  /** Get with both of Go's results: (status, err). */
  GetWithError(id: string): [PodStatus | null, GoError] {
    const d = this.get(id);
    return [d.status, d.err];
  }

  /** GetAll. Go ranges over a map; here the order is by UID, as no model depends on it. */
  GetAll(): (PodStatus | null)[] {
    return sortedKeys(this.pods).map((id) => this.pods.get(id)!.status);
  }

  /**
   * GetNewerThan as the PodCacheReader reads it: blocks the calling process until the entry was
   * modified after minTimeMs or the global timestamp is newer than minTimeMs. An entry holding an
   * error yields its status as stored (see GetNewerThanWithError for the error).
   */
  *GetNewerThan(id: string, minTimeMs: number): Proc<PodStatus> {
    const [status] = yield* this.GetNewerThanWithError(id, minTimeMs);
    return status ?? emptyPodStatus(id);
  }

  /** GetNewerThan with both of Go's results. */
  *GetNewerThanWithError(id: string, minTimeMs: number): Proc<[PodStatus | null, GoError]> {
    const sinceMs = this.sim.nowMs;
    const ch = this.subscribe(id, minTimeMs);
    const { value } = yield* recv(ch);
    const d = value!;
    const fields = podFields(d.status);
    fields.uid = id;
    fields.minTimeMs = minTimeMs;
    fields.statusTimeMs = d.modifiedMs ?? null;
    fields.globalTimeMs = this.timestampMs;
    fields.waitedMs = this.sim.nowMs - sinceMs;
    if (d.err !== null) fields.err = d.err.message;
    this.sim.emit(COMPONENT, "GetNewerThan", fields);
    return [d.status, d.err];
  }

  /**
   * Set sets the PodStatus for the pod only if the data is newer than the cache (with the
   * EventedPLEG gate; always without it), then notifies the pod's subscribers. Returns whether it
   * was stored.
   */
  Set(id: string, status: PodStatus | null, err: GoError, timestampMs: number): boolean {
    if (this.eventedPLEG) {
      // Set the value in the cache only if it's not present already or the timestamp in the
      // cache is older than the current update timestamp.
      const cached = this.pods.get(id);
      if (cached !== undefined && cached.modifiedMs! > timestampMs) {
        const fields = podFields(status);
        fields.uid = id;
        fields.timeMs = timestampMs;
        fields.cachedTimeMs = cached.modifiedMs;
        this.sim.emit(COMPONENT, "SetIgnored", fields);
        return false;
      }
    }
    this.pods.set(id, { status, err, modifiedMs: timestampMs });
    const fields = podFields(status);
    fields.uid = id;
    fields.timeMs = timestampMs;
    if (err !== null) fields.err = err.message;
    this.sim.emit(COMPONENT, "Set", fields);
    this.notify(id, timestampMs);
    return true;
  }

  /** Delete removes the entry of the pod. Subscribers are not notified (nor are they upstream). */
  Delete(id: string): void {
    this.pods.delete(id);
    this.sim.emit(COMPONENT, "Delete", { uid: id });
  }

  /**
   * UpdateTime modifies the global timestamp of the cache and notifies subscribers if needed.
   * Go ranges over the subscribers map: the order in which waiting workers are woken is a recorded
   * choice (sim.mapOrder).
   */
  UpdateTime(timestampMs: number): void {
    this.timestampMs = timestampMs;
    this.sim.emit(COMPONENT, "UpdateTime", { timeMs: timestampMs });
    for (const id of this.sim.mapOrder(sortedKeys(this.subscribers))) this.notify(id, timestampMs);
  }

  /** The number of processes blocked in GetNewerThan (for checks and tests). */
  get subscriberCount(): number {
    let n = 0;
    for (const list of this.subscribers.values()) n += list.length;
    return n;
  }

  private get(id: string): CacheData {
    // A cache miss means there are no visible pod/containers of this pod: an empty PodStatus.
    return this.pods.get(id) ?? { status: emptyPodStatus(id), err: null };
  }

  /** getIfNewerThan returns the data if it is newer than minTimeMs, otherwise undefined. */
  private getIfNewerThan(id: string, minTimeMs: number): CacheData | undefined {
    const d = this.pods.get(id);
    const globalTimestampIsNewer = this.timestampMs !== null && this.timestampMs > minTimeMs;
    if (d === undefined && globalTimestampIsNewer) {
      // Status is not cached, but the global timestamp is newer than minTime: the default status.
      return this.get(id);
    }
    if (d !== undefined && (d.modifiedMs! > minTimeMs || globalTimestampIsNewer)) return d;
    return undefined; // The pod status is not ready.
  }

  /** notify sends to every subscriber of the pod whose time requirement timestampMs meets. */
  private notify(id: string, timestampMs: number): void {
    const list = this.subscribers.get(id);
    if (list === undefined) return; // No one to notify.
    const newList: subRecord[] = [];
    for (const r of list) {
      if (timestampMs < r.timeMs) {
        newList.push(r); // Doesn't meet the time requirement; keep the record.
        continue;
      }
      r.ch.trySend(this.get(id));
      r.ch.close();
    }
    if (newList.length === 0) this.subscribers.delete(id);
    else this.subscribers.set(id, newList);
  }

  private subscribe(id: string, timestampMs: number): Chan<CacheData> {
    const ch = this.sim.chan<CacheData>(`cache/sub/${id}#${++this.subscriptions}`, 1);
    const d = this.getIfNewerThan(id, timestampMs);
    if (d !== undefined) {
      // If the cache entry is ready, send the data and return immediately.
      ch.trySend(d);
      return ch;
    }
    const list = this.subscribers.get(id);
    if (list === undefined) this.subscribers.set(id, [{ timeMs: timestampMs, ch }]);
    else list.push({ timeMs: timestampMs, ch });
    return ch;
  }
}

/** makeDefaultData's status: &PodStatus{ID: id}. */
export function emptyPodStatus(id: string): PodStatus {
  return { id, name: "", namespace: "", ips: [], containerStatuses: [], sandboxStatuses: [] };
}

function sortedKeys<V>(m: ReadonlyMap<string, V>): string[] {
  return [...m.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A record's fields, starting with the trace's `pod` field ("ns/name") when the status names its
 * pod, for the caller to add the rest to in order. Not
 * `{ ...podField(s), uid, ... }`: on Node 20's V8 a literal that spreads a fresh (unfrozen) object
 * and then adds a property of its own costs about 1 µs (the hot records' fields were 1.9% of an
 * explore run by line ticks); properties added one by one to a literal cost tens of ns.
 */
function podFields(status: PodStatus | null): Record<string, unknown> {
  if (status === null || status.name === "") return {};
  return { pod: status.namespace === "" ? status.name : `${status.namespace}/${status.name}` };
}
