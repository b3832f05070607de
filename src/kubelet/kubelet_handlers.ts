// Models pkg/kubelet/kubelet.go (HandlePodAdditions/Updates/Removes/Reconcile/Syncs,
// getPodsToSync, deletePod, rejectPod) and kubelet_pods.go (HandlePodCleanups,
// filterOutInactivePods) of the current kubelet (v1.22 and after), where the pod workers own the
// lifecycle.
import type { Proc } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { PodStatus } from "./container/runtime.ts";
import { IsStaticPod, SyncPodCreate, SyncPodKill, SyncPodSync, SyncPodUpdate, type GoError, type RunningPod } from "./types.ts";
import { isPodPhaseTerminal, sortByCreationTime, type KubeletCore } from "./kubelet_core.ts";
import type { PodWorkers } from "./pod_workers.ts";
import type { SyncHandler } from "./kubelet.ts";
import { HousekeepingReuse, type Generations, type KnownPods } from "./housekeeping_reuse.ts";

export class KubeletHandlers implements SyncHandler {
  constructor(
    private readonly kl: KubeletCore,
    private readonly podWorkers: PodWorkers,
  ) {}

  HandlePodAdditions(pods: Pod[]): void {
    for (const added of sortByCreationTime(pods)) {
      this.kl.podManager.AddPod(added);
      const [pod, mirrorPod, wasMirror] = this.kl.podManager.GetPodAndMirrorPod(added);
      if (wasMirror) {
        if (pod !== undefined) this.podWorkers.UpdatePod({ Pod: pod, MirrorPod: mirrorPod, UpdateType: SyncPodUpdate });
        continue;
      }
      const uid = pod!.metadata.uid!;
      // Admission only for pods not already terminating; from #126343 (race R14) not for pods
      // already in a terminal phase either, which a kubelet restart would otherwise re-admit.
      const skipTerminal = this.kl.skipsAdmissionOfTerminalPods && isPodPhaseTerminal(pod!.status?.phase);
      if (!this.podWorkers.IsPodTerminationRequested(uid) && !skipTerminal) {
        const allocated = this.getAllocatedPods().filter((p) => p.metadata.uid !== uid);
        const r = this.kl.canAdmitPod(allocated, pod!);
        if (!r.Admit) {
          this.rejectPod(pod!, r.Reason, r.Message);
          continue;
        }
      }
      this.podWorkers.UpdatePod({ Pod: pod!, MirrorPod: mirrorPod, UpdateType: SyncPodCreate });
    }
  }

  HandlePodUpdates(pods: Pod[]): void {
    for (const updated of pods) {
      this.kl.podManager.UpdatePod(updated);
      const [pod, mirrorPod, wasMirror] = this.kl.podManager.GetPodAndMirrorPod(updated);
      if (wasMirror && pod === undefined) continue;
      this.podWorkers.UpdatePod({ Pod: pod!, MirrorPod: mirrorPod, UpdateType: SyncPodUpdate });
    }
  }

  *HandlePodRemoves(pods: Pod[]): Proc<void> {
    for (const removed of pods) {
      this.kl.podManager.RemovePod(removed);
      const [pod, mirrorPod, wasMirror] = this.kl.podManager.GetPodAndMirrorPod(removed);
      if (wasMirror) {
        if (pod !== undefined) this.podWorkers.UpdatePod({ Pod: pod, MirrorPod: mirrorPod, UpdateType: SyncPodUpdate });
        continue;
      }
      // Deletion may fail: housekeeping will try again.
      const err = this.deletePod(pod!);
      if (err !== null) this.kl.emit("DeletePodFailed", pod, { err: err.message });
    }
  }

  /** Reconcile: only the API status changed. NeedToReconcilePodReadiness is simplified to "never". */
  HandlePodReconcile(pods: Pod[]): void {
    for (const pod of pods) this.kl.podManager.UpdatePod(pod);
  }

  HandlePodSyncs(pods: Pod[]): void {
    for (const p of pods) {
      const [pod, mirrorPod, wasMirror] = this.kl.podManager.GetPodAndMirrorPod(p);
      if (wasMirror) continue; // "Programmer error, HandlePodSyncs does not expect to receive mirror pods"
      this.podWorkers.UpdatePod({ Pod: pod!, MirrorPod: mirrorPod, UpdateType: SyncPodSync });
    }
  }

  /** getPodsToSync (kubelet_core.ts). */
  getPodsToSync(): Pod[] {
    return this.kl.getPodsToSync();
  }

  /** When an evicted or deleted pod has already synced, all containers can be removed. */
  shouldRemoveAllDeadContainers(uid: string, _podStatus: PodStatus): boolean {
    return this.podWorkers.ShouldPodContentBeRemoved(uid);
  }

  private deletePod(pod: Pod): GoError {
    if (!this.kl.sourcesReady.AllReady()) return new Error("skipping delete because sources aren't ready yet");
    this.podWorkers.UpdatePod({ Pod: pod, UpdateType: SyncPodKill });
    return null;
  }

  private rejectPod(pod: Pod, reason: string, message: string): void {
    this.kl.deps.recorder.Eventf(pod, "Warning", reason, message);
    this.kl.deps.statusManager.SetPodStatus(pod, { phase: "Failed", reason, message: `Pod was rejected: ${message}` });
    this.kl.emit("RejectPod", pod, { reason, message });
  }

