// Periodic housekeeping that changed nothing, found in a whole trace so the text timeline can hide
// it at `normal` and say how much it hid. Three shapes, each judged by what came of it:
//
// - `cache UpdateTime`: PLEG stamps the pod cache's global time after every relist (generic.go
//   `g.cache.UpdateTime(timestamp)`), whether or not anything changed.
// - a status echo: the kubelet's own status write comes back through its watch (MODIFIED), the
//   config source hands the whole set to podStorage.Merge, and the only outcome is RECONCILE
//   (status-only changes), which the syncLoop takes without starting any work. A config SET with
//   no outcome at all (the file source's periodic re-list of unchanged manifests) counts too.
// - a no-op sync: a pod worker sync in which the kubelet did nothing (no new status, no CRI
//   call that acts, no kill), at most a back-off refusal whose Event stays visible; a status
//   PATCH the status manager found unchanged; a KillPod with nothing to kill (computePodActions
//   asks for one before every new sandbox).
//
// Pure: the records in, the records to hide (by position) and the count of each shape out.
import type { TraceRecord } from "./records.ts";

export type HousekeepingKind = "cache UpdateTime" | "no-op config updates" | "no-op syncs";

export interface Housekeeping {
  /** Positions (indexes into the records) of records to hide at `normal`. */
  hidden: ReadonlyMap<number, HousekeepingKind>;
}

/** Config ops podStorage.Merge may hand the syncLoop, as config records name them. */
const CONFIG_OPS = new Set(["ADD", "UPDATE", "DELETE", "REMOVE", "RECONCILE", "SET"]);

export function findHousekeeping(records: readonly TraceRecord[]): Housekeeping {
  const hidden = new Map<number, HousekeepingKind>();
  records.forEach((rec, i) => {
    if (rec.component === "cache" && rec.kind === "UpdateTime") hidden.set(i, "cache UpdateTime");
    else if (isNothingDone(rec)) hidden.set(i, "no-op syncs");
  });
  for (const group of statusEchoes(records)) for (const i of group) hidden.set(i, "no-op config updates");
  for (const group of noOpSyncs(records)) for (const i of group) hidden.set(i, "no-op syncs");
  return { hidden };
}

function isNothingDone(r: TraceRecord): boolean {
  if (r.component === "status" && r.kind === "PatchStatus") return r["result"] === "unchanged";
  if (r.component === "kuberuntime" && r.kind === "KillPod") return isEmptyList(r["containers"]) && isEmptyList(r["sandboxes"]);
  return false;
}

const isEmptyList = (v: unknown) => Array.isArray(v) && v.length === 0;

const isIncomingSet = (r: TraceRecord) => r.component === "config" && r.kind === "SET" && r["incoming"] === true;

/**
 * Each incoming SET whose outcome (the config ops that follow it at the same instant, before the
 * next incoming change) is RECONCILE only, or nothing: the SET, its ops, the syncLoop's receipt of
 * them, and the watch event that carried it.
 */
function statusEchoes(records: readonly TraceRecord[]): number[][] {
  const groups: number[][] = [];
  for (let i = 0; i < records.length; i++) {
    const set = records[i]!;
    if (!isIncomingSet(set)) continue;
    const group = [i];
    const ops: string[] = [];
    for (let j = i + 1; j < records.length && records[j]!.t === set.t; j++) {
      const r = records[j]!;
      if (r.component === "config" && r["incoming"] === true) break;
      if (r.component === "config" && CONFIG_OPS.has(r.kind) && r["source"] === set["source"]) {
        ops.push(r.kind);
        group.push(j);
      } else if (r.component === "kubelet" && r.kind.startsWith("SyncLoop") && CONFIG_OPS.has(r.kind.slice(8)) && r["source"] === set["source"]) {
        ops.push(r.kind.slice(8));
        group.push(j);
      }
    }
    if (!ops.every((op) => op === "RECONCILE")) continue;
    const carrier = watchEventBefore(records, i);
    if (carrier !== undefined) group.push(carrier);
    const listed = listedBefore(records, i, set);
    if (listed !== undefined) group.push(listed);
    groups.push(group);
  }
  return groups;
}

