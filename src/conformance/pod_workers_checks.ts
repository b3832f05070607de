// What a pod_workers.yaml sequence step may state after it ran, each checked against the workers as
// they are then: the Should*/Is*/Could* queries per UID, the worker channels and statuses kept, the
// sync calls recorded (a pod's exact history, or one of the allowed ones), the static pod maps, the
// fake work queue, and what SyncKnownPods returned. A key no check knows is the vector's error.
import type { PodWorkerState } from "../kubelet/pod_sync_status.ts";
import type { SyncPodType } from "../kubelet/types.ts";
import { diffValues, show } from "./diff.ts";
import { goValue } from "./go_equal.ts";
import { VectorError } from "./outcome.ts";
import type { PodWorkersHarness, SyncRecord } from "./pod_workers_harness.ts";
import { encodeStatus, withZeroUpdateTypes } from "./pod_workers_encoding.ts";

/** The expectations of one step; `knownUids` are the pods the sequence created (for per-pod histories). */
export function checkStep(h: PodWorkersHarness, expect: unknown, knownUids: readonly string[]): string[] {
  if (expect === undefined || expect === null) return [];
  if (typeof expect !== "object") throw new VectorError(`expect: cannot interpret ${show(expect)}`);
  const e = expect as Record<string, unknown>;
  const w = h.workers;
  const diffs: string[] = [];
  const eq = (field: string, want: unknown, got: unknown) => diffs.push(...diffValues(want, got, field));
  const queries: Record<string, (uid: string) => boolean> = {
    ShouldPodContainersBeTerminating: (u) => w.ShouldPodContainersBeTerminating(u),
    IsPodTerminationRequested: (u) => w.IsPodTerminationRequested(u),
    CouldHaveRunningContainers: (u) => w.CouldHaveRunningContainers(u),
    ShouldPodContentBeRemoved: (u) => w.ShouldPodContentBeRemoved(u),
    ShouldPodRuntimeBeRemoved: (u) => w.ShouldPodRuntimeBeRemoved(u),
    IsPodKnownTerminated: (u) => w.IsPodKnownTerminated(u),
    // podSyncStatus.IsTerminated / IsTerminationRequested, as the Go tests read them off the status.
    IsTerminated: (u) => w.podSyncStatuses.get(u)?.IsTerminated() ?? false,
    IsTerminationRequested: (u) => w.podSyncStatuses.get(u)?.IsTerminationRequested() ?? false,
  };
  for (const [key, want] of Object.entries(e)) {
    const needsMap = key in queries || ["processed", "podSyncStatus", "syncKnownPods", "startedStaticPodsByFullname", "waitingToStartStaticPodsByFullname"].includes(key);
    const needsList = ["workerChannelsFor", "queued", "getWork", "historyPerPodIsOneOf"].includes(key);
    if (needsMap && (typeof want !== "object" || want === null || Array.isArray(want))) throw new VectorError(`expect.${key}: expected a map, got ${show(want)}`);
    if (needsList && !Array.isArray(want)) throw new VectorError(`expect.${key}: expected a list, got ${show(want)}`);
    if (key in queries) {
      for (const [uid, v] of Object.entries(want as Record<string, unknown>)) eq(`${key}(${uid})`, v, queries[key]!(uid));
    } else if (key === "openWorkerChannels") eq(key, want, w.podUpdates.size);
    else if (key === "workerChannelsFor") eq(key, [...(want as string[])].sort(), [...w.podUpdates.keys()].sort());
    else if (key === "trackedPodSyncStatuses") eq(key, want, w.podSyncStatuses.size);
    else if (key === "processedPods") eq(key, want, [...h.syncer.processed.values()].filter((l) => l.length > 0).length);
    else if (key === "historyPerPodIsOneOf") diffs.push(...checkHistories(h, want as unknown[][], knownUids));
    else if (key === "processed") diffs.push(...checkProcessed(h, want));
    else if (key === "podSyncStatus") diffs.push(...checkStatuses(h, want));
    else if (key === "startedStaticPodsByFullname") eq(key, want, Object.fromEntries(w.startedStaticPodsByFullname));
    else if (key === "waitingToStartStaticPodsByFullname") eq(key, want, Object.fromEntries(w.waitingToStartStaticPodsByFullname));
    else if (key === "queued") eq(key, [...(want as string[])].sort(), h.queue.queued());
    else if (key === "getWork") eq(key, [...(want as string[])].sort(), h.queue.takeAll());
    else if (key === "syncKnownPods") diffs.push(...checkSyncKnownPods(h, want));
    else throw new VectorError(`expect: cannot check ${key}`);
  }
  return diffs;
}

