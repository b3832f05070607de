// Models pkg/kubelet/config/config.go: podStorage.merge, checkAndUpdatePod and their helpers (the pure part).
//
// Upstream mutates the stored *v1.Pod in place; here the storage is an immutable value and every
// function returns new (frozen) pods, so a pod once handed to the syncLoop never changes under it.
import { freeze, produce } from "immer";
import type { Pod } from "../../k8s/pod.ts";
import { getPodFullName } from "../../k8s/podutil.ts";
import { formatRFC3339Nano } from "../../apiserver/time.ts";
import { cloneJSON, jsonEqual } from "../../k8s/json.ts";
import { ConfigFirstSeenAnnotationKey, ConfigMirrorAnnotationKey, ConfigSourceAnnotationKey } from "../types.ts";
import type { PodUpdate } from "./pod_update.ts";

/** podStorage's state: source → pod UID → pod, and the sources that have sent a SET. */
export interface PodStorageState {
  readonly pods: ReadonlyMap<string, ReadonlyMap<string, Pod>>;
  readonly sourcesSeen: ReadonlySet<string>;
}

export interface MergeContext {
  /** Virtual now, for the config.seen annotation (kubetypes.NewTimestamp). */
  readonly nowMs: number;
  /** The order of a Go map iteration over the (sorted) keys: sim.mapOrder in a run. */
  readonly mapOrder: (sortedKeys: readonly string[]) => string[];
  /**
   * The caller drops the state it passes and keeps the one returned (PodConfig does): a SET that
   * differs from the source's last SET in one pod then updates the source's map in place rather
   * than copying it. Unset (tests, tools), every state stays as it was returned.
   */
  readonly inPlace?: boolean;
}

export interface MergeResult {
  readonly state: PodStorageState;
  readonly adds: PodUpdate;
  readonly updates: PodUpdate;
  readonly deletes: PodUpdate;
  readonly removes: PodUpdate;
  readonly reconciles: PodUpdate;
  /** Pods filterInvalidPods dropped for a duplicate full name (upstream records an event). */
  readonly rejected: readonly Pod[];
}

export const emptyPodStorage = (): PodStorageState => ({ pods: new Map(), sourcesSeen: new Set() });

/** podStorage.merge: classify one change from `source` against what the source sent before. */
export function merge(state: PodStorageState, source: string, change: PodUpdate, ctx: MergeContext): MergeResult {
  if (change.Op === "SET") {
    const r = mergeSetDelta(state, source, change, ctx);
    if (r !== null) return r;
  }
  const acc = newAcc();
  const oldPods = state.pods.get(source) ?? new Map<string, Pod>();
  // A SET starts from an empty map (below): the copy of the old one is only for the other ops.
  let pods = change.Op === "SET" ? new Map<string, Pod>() : new Map(oldPods);
  let sourcesSeen = state.sourcesSeen;
  switch (change.Op) {
    case "ADD":
    case "UPDATE":
    case "DELETE":
      updatePodsFunc(change, oldPods, pods, source, ctx, acc);
      break;
    case "REMOVE":
      for (const value of change.Pods) {
        const existing = pods.get(value.metadata.uid ?? "");
        if (existing === undefined) continue; // this is a no-op
        pods.delete(value.metadata.uid ?? "");
        acc.remove.push(existing);
      }
      break;
    case "SET":
      if (!sourcesSeen.has(source)) sourcesSeen = new Set([...sourcesSeen, source]); // markSourceSet
      // pods = new Map(): "clear the old map entries by just creating a new map" (made above)
      updatePodsFunc(change, oldPods, pods, source, ctx, acc);
      for (const uid of ctx.mapOrder(sortedUids(oldPods))) {
        if (!pods.has(uid)) acc.remove.push(oldPods.get(uid)!); // this is a delete
      }
      noteBasis(pods, change);
      break;
    default:
      // "Received invalid update type": upstream logs and ignores it.
      break;
  }
  const nextPods = new Map(state.pods);
  nextPods.set(source, pods);
  return result(source, { pods: nextPods, sourcesSeen }, acc);
}