  /** getAllocatedPods ≈ the active pods: admitted, not known terminated, not terminal unless terminating. */
  getAllocatedPods(): Pod[] {
    return this.filterOutInactivePods(this.kl.podManager.GetPods());
  }

  private filterOutInactivePods(pods: readonly Pod[]): Pod[] {
    return pods.filter((p) => {
      const uid = p.metadata.uid!;
      if (this.podWorkers.IsPodKnownTerminated(uid)) return false;
      return !(this.isAdmittedPodTerminal(p) && !this.podWorkers.IsPodTerminationRequested(uid));
    });
  }

  private isAdmittedPodTerminal(pod: Pod): boolean {
    const status = this.kl.deps.statusManager.GetPodStatus(pod.metadata.uid!) ?? pod.status;
    return isPodPhaseTerminal(status?.phase);
  }

  /**
   * HandlePodCleanups: sync the pod workers with the desired pods, stop probes of pods that cannot
   * run, drop orphaned statuses, restart desired pods the workers no longer know (UID reuse), and
   * kill runtime pods nobody knows. Simplified: no cgroup, volume directory, mirror pod or user
   * namespace cleanup (not modelled). What a quiet pass derives around its runtime calls is kept
   * while its inputs are unchanged (housekeeping_reuse.ts): the same records, the same choices.
   */
  *HandlePodCleanups(): Proc<GoError> {
    const { deps, runtimeCache, sim } = this.kl;
    const known = this.reuse.knownPods(this.generations, this.computeKnownPods);
    const err = yield* runtimeCache.ForceUpdateIfOlder(sim.nowMs);
    if (err !== null) return err;
    const [runningRuntimePods, listErr] = yield* runtimeCache.GetPods();
    if (listErr !== null) return listErr;
    this.reuse.cleanupPods(known, () => deps.probeManager.generation, () => deps.probeManager.CleanupPods(known.possiblyRunning));
    this.reuse.removeOrphanedStatuses(known, () => deps.statusManager.generation, () => deps.statusManager.RemoveOrphanedStatuses(known.allPodUIDs));
    if (!known.everyDesiredKnown) this.restartUnknownPods(known);
    this.reuse.killOrphans(known, runningRuntimePods, () => this.killOrphanedRuntimePods(known, runningRuntimePods));
    deps.backOffGC();
    return null;
  }

  private readonly reuse = new HousekeepingReuse();

  /** The generations HousekeepingReuse compares. */
  private readonly generations = (): Generations => ({
    pods: this.kl.podManager.generation,
    workers: this.podWorkers.generation,
    probes: this.kl.deps.probeManager.generation,
    statuses: this.kl.deps.statusManager.generation,
  });

  /** HandlePodCleanups' first steps: SyncKnownPods, and upstream's allPodsByUID, built once and read twice (orphaned statuses, orphaned runtime pods). */
  private readonly computeKnownPods = (): KnownPods => {
    const allPods = this.kl.podManager.GetPods();
    const workingPods = this.podWorkers.SyncKnownPods(allPods);
    const allPodUIDs = new Set<string>();
    let everyDesiredKnown = true;
    for (const p of allPods) {
      allPodUIDs.add(p.metadata.uid!);
      if (!workingPods.has(p.metadata.uid!)) everyDesiredKnown = false;
    }
    const possiblyRunning = new Set<string>();
    for (const [uid, sync] of workingPods) if (sync.State !== "terminated") possiblyRunning.add(uid);
    return { allPods, workingPods, allPodUIDs, possiblyRunning, everyDesiredKnown };
  };

  /**
   * Restart desired pods the workers no longer know. Upstream filters every desired pod
   * (filterOutInactivePods) and then skips the known ones; the filter is a pure read per pod, so it
   * is asked of the unknown ones alone, in the same order.
   */
  private restartUnknownPods(known: KnownPods): void {
    const { podManager } = this.kl;
    for (const desired of this.filterOutInactivePods(known.allPods.filter((p) => !known.workingPods.has(p.metadata.uid!)))) {
      const [pod, mirrorPod, wasMirror] = podManager.GetPodAndMirrorPod(desired);
      if (pod === undefined || wasMirror) continue;
      this.kl.emit("RestartPodNotKnownToWorkers", pod, { static: IsStaticPod(pod) });
      this.podWorkers.UpdatePod({ UpdateType: SyncPodCreate, Pod: pod, MirrorPod: mirrorPod });
    }
  }

  /** Kill the runtime pods no worker drives; returns how many. */
  private killOrphanedRuntimePods(known: KnownPods, runningRuntimePods: readonly RunningPod[]): number {
    let killed = 0;
    for (const runningPod of runningRuntimePods) {
      const w = known.workingPods.get(runningPod.id);
      if (this.podWorkers.orphansDrivenByHousekeeping) {
        // 1.27+: pods the workers know are theirs to drive, orphaned or not.
        if (w !== undefined) continue;
      } else if ((w !== undefined && (w.State === "sync" || w.State === "terminating")) || known.allPodUIDs.has(runningPod.id)) {
        // 1.22–1.26: a worker syncing or terminating the pod is in charge; one not in the config is killed.
        continue;
      }
      this.kl.emit("KillOrphanedRuntimePod", undefined, { uid: runningPod.id, name: `${runningPod.namespace}/${runningPod.name}` });
      this.podWorkers.UpdatePod({ UpdateType: SyncPodKill, RunningPod: runningPod, KillPodOptions: { PodTerminationGracePeriodSecondsOverride: 1 } });
      killed++;
    }
    return killed;
  }
}
