// Models pkg/kubelet/status/status_manager.go (Start's loop, syncBatch, syncPod, needsUpdate, canBeDeleted, needsReconcile).
//
// Also holds statusutil.PatchPodStatus (pkg/util/pod/pod.go), the one call syncPod makes to write.
//
// The sync side of the status manager: one process ("status-manager") owns apiStatusVersions and
// talks to the apiserver. Before 1.27 each queued request is synced on its own and the ticker
// drains the queue and reconciles everything; from 1.27 a signal wakes syncBatch(false) for the
// changed pods and the ticker runs syncBatch(true).
import type { Pod, PodStatus } from "../../k8s/pod.ts";
import { recv, recvCase, select, type Proc } from "../../sim/index.ts";
import { IsMirrorPod, IsStaticPod } from "../types.ts";
import { isNotFound, type StatusError } from "../../apiserver/errors.ts";
import type { PodStatusSyncRequest, StatusManager, VersionedPodStatus } from "./status_manager.ts";
import { podRef, syncPeriodMs } from "./status_manager.ts";
import { IsPodPhaseTerminal, isPodStatusByKubeletEqual, mergePodStatus, normalizeStatus, semanticDeepEqual } from "./status_helpers.ts";
import type { StatusClient } from "./interfaces.ts";
import type { StatusEra } from "./era.ts";
import { cloneJSON } from "../../k8s/json.ts";

/** Start's goroutine: syncPod and syncBatch share one process to avoid sync races. */
export function* statusSyncLoop(m: StatusManager): Proc<void> {
  const syncTicker = m.sim.newTicker("status/syncTicker", syncPeriodMs);
  for (;;) {
    const c = yield* select([recvCase(m.podStatusChannel), recvCase(syncTicker.C)]);
    if (m.era.batchChannel) {
      yield* syncBatch(m, c.index === 1);
    } else if (c.index === 0) {
      const req = c.value as PodStatusSyncRequest;
      yield* syncPod(m, req.podUID, req.status);
    } else {
      // Remove any entries in the status channel since the batch will handle them.
      for (let i = m.podStatusChannel.length; i > 0; i--) yield* recv(m.podStatusChannel);
      yield* syncBatch(m, true);
    }
  }
}

/**
 * syncBatch syncs pod statuses with the apiserver; returns how many syncs it attempted. `all` is
 * always true before 1.27 (the function had no parameter then).
 */
export function* syncBatch(m: StatusManager, all: boolean): Proc<number> {
  const { podToMirror, mirrorToPod } = m.podManager.GetUIDTranslations();
  // Clean up orphaned versions.
  if (all) {
    for (const uid of [...m.apiStatusVersions.keys()]) {
      if (!m.podStatuses.has(uid) && !mirrorToPod.has(uid)) m.apiStatusVersions.delete(uid);
    }
  }
  const updated: PodStatusSyncRequest[] = [];
  // Go iterates the podStatuses map in random order: one recorded choice.
  for (const uid of m.sim.mapOrder([...m.podStatuses.keys()].sort())) {
    const status = m.podStatuses.get(uid)!;
    // Static pods are tracked in the API by their mirror pod's UID.
    let uidOfStatus = uid;
    const mirrorUID = podToMirror.get(uid);
    if (mirrorUID !== undefined) {
      if (mirrorUID === "") continue; // static pod without a mirror pod yet
      uidOfStatus = mirrorUID;
    }
    if (m.era.batchChannel && !all) {
      // A new status was delivered; everything else waits for the next bulk check.
      if ((m.apiStatusVersions.get(uidOfStatus) ?? 0) >= status.version) continue;
      updated.push({ podUID: uid, status });
    } else if (needsUpdate(m, uidOfStatus, status)) {
      updated.push({ podUID: uid, status });
    } else if (needsReconcile(m, uid, status.status)) {
      // Forget the written version so that syncPod writes the status again.
      m.apiStatusVersions.delete(uidOfStatus);
      updated.push({ podUID: uid, status });
    }
  }
  if (m.sim.traces("SyncBatch")) m.sim.emit("status", "SyncBatch", { all, pods: updated.map((u) => u.podUID) });
  for (const u of updated) yield* syncPod(m, u.podUID, u.status);
  return updated.length;
}