function newAcc(): Acc & { remove: Pod[] } {
  return { add: [], update: [], del: [], remove: [], reconcile: [], rejected: [] };
}

function result(source: string, state: PodStorageState, acc: Acc & { remove: Pod[] }): MergeResult {
  const mk = (Op: PodUpdate["Op"], list: Pod[]): PodUpdate => ({ Op, Pods: list, Source: source });
  return {
    state,
    adds: mk("ADD", acc.add),
    updates: mk("UPDATE", acc.update),
    deletes: mk("DELETE", acc.del),
    removes: mk("REMOVE", acc.remove),
    reconciles: mk("RECONCILE", acc.reconcile),
    rejected: acc.rejected,
  };
}

interface Acc { add: Pod[]; update: Pod[]; del: Pod[]; reconcile: Pod[]; rejected: Pod[] }

/**
 * The input pod each stored pod was last the outcome of (updatePodsFunc). Whatever the branch, the
 * outcome of an input equals it semantically and in status, so the same input object sent again
 * (a SET repeats every pod of the node at each change of one) finds nothing to do: checkAndUpdatePod
 * would keep the stored pod as it is. A fact about two frozen objects, shared by every storage.
 */
const outcomeOf = new WeakMap<Pod, Pod>();

/** The closure updatePodsFunc: annotate, compare with what the source had, file each pod under its op. */
function updatePodsFunc(change: PodUpdate, oldPods: ReadonlyMap<string, Pod>, pods: Map<string, Pod>,
  source: string, ctx: MergeContext, acc: Acc): void {
  // A keyed store that knows its full names distinct (SetListing) spares the pass that would find
  // no duplicate: the same pods, in the same order, none rejected.
  const filtered = change.listing?.fullNamesDistinct === true ? change.Pods : validPods(change.Pods, acc);
  for (const input of filtered) {
    const uid = input.metadata.uid ?? "";
    filePod(input, uid, oldPods.get(uid), pods, source, ctx, acc);
  }
}

/** One turn of updatePodsFunc's loop. */
function filePod(input: Pod, uid: string, existing: Pod | undefined, pods: Map<string, Pod>, source: string, ctx: MergeContext, acc: Acc): void {
  if (existing !== undefined && outcomeOf.get(existing) === input) {
    pods.set(uid, existing);
    return;
  }
  const stored = fileUnder(input, uid, existing, pods, source, ctx, acc);
  if (Object.isFrozen(input) && Object.isFrozen(stored)) outcomeOf.set(stored, input);
}

/**
 * What a source's map of pods was merged from: push n of a keyed store (SetListing), its pods'
 * UIDs distinct (one stored pod for each pod of the list) and their full names too (none
 * rejected), and its UIDs sorted (null until asked for). Every stored pod is then the outcome of
 * its pod in that list, so a SET of the same pods but one finds nothing to do for the others:
 * updatePodsFunc would keep each stored pod as it is (see outcomeOf). Kept beside the map, which
 * it describes for as long as the map stays as it is (mergeSetDelta updates both together).
 */
interface SetBasis {
  readonly from: object;
  readonly n: number;
  readonly sortedUids: readonly string[] | null;
}

const basisOf = new WeakMap<ReadonlyMap<string, Pod>, SetBasis>();

/** After a SET's full loop: the basis of the map it made, when the list was a keyed store's with nothing rejected and no UID twice. */
function noteBasis(pods: ReadonlyMap<string, Pod>, change: PodUpdate): void {
  const l = change.listing;
  if (l?.from === undefined || l.n === undefined || !l.fullNamesDistinct || pods.size !== change.Pods.length) return;
  basisOf.set(pods, { from: l.from, n: l.n, sortedUids: null });
}

