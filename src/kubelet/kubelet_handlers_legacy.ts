// Models pkg/kubelet/kubelet.go and kubelet_pods.go as of v1.21 and before: the handlers,
// dispatchWork with its terminal-status shortcut, deletePod through the runtime cache, the
// podKiller goroutine, and HandlePodCleanups reading the (possibly stale) runtime cache.
import { recv, send, type Chan, type Proc } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { IsMirrorPod, SyncPodCreate, SyncPodSync, SyncPodUpdate, type GoError, type RunningPod, type SyncPodType } from "./types.ts";
import { sortByCreationTime, type KubeletCore } from "./kubelet_core.ts";
import type { LegacyPodWorkers } from "./pod_workers_legacy.ts";
import { notRunning, type LegacyKubeletSyncer } from "./kubelet_sync_legacy.ts";
import type { PodStatus } from "./container/runtime.ts";
import type { SyncHandler } from "./kubelet.ts";
import { atLeast, type VersionLike } from "./version.ts";

/** dispatchWork's shortcut: whether a pod the status says is terminal skips the pod worker (#98742 at 1.21.0). */
export function dispatchSkipsTerminalPod(version: VersionLike, podWorkerTerminal: boolean, containersTerminal: boolean): boolean {
  return atLeast(version, "1.21") ? podWorkerTerminal && containersTerminal : podWorkerTerminal;
}

/** podKillingChannelCapacity */
const podKillingChannelCapacity = 50;

interface PodPair {
  APIPod: Pod | undefined;
  RunningPod: RunningPod;
}

export class LegacyKubeletHandlers implements SyncHandler {
  private readonly podKillingCh: Chan<PodPair>;
  private readonly podsBeingKilled = new Set<string>();

  constructor(
    private readonly kl: KubeletCore,
    private readonly podWorkers: LegacyPodWorkers,
    private readonly syncer: LegacyKubeletSyncer,
  ) {
    this.podKillingCh = kl.sim.chan<PodPair>("podKillingCh", podKillingChannelCapacity);
  }

  /** The podKiller goroutine (podKillerWithChannel.PerformPodKillingWork). */
  Start(): void {
    this.kl.sim.go("kubelet/podKiller", () => this.performPodKillingWork(), { group: "kubelet", daemon: true });
  }

  HandlePodAdditions(pods: Pod[]): void {
    for (const pod of sortByCreationTime(pods)) {
      const existingPods = this.kl.podManager.GetPods();
      this.kl.podManager.AddPod(pod);
      if (IsMirrorPod(pod)) continue; // handleMirrorPod: mirror pods are not modelled beyond bookkeeping
      if (!this.syncer.podIsTerminated(pod)) {
        const activePods = existingPods.filter((p) => !this.syncer.podIsTerminated(p));
        const r = this.kl.canAdmitPod(activePods, pod);
        if (!r.Admit) {
          this.rejectPod(pod, r.Reason, r.Message);
          continue;
        }
      }
      const [, mirrorPod] = this.kl.podManager.GetPodAndMirrorPod(pod);
      this.dispatchWork(pod, SyncPodCreate, mirrorPod);
      this.kl.deps.probeManager.AddPod(pod);
    }
  }

  HandlePodUpdates(pods: Pod[]): void {
    for (const pod of pods) {
      this.kl.podManager.UpdatePod(pod);
      if (IsMirrorPod(pod)) continue;
      const [, mirrorPod] = this.kl.podManager.GetPodAndMirrorPod(pod);
      this.dispatchWork(pod, SyncPodUpdate, mirrorPod);
    }
  }

  *HandlePodRemoves(pods: Pod[]): Proc<void> {
    for (const pod of pods) {
      this.kl.podManager.RemovePod(pod);
      if (IsMirrorPod(pod)) continue;
      // Deletion may fail: the periodic cleanup will trigger it again.
      const err = yield* this.deletePod(pod);
      if (err !== null) this.kl.emit("DeletePodFailed", pod, { err: err.message });
      this.kl.deps.probeManager.RemovePod(pod);
    }
  }

  HandlePodReconcile(pods: Pod[]): void {
    for (const pod of pods) this.kl.podManager.UpdatePod(pod);
  }

  HandlePodSyncs(pods: Pod[]): void {
    for (const pod of pods) {
      const [, mirrorPod] = this.kl.podManager.GetPodAndMirrorPod(pod);
      this.dispatchWork(pod, SyncPodSync, mirrorPod);
    }
  }

  getPodsToSync(): Pod[] {
    return this.kl.getPodsToSync();
  }

  /**
   * cleanUpContainersInPod (v1.21): all dead containers may go once the pod was evicted, or is
   * deleted and none of its containers runs (judged from a status generated off the cache).
   */
  shouldRemoveAllDeadContainers(uid: string, podStatus: PodStatus): boolean {
    const pod = this.kl.podManager.GetPodByUID(uid);
    if (pod === undefined) return false;
    if (pod.status?.reason === "Evicted" && pod.status.phase === "Failed") return true;
    const apiStatus = this.kl.deps.statusGenerator.generateAPIPodStatus(pod, podStatus, false);
    return !!pod.metadata.deletionTimestamp && notRunning(apiStatus.containerStatuses ?? []);
  }