/** syncPod: GET the pod, check its UID, PATCH the merged status, then DELETE it when it can be deleted. */
export function* syncPod(m: StatusManager, uid: string, status: VersionedPodStatus): Proc<void> {
  // Before 1.27 a request may be stale by the time it is read.
  if (!m.era.batchChannel && !needsUpdate(m, uid, status)) return;
  const client = m.kubeClient!;
  const got = yield* client.getPod(status.podNamespace, status.podName);
  if (got.err !== null) {
    // Not found: RemoveOrphanedStatuses will clear the status. Any other error: retry later.
    const ref = `${status.podNamespace}/${status.podName}`;
    m.sim.emit("status", "GetPodFailed", { pod: ref, uid, version: status.version, notFound: isNotFound(got.err), error: got.err.message });
    return;
  }
  let pod: Pod = got.value;
  const apiUID = pod.metadata.uid ?? "";
  const translatedUID = m.podManager.TranslatePodUID(apiUID);
  if (translatedUID !== "" && translatedUID !== uid) {
    // The pod was deleted and then recreated under the same name: skip and forget the old status.
    m.sim.emit("status", "PodRecreated", { pod: podRef(pod), uid, newUid: apiUID, version: status.version });
    m.deletePodStatus(uid);
    return;
  }
  const couldHaveRunning = m.era.delayTerminalPhase && m.podDeletionSafety.PodCouldHaveRunningContainers(pod);
  const apiStatus: PodStatus = pod.status ?? {};
  const merged = mergePodStatus(apiStatus, status.status, couldHaveRunning, m.era, m.sim.nowMs);
  const pre118 = m.patchWithoutUIDPrecondition;
  const r = pre118
    ? yield* PatchPodStatusWithoutUID(client, pod.metadata.namespace ?? "", pod.metadata.name, apiStatus, merged)
    : yield* PatchPodStatus(client, pod.metadata.namespace ?? "", pod.metadata.name, apiUID, apiStatus, merged);
  const result = r.err !== null ? r.err.message : r.unchanged ? "unchanged" : "patched";
  // The record's fields are written out rather than spread from a shared object (a spread costs a
  // record more than its building does); DeletePod repeats them as they were at the patch.
  const ref = podRef(pod);
  const version = status.version;
  const phase = merged.phase ?? null;
  const uidPrecondition = pre118 ? null : apiUID;
  m.sim.emit("status", "PatchStatus", { pod: ref, uid, version, phase, uidPrecondition, result });
  if (r.err !== null) return;
  if (!r.unchanged && r.pod !== null) pod = r.pod;
  m.apiStatusVersions.set(pod.metadata.uid ?? "", status.version);
  // We don't handle graceful deletion of mirror pods.
  if (!canBeDeleted(m, pod, status.status, status.podIsFinished)) return;
  // The UID precondition keeps a newly created pod with the same name from being deleted.
  const d = yield* client.deletePod(pod.metadata.namespace ?? "", pod.metadata.name, {
    gracePeriodSeconds: 0,
    preconditions: { uid: pod.metadata.uid ?? "" },
  });
  m.sim.emit("status", "DeletePod", { pod: ref, uid, version, phase, uidPrecondition, gracePeriodSeconds: 0, result: d.err === null ? "deleted" : d.err.message });
  if (d.err !== null) return;
  m.deletePodStatus(uid);
}

/** needsUpdate: the status is newer than what the apiserver has, or the pod can now be deleted. */
export function needsUpdate(m: StatusManager, uid: string, status: VersionedPodStatus): boolean {
  const latest = m.apiStatusVersions.get(uid);
  if (latest === undefined || latest < status.version) return true;
  const pod = m.podManager.GetPodByUID(uid);
  if (pod === undefined) return false;
  return canBeDeleted(m, pod, status.status, status.podIsFinished);
}

/**
 * canBeDeleted: the pod is being deleted and nothing of it remains on the node. Up to 1.26 the
 * kubelet is asked (PodResourcesAreReclaimed); from 1.27 the API phase must be terminal and the
 * status must come from the end of SyncTerminatedPod (podIsFinished).
 */
