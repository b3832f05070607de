// Records that say again, at `normal`, what a neighbouring shown record already says: the same
// step seen from a second component. Hidden (and counted) so one step is one line:
//
// - the apiserver's side of a kubelet status PATCH, when the status manager's own record of the
//   same write (with its outcome) follows;
// - a relist's summary line when it found events, each of which has its own PLEG line, and the
//   relist's cache write for a pod when a PLEG event for that pod follows at the same instant;
// - the runtime's ContainerStarted right before the StartContainer call that started it (same id);
// - the kubelet's DeleteContainer record right after the runtime's RemoveContainer of that id;
// - a config SET that the config ops after it spell out pod by pod (ADD, UPDATE, DELETE...); the
//   syncLoop's receipt of them (SyncLoopDELETE ...) stays: on 1.21 it is when termination begins;
// - SyncPod's inner markers (kubelet SyncPod and SyncTerminatedPod, kuberuntime SyncPod begin/end)
//   inside a pod worker's "begins SyncPod" .. "finished SyncPod" of the same pod (the worker's
//   "finished SyncPod with error: ..." carries SyncPod's error word for word).
//
// Pure: the records in, the positions to hide out.
import type { TraceRecord } from "./records.ts";

export type DuplicateKind = "duplicate views" | "nested SyncPod markers";

export function findDuplicates(records: readonly TraceRecord[]): Map<number, DuplicateKind> {
  const hidden = new Map<number, DuplicateKind>();
  for (const i of apiSideOfStatusWrites(records)) hidden.set(i, "duplicate views");
  records.forEach((r, i) => {
    if (r.component === "pleg" && r.kind === "relist" && r["err"] === undefined && typeof r["events"] === "number" && r["events"] > 0) {
      hidden.set(i, "duplicate views");
    }
  });
  for (const i of cacheWritesWithEvents(records)) hidden.set(i, "duplicate views");
  for (const i of containerDeletions(records)) hidden.set(i, "duplicate views");
  for (const i of containerStarts(records)) hidden.set(i, "duplicate views");
  for (const i of configDeliveries(records)) hidden.set(i, "duplicate views");
  for (const i of nestedSyncMarkers(records)) hidden.set(i, "nested SyncPod markers");
  return hidden;
}

/** apiserver PatchStatus by the kubelet that the status manager's PatchStatus of the same pod and UID reports next. */
function apiSideOfStatusWrites(records: readonly TraceRecord[]): number[] {
  const out: number[] = [];
  const pending = new Map<string, number>();
  records.forEach((r, i) => {
    const pod = typeof r["pod"] === "string" ? r["pod"] : undefined;
    if (pod === undefined || r.kind !== "PatchStatus") return;
    if (r.component === "apiserver") {
      if (r["actor"] === "kubelet" && r["result"] === "ok") pending.set(pod, i);
      else pending.delete(pod);
    } else if (r.component === "status") {
      const api = pending.get(pod);
      pending.delete(pod);
      if (api !== undefined && r["result"] === "patched" && records[api]!["uid"] === r["uid"]) out.push(api);
    }
  });
  return out;
}

/** cache Set of a pod, followed at the same instant by a PLEG event of that pod (before the next cache Set). */
function cacheWritesWithEvents(records: readonly TraceRecord[]): number[] {
  const out: number[] = [];
  records.forEach((r, i) => {
    if (r.component !== "cache" || r.kind !== "Set") return;
    for (let j = i + 1; j < records.length && records[j]!.t === r.t; j++) {
      const n = records[j]!;
      if (n.component === "cache" && n.kind === "Set") return;
      if (n.component === "pleg" && n.kind !== "relist" && n["pod"] === r["pod"]) {
        out.push(i);
        return;
      }
    }
  });
  return out;
}

/** kubelet DeleteContainer (no error) right after runtime RemoveContainer of the same container id. */
function containerDeletions(records: readonly TraceRecord[]): number[] {
  const out: number[] = [];
  records.forEach((r, i) => {
    if (r.component !== "kubelet" || r.kind !== "DeleteContainer" || r["err"] !== null) return;
    const prev = records[i - 1];
    if (prev !== undefined && prev.component === "runtime" && prev.kind === "RemoveContainer" && prev["id"] === r["containerID"]) out.push(i);
  });
  return out;
}

/** runtime ContainerStarted followed, at the same instant, by the StartContainer call of that id. */
function containerStarts(records: readonly TraceRecord[]): number[] {
  const out: number[] = [];
  records.forEach((r, i) => {
    if (r.component !== "runtime" || r.kind !== "ContainerStarted") return;
    const next = records[i + 1];
    if (next !== undefined && next.t === r.t && next.component === "runtime" && next.kind === "StartContainer" && next["id"] === r["id"]) out.push(i);
  });
  return out;
}

const OPS = new Set(["ADD", "UPDATE", "DELETE", "REMOVE", "RECONCILE", "RESTORE"]);

/** An incoming config SET followed, at the same instant, by the ops it produced. */
function configDeliveries(records: readonly TraceRecord[]): number[] {
  const out: number[] = [];
  records.forEach((r, i) => {
    if (r.component !== "config" || r.kind !== "SET" || r["incoming"] !== true) return;
    const next = records[i + 1];
    if (next !== undefined && next.t === r.t && next.component === "config" && OPS.has(next.kind) && next["incoming"] !== true) out.push(i);
  });
  return out;
}

function nestedSyncMarkers(records: readonly TraceRecord[]): number[] {
  const out: number[] = [];
  const inSync = new Set<string>();
  records.forEach((r, i) => {
    const pod = typeof r["pod"] === "string" ? r["pod"] : undefined;
    if (pod === undefined) return;
    if (r.component === "podworker" && r.kind === "SyncBegin") inSync.add(pod);
    else if (r.component === "podworker" && r.kind === "SyncEnd") inSync.delete(pod);
    else if (inSync.has(pod) && isInnerMarker(r)) out.push(i);
  });
  return out;
}

function isInnerMarker(r: TraceRecord): boolean {
  // SyncTerminatingPod stays: it carries the grace period the worker's line does not.
  if (r.component === "kubelet") return r.kind === "SyncPod" || r.kind === "SyncTerminatedPod";
  return r.component === "kuberuntime" && r.kind === "SyncPod";
}