  /** dispatchWork (v1.21): terminal pods go to TerminatePod, finished ones are ignored, others to the worker. */
  private dispatchWork(pod: Pod, syncType: SyncPodType, mirrorPod: Pod | undefined): void {
    const [containersTerminal, podWorkerTerminal] = this.syncer.podAndContainersAreTerminal(pod);
    if (pod.metadata.deletionTimestamp && containersTerminal) {
      this.kl.emit("DispatchTerminatePod", pod, { syncType });
      this.kl.deps.statusManager.TerminatePod(pod);
      return;
    }
    // "optimization: avoid invoking the pod worker if no further changes are possible to the pod
    // definition". Up to 1.20 a terminal phase alone skipped the worker, even while containers
    // still ran (issue #98718: activeDeadlineSeconds left a Failed pod's container running); PR
    // #98742 (merged Feb 2021, first in v1.21.0) added "(i.e. the pod has completed and its
    // containers have been terminated)". Race R05's dropped update is never retried under 1.20.
    if (dispatchSkipsTerminalPod(this.kl.config.version, podWorkerTerminal, containersTerminal)) {
      this.kl.emit("DispatchIgnored", pod, { syncType, why: "pod has completed" });
      return;
    }
    this.podWorkers.UpdatePod({ Pod: pod, MirrorPod: mirrorPod, UpdateType: syncType });
  }

  /**
   * deletePod (v1.21): forget the worker, then kill through the podKiller if the runtime cache
   * (possibly stale, refreshed inside syncLoop) lists the pod. Simplification: the
   * ForceUpdateIfOlder(lastContainerStartedTime) refresh is not modelled.
   */
  private *deletePod(pod: Pod): Proc<GoError> {
    if (!this.kl.sourcesReady.AllReady()) return new Error("skipping delete because sources aren't ready yet");
    this.podWorkers.ForgetWorker(pod.metadata.uid!);
    const [runningPods, err] = yield* this.kl.runtimeCache.GetPods();
    if (err !== null) return err;
    const runningPod = runningPods.find((p) => p.id === pod.metadata.uid);
    if (runningPod === undefined) return new Error("pod not found");
    yield* send(this.podKillingCh, { APIPod: pod, RunningPod: runningPod });
    return null;
  }

  private *performPodKillingWork(): Proc<void> {
    for (;;) {
      const { value: pair, ok } = yield* recv(this.podKillingCh);
      if (!ok) return;
      const uid = pair!.RunningPod.id;
      if (this.podsBeingKilled.has(uid)) continue;
      this.podsBeingKilled.add(uid);
      this.kl.sim.go(`kubelet/podKiller/${pair!.RunningPod.name}`, () => this.killOne(pair!), { group: "kubelet" });
    }
  }

  private *killOne(pair: PodPair): Proc<void> {
    const apiPod: Pod = pair.APIPod ?? {
      metadata: { name: pair.RunningPod.name, namespace: pair.RunningPod.namespace, uid: pair.RunningPod.id },
      spec: { containers: [{ name: "orphan" }] },
    };
    this.kl.emit("PodKillerKill", apiPod);
    // An orphan has no API pod: the runtime manager restores grace and hooks from labels.
    const err = yield* this.syncer.killPod(pair.APIPod ?? null, pair.RunningPod, undefined, undefined);
    if (err !== null) this.kl.emit("PodKillerFailed", apiPod, { err: err.message });
    this.podsBeingKilled.delete(pair.RunningPod.id);
  }

  private rejectPod(pod: Pod, reason: string, message: string): void {
    this.kl.deps.recorder.Eventf(pod, "Warning", reason, message);
    this.kl.deps.statusManager.SetPodStatus(pod, { phase: "Failed", reason, message: `Pod was rejected: ${message}` });
    this.kl.emit("RejectPod", pod, { reason, message });
  }

  /**
   * HandlePodCleanups (v1.21): workers of pods that are not active are forgotten, and running pods
   * (from the runtime cache, possibly stale) that are not desired go to the podKiller.
   * Simplified: no orphaned volume directories, mirror pods or cgroups.
   */
  *HandlePodCleanups(): Proc<GoError> {
    const allPods = this.kl.podManager.GetPods();
    const activePods = allPods.filter((p) => !this.syncer.podIsTerminated(p));
    const desired = new Set(activePods.map((p) => p.metadata.uid!));
    this.podWorkers.ForgetNonExistingPodWorkers(desired);
    this.kl.deps.probeManager.CleanupPods(desired);
    const [runningPods, err] = yield* this.kl.runtimeCache.GetPods();
    if (err !== null) return err;
    for (const rp of runningPods) {
      if (!desired.has(rp.id)) yield* send(this.podKillingCh, { APIPod: undefined, RunningPod: rp });
    }
    this.kl.deps.statusManager.RemoveOrphanedStatuses(new Set(allPods.map((p) => p.metadata.uid!)));
    yield* this.cleanupOrphanedPodCgroups(desired);
    this.kl.deps.backOffGC();
    return null;
  }

  /**
   * cleanupOrphanedPodCgroups (v1.21): the cgroup of a pod that is not active goes once its
   * volumes are unmounted. Upstream destroys it in a goroutine; here inline (one timed step).
   */
  private *cleanupOrphanedPodCgroups(activePods: ReadonlySet<string>): Proc<void> {
    const setup = this.syncer.setup;
    for (const uid of setup.cgroupPods()) {
      if (activePods.has(uid) || setup.volumesExist(uid)) continue;
      yield* setup.destroyCgroupOf(uid);
    }
  }
}
