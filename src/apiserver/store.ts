// Models the etcd3 storage and the watch cache's event window (apiserver/pkg/storage/etcd3, cacher/watch_cache.go).
//
// The store is a frozen state value, replaced on every write. Every pod in it is deep-frozen and
// made by copy-on-write edits (objects.ts) that share every unchanged subtree, so the objects
// handed to clients and watchers are the stored ones and a model that mutates one throws a
// TypeError at once. The table of pods itself is the one exception: it is updated in place, as a
// copy of it per write costs O(pods) (a cluster's 11,000 pods made every status patch copy 11,000
// entries); nobody keeps an older state to read its pods. resourceVersion is a global counter (etcd's
// revision): every write bumps it, and the object written carries it in metadata.resourceVersion.
import type { Pod } from "../k8s/pod.ts";
import { podKey } from "../k8s/podutil.ts";
import { Edit } from "./objects.ts";

/** The event types the watch cache records (watch.Added, Modified, Deleted). */
export type StoredEventType = "ADDED" | "MODIFIED" | "DELETED";

/** One write, as the watch cache keeps it: the new object and the one it replaced. */
export interface StoredEvent {
  readonly type: StoredEventType;
  readonly resourceVersion: number;
  readonly object: Pod;
  readonly prevObject: Pod | null;
}

export interface StoreState {
  /** The current revision: the resourceVersion of the last write (etcd starts at 1). */
  readonly resourceVersion: number;
  /** Pods by "namespace/name" (the storage key), each deep-frozen; the table is updated in place (see the top). */
  readonly pods: Readonly<Record<string, Pod>>;
  /** The retained event window, oldest first (the watch cache's capacity). */
  readonly events: readonly StoredEvent[];
  /** Watches starting before this revision get 410 Expired: "too old resource version". */
  readonly oldestWatchableRv: number;
}

/** --default-watch-cache-size: 100 events per resource. */
export const DEFAULT_WATCH_WINDOW = 100;

export function emptyStore(): StoreState {
  return Object.freeze({ resourceVersion: 1, pods: {}, events: Object.freeze([]), oldestWatchableRv: 1 });
}

/** Pods sorted by key, as etcd returns a range: a total order that never depends on insertion. */
export function listPods(state: StoreState, nodeName: string | undefined): Pod[] {
  const keys = Object.keys(state.pods).sort(compareStrings);
  const out: Pod[] = [];
  for (const k of keys) {
    const pod = state.pods[k]!;
    if (matchesNode(pod, nodeName)) out.push(pod);
  }
  return out;
}

/** The spec.nodeName field selector; undefined selects every pod. */
export function matchesNode(pod: Pod | null, nodeName: string | undefined): boolean {
  if (pod === null) return false;
  return nodeName === undefined || (pod.spec.nodeName ?? "") === nodeName;
}

/**
 * Writes `next` (or removes the key when next is null) at a new revision and records the event.
 * Returns the new state and the event; the caller already checked that the write is allowed.
 */
export function writePod(state: StoreState, key: string, next: Pod | null, windowSize: number): [StoreState, StoredEvent] {
  const prev = state.pods[key] ?? null;
  if (next === null && prev === null) throw new Error(`store: delete of missing key ${key}`);
  const rv = state.resourceVersion + 1;
  const object = withResourceVersion(next ?? prev!, rv);
  const type: StoredEventType = next === null ? "DELETED" : prev === null ? "ADDED" : "MODIFIED";
  const event: StoredEvent = Object.freeze({ type, resourceVersion: rv, object, prevObject: prev });
  const events = appendToWindow(state.events, event, windowSize);
  // In place (see the top). A new key goes last and a deleted one leaves, as a copy would order them.
  const pods = state.pods as Record<string, Pod>;
  if (next === null) delete pods[key];
  else pods[key] = object;
  // Past the window: a watch from before the oldest kept event can no longer resume.
  const oldestWatchableRv = events.length < state.events.length + 1 ? events[0]!.resourceVersion - 1 : state.oldestWatchableRv;
  return [Object.freeze({ resourceVersion: rv, pods, events, oldestWatchableRv }), event];
}

/**
 * The window with `event` appended and the excess beyond windowSize dropped, oldest first: a new
 * frozen array.
 */
function appendToWindow(events: readonly StoredEvent[], event: StoredEvent, windowSize: number): readonly StoredEvent[] {
  const all = [...events, event];
  const excess = all.length - windowSize;
  return Object.freeze(excess > 0 ? all.slice(excess) : all);
}

/** Compaction by a scenario: forget every event up to now, so any older watch gets 410. */
export function compact(state: StoreState): StoreState {
  return Object.freeze({ ...state, events: Object.freeze([]), oldestWatchableRv: state.resourceVersion });
}

/** The events after `fromRv` that a watch from there must replay, or null if they are gone. */
export function eventsSince(state: StoreState, fromRv: number): StoredEvent[] | null {
  if (fromRv < state.oldestWatchableRv) return null;
  return state.events.filter((e) => e.resourceVersion > fromRv);
}

/** The pod at revision rv; deep-frozen, as a pod built outside the store may have unfrozen subtrees. */
function withResourceVersion(pod: Pod, rv: number): Pod {
  const metadata = new Edit(pod.metadata).set("resourceVersion", String(rv)).result();
  return new Edit(pod).set("metadata", metadata).result();
}

export function keyOf(pod: Pod): string {
  return podKey(pod);
}

/** A total order on strings by UTF-16 code units (never localeCompare in the model). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