/** The map's UIDs sorted (Go ranges over the old map; sim.mapOrder takes the sorted keys), carried while the UID set stands. */
function sortedUids(pods: ReadonlyMap<string, Pod>): readonly string[] {
  return basisOf.get(pods)?.sortedUids ?? [...pods.keys()].sort(compareStrings);
}

/**
 * A SET that follows the SET the source's map was merged from, with one key changed (SetListing
 * delta): updatePodsFunc and the deletes' loop for that key alone, which is all the full loop
 * would change (its other pods are kept as they are, above), with the same map-order draw over
 * the old UIDs. Null when the SET is not such a one, or its changed pod takes a UID another pod
 * holds (the full loop's last one wins): the caller then merges it in full.
 */
function mergeSetDelta(state: PodStorageState, source: string, change: PodUpdate, ctx: MergeContext): MergeResult | null {
  const l = change.listing;
  const oldPods = state.pods.get(source);
  if (l?.delta === undefined || oldPods === undefined || !l.fullNamesDistinct) return null;
  const basis = basisOf.get(oldPods);
  if (basis === undefined || basis.from !== l.from || l.n !== basis.n + 1) return null;
  const { before, after } = l.delta;
  const uidBefore = before === undefined ? undefined : (before.metadata.uid ?? "");
  const uidAfter = after === undefined ? undefined : (after.metadata.uid ?? "");
  if (uidBefore !== undefined && !oldPods.has(uidBefore)) return null; // not the list merged last: never so
  if (uidAfter !== undefined && uidAfter !== uidBefore && oldPods.has(uidAfter)) return null;
  const acc = newAcc();
  const oldSorted = sortedUids(oldPods);
  const removed = uidBefore !== undefined && uidBefore !== uidAfter ? oldPods.get(uidBefore) : undefined;
  const existing = uidAfter === undefined ? undefined : oldPods.get(uidAfter);
  const pods = ctx.inPlace === true ? (oldPods as Map<string, Pod>) : new Map(oldPods);
  if (removed !== undefined) pods.delete(uidBefore!);
  if (after !== undefined) filePod(after, uidAfter!, existing, pods, source, ctx, acc);
  ctx.mapOrder(oldSorted); // the deletes' range over the old map: the same draw as the full loop's
  if (removed !== undefined) acc.remove.push(removed); // the one old UID the new list lacks
  const added = uidAfter !== undefined && uidAfter !== uidBefore ? uidAfter : undefined;
  basisOf.set(pods, { from: l.from!, n: l.n, sortedUids: nextSortedUids(oldSorted, removed === undefined ? undefined : uidBefore, added) });
  if (pods === oldPods) return result(source, state, acc);
  const nextPods = new Map(state.pods);
  nextPods.set(source, pods);
  return result(source, { pods: nextPods, sourcesSeen: state.sourcesSeen }, acc);
}

/** The sorted UIDs with one taken out and one put in (a new array: the old one may be held by a recorded choice). */
function nextSortedUids(sorted: readonly string[], removed: string | undefined, added: string | undefined): readonly string[] {
  if (removed === undefined && added === undefined) return sorted;
  const next = removed === undefined ? sorted.slice() : sorted.filter((u) => u !== removed);
  if (added !== undefined) next.splice(lowerBound(next, added), 0, added);
  return next;
}