export function canBeDeleted(m: StatusManager, pod: Pod, status: PodStatus, podIsFinished: boolean): boolean {
  if (pod.metadata.deletionTimestamp == null || IsMirrorPod(pod)) return false;
  if (!m.era.batchChannel) return m.podDeletionSafety.PodResourcesAreReclaimed(pod, status);
  // Delay deletion of pods until the phase is terminal.
  if (!IsPodPhaseTerminal(pod.status?.phase)) return false;
  return podIsFinished;
}

/**
 * needsReconcile: the pod manager's copy of the API status (the mirror pod's, for a static pod)
 * differs from the cached one, so the kubelet, the source of truth, must write it again.
 */
export function needsReconcile(m: StatusManager, uid: string, status: PodStatus): boolean {
  let pod = m.podManager.GetPodByUID(uid);
  if (pod === undefined) return false;
  if (IsStaticPod(pod)) {
    pod = m.podManager.GetMirrorPodByPod(pod);
    if (pod === undefined) return false;
  }
  if (podStatusMatches(pod, status, m.era)) return false;
  m.sim.emit("status", "NeedsReconcile", { pod: podRef(pod), uid });
  return true;
}

/**
 * The comparison of needsReconcile: the API pod's status, normalized, against the cached one. Both
 * are frozen, so the answer for a (pod object, status object) pair never changes: it is kept per pod
 * object, because syncBatch asks it for every pod every 10 s and most pods changed neither since.
 */
function podStatusMatches(pod: Pod, status: PodStatus, era: StatusEra): boolean {
  const memo = reconcileMemo.get(pod);
  if (memo !== undefined && memo.status === status) return memo.equal;
  const equal = isPodStatusByKubeletEqual(normalizeStatus(pod, cloneJSON(pod.status ?? {}), era.normalizeEphemeral), status, era);
  if (Object.isFrozen(pod) && Object.isFrozen(status)) reconcileMemo.set(pod, { status, equal });
  return equal;
}

const reconcileMemo = new WeakMap<Pod, { status: PodStatus; equal: boolean }>();

export type PatchResult =
  | { pod: Pod | null; unchanged: boolean; err: null }
  | { pod: null; unchanged: false; err: StatusError };

/**
 * PatchPodStatus. Upstream builds a strategic merge patch from old to new and skips the request
 * when the patch holds nothing but the UID precondition ("unchanged"). Simplified: the patch
 * carries the whole new status, which for the fields modelled here is what applying the
 * strategic merge patch to the stored status yields; "unchanged" is semantic equality.
 */
export function* PatchPodStatus(
  client: StatusClient,
  namespace: string,
  name: string,
  uid: string,
  oldPodStatus: PodStatus,
  newPodStatus: PodStatus,
): Proc<PatchResult> {
  if (semanticDeepEqual(oldPodStatus, newPodStatus)) return { pod: null, unchanged: true, err: null };
  const r = yield* client.patchPodStatus(namespace, name, newPodStatus, uid);
  if (r.err !== null) return { pod: null, unchanged: false, err: r.err };
  return { pod: r.value, unchanged: false, err: null };
}

/**
 * PatchPodStatus before PR #86320 (≈1.18), the variant statusPatchWithoutUIDPrecondition:
 * `PatchPodStatus(c, namespace, name, oldPodStatus, newPodStatus)` sent the two-way diff from the
 * status it had read, with no UID in it, and sent it even when the diff was empty (the check
 * for a patch holding only the UID came with the fix). A pod deleted and recreated under the same
 * name between syncPod's GET and this PATCH receives the diff, and syncPod goes on with the pod
 * the PATCH returned: apiStatusVersions is keyed by the new pod's UID (#82387).
 */
export function* PatchPodStatusWithoutUID(
  client: StatusClient,
  namespace: string,
  name: string,
  oldPodStatus: PodStatus,
  newPodStatus: PodStatus,
): Proc<PatchResult> {
  const r = yield* client.patchPodStatus(namespace, name, newPodStatus, undefined, oldPodStatus);
  if (r.err !== null) return { pod: null, unchanged: false, err: r.err };
  return { pod: r.value, unchanged: false, err: null };
}