/** The watch event that delivered the SET at `i`: the nearest one before it at the same instant. */
function watchEventBefore(records: readonly TraceRecord[], i: number): number | undefined {
  const t = records[i]!.t;
  for (let k = i - 1; k >= 0 && records[k]!.t === t; k--) {
    const r = records[k]!;
    if (r.component === "apiserver" && r.kind === "WatchEvent") return r["actor"] === "kubelet" && r["type"] === "MODIFIED" ? k : undefined;
    if (r.component === "config") return undefined;
  }
  return undefined;
}

/** The file source's FileList that produced a SET from "file", when it is right before it. */
function listedBefore(records: readonly TraceRecord[], i: number, set: TraceRecord): number | undefined {
  if (set["source"] !== "file") return undefined;
  const prev = records[i - 1];
  return prev !== undefined && prev.t === set.t && prev.component === "config" && prev.kind === "FileList" ? i - 1 : undefined;
}

/** Records a no-op sync may carry besides polling noise: the worker's and SyncPod's own bookkeeping. */
function isSyncBookkeeping(r: TraceRecord): boolean {
  if (r.component === "podworker") return r.kind === "SyncBegin" || r.kind === "SyncEnd";
  if (r.component === "kubelet") return r.kind === "SyncPod";
  // SyncPod hands the pod to the probe manager, which already has its workers.
  if (r.component === "prober") return r.kind === "WorkerExists";
  if (r.component === "kuberuntime") {
    if (r.kind === "SyncPod" || r.kind === "computePodActions") return true;
    return r.kind === "StartContainer" && isBackOff(r["error"]);
  }
  return false;
}

/** Back-off refusals: the sync asked to start a container and was told to wait (no CRI call). */
function isBackOff(err: unknown): boolean {
  return typeof err === "string" && /^(CrashLoopBackOff|ImagePullBackOff)$/.test(err);
}

function isBackOffOrNone(err: unknown): boolean {
  return err === null || err === undefined || (typeof err === "string" && /with (CrashLoopBackOff|ImagePullBackOff):/.test(err));
}

/** Records that act or observe only: they neither make nor spoil a no-op sync. */
function isNeutral(r: TraceRecord): boolean {
  if (r.component === "kubelet" && r.kind === "Event") return true;
  if (r.component === "cache" || r.component === "check") return true;
  if (r.component === "runtime" && POLLING.has(r.kind)) return true;
  return r.component === "apiserver" && (r.kind === "Get" || r.kind === "List" || r.kind === "Watch");
}

const POLLING = new Set([
  "Version", "Status", "ListPodSandbox", "PodSandboxStatus", "ListContainers", "ContainerStatus",
  "ListImages", "ImageStatus", "GetContainerEvents",
]);

/**
 * Sync cycles (SyncBegin .. SyncEnd of one pod, mode sync) whose records about that pod are all
 * bookkeeping or neutral, and whose SyncEnd reports no error or a back-off: the bookkeeping
 * records, and the UpdatePod that queued the cycle when it comes right before it.
 */
function noOpSyncs(records: readonly TraceRecord[]): number[][] {
  const groups: number[][] = [];
  const open = new Map<string, { begin: number; members: number[]; spoiled: boolean }>();
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const pod = typeof r["pod"] === "string" ? r["pod"] : undefined;
    if (pod === undefined) continue;
    if (r.component === "podworker" && r.kind === "SyncBegin") {
      open.set(pod, { begin: i, members: [i], spoiled: r["mode"] !== undefined && r["mode"] !== "sync" });
      continue;
    }
    const cycle = open.get(pod);
    if (cycle === undefined) continue;
    if (r.component === "podworker" && r.kind === "SyncEnd") {
      open.delete(pod);
      if (cycle.spoiled || !isBackOffOrNone(r["err"])) continue;
      const trigger = triggerOf(records, cycle.begin, pod);
      groups.push([...(trigger === undefined ? [] : [trigger]), ...cycle.members, i]);
    } else if (isSyncBookkeeping(r)) {
      cycle.members.push(i);
    } else if (!isNeutral(r)) {
      cycle.spoiled = true;
    }
  }
  return groups;
}

/** The UpdatePod of `pod` right before SyncBegin at `begin`, at the same instant. */
function triggerOf(records: readonly TraceRecord[], begin: number, pod: string): number | undefined {
  const t = records[begin]!.t;
  for (let k = begin - 1; k >= 0 && records[k]!.t === t; k--) {
    const r = records[k]!;
    if (r["pod"] !== pod) continue;
    return r.component === "podworker" && r.kind === "UpdatePod" && r["updateType"] === "sync" ? k : undefined;
  }
  return undefined;
}