/** The first index whose string is not below s (compareStrings' order). */
function lowerBound(sorted: readonly string[], s: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One pod of updatePodsFunc's loop: the pod stored for it. */
function fileUnder(input: Pod, uid: string, existing: Pod | undefined, pods: Map<string, Pod>, source: string, ctx: MergeContext, acc: Acc): Pod {
  // The common cases, a pod the source sent again unchanged or with a new status only, are
  // decided on the input itself: the source annotation is a local one, which no comparison reads
  // and a reconcile does not copy (it takes the status alone), so checkAndUpdatePod gives the
  // same result for the input as for its annotated copy, which is then not produced.
  if (existing !== undefined && !podsDifferSemantically(existing, input)) {
    const r = checkAndUpdatePod(existing, input);
    pods.set(uid, r.existing);
    if (r.needReconcile) acc.reconcile.push(r.existing);
    return r.existing;
  }
  // Annotate the pod with the source before any comparison.
  const ref = withAnnotation(input, ConfigSourceAnnotationKey, source);
  if (existing !== undefined) {
    const r = checkAndUpdatePod(existing, ref);
    pods.set(uid, r.existing);
    if (r.needUpdate) acc.update.push(r.existing);
    else if (r.needReconcile) acc.reconcile.push(r.existing);
    else if (r.needGracefulDelete) acc.del.push(r.existing);
    return r.existing;
  }
  const added = recordFirstSeenTime(ref, ctx.nowMs);
  pods.set(uid, added);
  acc.add.push(added);
  return added;
}

/** filterInvalidPods, its rejected pods added to acc's. */
function validPods(pods: readonly Pod[], acc: Acc): Pod[] {
  const { filtered, rejected } = filterInvalidPods(pods);
  acc.rejected.push(...rejected);
  return filtered;
}

/** filterInvalidPods: the second pod with a full name already seen in this change is dropped. */
export function filterInvalidPods(pods: readonly Pod[]): { filtered: Pod[]; rejected: Pod[] } {
  const names = new Set<string>();
  const filtered: Pod[] = [];
  const rejected: Pod[] = [];
  for (const pod of pods) {
    const name = getPodFullName(pod);
    if (names.has(name)) rejected.push(pod);
    else {
      names.add(name);
      filtered.push(pod);
    }
  }
  return { filtered, rejected };
}

/** Annotations that the kubelet adds to the pod. */
export const localAnnotations = [ConfigSourceAnnotationKey, ConfigMirrorAnnotationKey, ConfigFirstSeenAnnotationKey];

export function isLocalAnnotationKey(key: string): boolean {
  return localAnnotations.includes(key);
}

/** isAnnotationMapEqual: equal except for the kubelet's local annotations. */
export function isAnnotationMapEqual(existingMap: Readonly<Record<string, string>> | undefined,
  candidateMap: Readonly<Record<string, string>> | undefined): boolean {
  const existing = existingMap ?? {};
  const candidate = candidateMap ?? {};
  for (const k of Object.keys(candidate)) {
    if (isLocalAnnotationKey(k)) continue;
    if (Object.hasOwn(existing, k) && existing[k] === candidate[k]) continue;
    return false;
  }
  for (const k of Object.keys(existing)) {
    if (isLocalAnnotationKey(k)) continue;
    if (!Object.hasOwn(candidate, k)) return false; // stale entry in existing map
  }
  return true;
}

/** recordFirstSeenTime: the config.seen annotation, RFC3339Nano of now. */
export function recordFirstSeenTime(pod: Pod, nowMs: number): Pod {
  return withAnnotation(pod, ConfigFirstSeenAnnotationKey, formatRFC3339Nano(nowMs));
}

/**
 * `pod.Annotations[key] = value` (the map made when nil) on a frozen copy: one field, so a plain
 * copy of the path to it rather than an immer draft, whose finalize walks the whole pod (about
 * 10 µs a pod against 1 µs). The rest of the pod is shared.
 */
function withAnnotation(pod: Pod, key: string, value: string): Pod {
  const annotations = { ...(pod.metadata.annotations ?? {}), [key]: value };
  return freeze({ ...pod, metadata: { ...pod.metadata, annotations } }, true);
}

/** reflect.DeepEqual on JSON-shaped values (undefined fields count as absent, like nil). */
export function deepEqual(a: unknown, b: unknown): boolean {
  return jsonEqual(a, b);
}

/** podsDifferSemantically: spec, labels, deletion fields and non-local annotations. */
export function podsDifferSemantically(existing: Pod, ref: Pod): boolean {
  const e = existing.metadata;
  const r = ref.metadata;
  return !(
    deepEqual(existing.spec, ref.spec) &&
    deepEqual(e.labels, r.labels) &&
    deepEqual(e.deletionTimestamp, r.deletionTimestamp) &&
    deepEqual(e.deletionGracePeriodSeconds, r.deletionGracePeriodSeconds) &&
    isAnnotationMapEqual(e.annotations, r.annotations)
  );
}

export interface CheckResult {
  readonly existing: Pod;
  readonly needUpdate: boolean;
  readonly needReconcile: boolean;
  readonly needGracefulDelete: boolean;
}

/**
 * checkAndUpdatePod: a semantic change is an UPDATE, or a DELETE when the new pod carries a
 * deletionTimestamp; a status-only change is a RECONCILE; otherwise nothing. Only spec, labels,
 * the deletion fields, status and annotations are copied into the stored pod, as upstream.
 */
export function checkAndUpdatePod(existing: Pod, ref: Pod): CheckResult {
  if (!podsDifferSemantically(existing, ref)) {
    // Only check reconcile when it is not an update: the kubelet is the source of truth of status.
    if (deepEqual(existing.status, ref.status)) return checkResult(existing, false, false, false);
    // existing.Status = ref.Status, on a copy of the stored pod: one field, so a plain frozen copy
    // rather than an immer draft (whose finalize walks the whole pod, most of a merge's cost).
    return checkResult(withStatus(existing, ref.status), false, true, false);
  }
  const updated = produce(existing, (d) => {
    d.spec = shareOrClone(ref.spec) as typeof d.spec;
    setOrDelete(d.metadata, "labels", ref.metadata.labels);
    setOrDelete(d.metadata, "deletionTimestamp", ref.metadata.deletionTimestamp);
    setOrDelete(d.metadata, "deletionGracePeriodSeconds", ref.metadata.deletionGracePeriodSeconds);
    setOrDelete(d, "status", ref.status);
    d.metadata.annotations = updateAnnotations(existing, ref);
  });
  const graceful = ref.metadata.deletionTimestamp != null;
  return checkResult(freeze(updated, true), !graceful, false, graceful);
}

/**
 * updateAnnotations: the ref's annotations plus the existing local ones. The first-seen time is
 * the existing one ("our own internal annotation, there is no need to update").
 */
function updateAnnotations(existing: Pod, ref: Pod): Record<string, string> {
  const annotations: Record<string, string> = { ...(ref.metadata.annotations ?? {}) };
  // Go reads a missing key as "": a stored pod always has one (recordFirstSeenTime), so this is moot.
  annotations[ConfigFirstSeenAnnotationKey] = existing.metadata.annotations?.[ConfigFirstSeenAnnotationKey] ?? "";
  for (const k of localAnnotations) {
    const v = existing.metadata.annotations?.[k];
    if (v !== undefined) annotations[k] = v;
  }
  return annotations;
}

function setOrDelete<T extends object, K extends keyof T>(target: T, key: K, value: unknown): void {
  if (value === undefined) delete target[key];
  else target[key] = shareOrClone(value) as T[K];
}

/**
 * Go's `existing.Status = ref.Status` shares the value; here a frozen value is shared too (nothing
 * can change it, and the stored pod then keeps the API object's subtree, so the next comparison
 * of an unchanged status stops at `a === b`), and anything else is copied. `ref` comes out of
 * immer's produce (deep-frozen while auto-freeze is on) or from the apiserver (always deep-frozen).
 */
function shareOrClone<T>(value: T): T {
  return Object.isFrozen(value) ? value : cloneJSON(value);
}

/** The pod with its status replaced (shared when frozen, as `existing.Status = ref.Status` shares it), frozen. */
function withStatus(existing: Pod, status: Pod["status"]): Pod {
  const next: Pod = { ...existing };
  if (status === undefined) delete next.status;
  else next.status = shareOrClone(status);
  return freeze(next, true);
}

function checkResult(existing: Pod, needUpdate: boolean, needReconcile: boolean, needGracefulDelete: boolean): CheckResult {
  return { existing, needUpdate, needReconcile, needGracefulDelete };
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