/** Every pod's recorded calls must equal one of the allowed histories (names are per pod, so left out). */
function checkHistories(h: PodWorkersHarness, allowed: readonly unknown[][], uids: readonly string[]): string[] {
  const options = allowed.map((hist) => goValue(hist));
  return uids.flatMap((uid) => {
    const got = (h.syncer.processed.get(uid) ?? []).map((r) => encodeRecord(r, false));
    return options.some((o) => diffValues(o, got).length === 0) ? [] : [`history of pod ${uid}: ${show(got)} is none of the allowed ones`];
  });
}

/** processed[uid]: exactly these calls ([] or null: none), each {fn, name?, updateType?, gracePeriod?, terminated?, runningPod?}. */
function checkProcessed(h: PodWorkersHarness, want: unknown): string[] {
  if (typeof want !== "object" || want === null) throw new VectorError(`expect.processed: expected a map of uid to calls, got ${show(want)}`);
  return Object.entries(want as Record<string, unknown>).flatMap(([uid, calls]) => {
    const list = (calls ?? []) as Record<string, unknown>[];
    const withName = list.some((c) => typeof c === "object" && c !== null && "name" in c);
    const got = (h.syncer.processed.get(uid) ?? []).map((r) => encodeRecord(r, withName));
    return diffValues(goValue(list), got, `processed[${uid}]`);
  });
}

function encodeRecord(r: SyncRecord, withName: boolean): unknown {
  return goValue({
    fn: r.fn,
    ...(withName ? { name: r.name } : {}),
    updateType: r.updateType === undefined ? undefined : typeName(r.updateType),
    gracePeriod: r.gracePeriod,
    terminated: r.terminated,
    runningPod: r.runningPod === undefined ? undefined : true,
  });
}

/** podSyncStatus[uid]: the whole status in the vectors' encoding, or null for none tracked. */
function checkStatuses(h: PodWorkersHarness, want: unknown): string[] {
  if (typeof want !== "object" || want === null) throw new VectorError(`expect.podSyncStatus: expected a map of uid to status, got ${show(want)}`);
  return Object.entries(want as Record<string, unknown>).flatMap(([uid, s]) => {
    const expected = s === null ? null : goValue(withZeroUpdateTypes(s as Record<string, unknown>));
    return diffValues(expected, encodeStatus(h.workers.podSyncStatuses.get(uid)), `podSyncStatus[${uid}]`);
  });
}

const STATES: Readonly<Record<PodWorkerState, string>> = { sync: "SyncPod", terminating: "TerminatingPod", terminated: "TerminatedPod" };

/** What the last SyncKnownPods returned: uid → {State: SyncPod|TerminatingPod|TerminatedPod, Orphan, HasConfig, Static}. */
function checkSyncKnownPods(h: PodWorkersHarness, want: unknown): string[] {
  if (h.lastSync === null) throw new VectorError("expect.syncKnownPods: no SyncKnownPods ran");
  const got = Object.fromEntries([...h.lastSync].map(([uid, s]) => [uid, goValue({ State: STATES[s.State], Orphan: s.Orphan, HasConfig: s.HasConfig, Static: s.Static })]));
  return diffValues(goValue(want), got, "syncKnownPods");
}

function typeName(t: SyncPodType): string {
  return { sync: "SyncPodSync", update: "SyncPodUpdate", create: "SyncPodCreate", kill: "SyncPodKill" }[t];
}
