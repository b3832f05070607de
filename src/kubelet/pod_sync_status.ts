// Models pkg/kubelet/pod_workers.go (v1.22 and after): podSyncStatus, the one-way state machine
// syncing → terminating → terminated → finished, mergeLastUpdate and calculateEffectiveGracePeriod.
import type { Chan } from "../sim/index.ts";
import type { Pod, PodStatus as APIPodStatus } from "../k8s/pod.ts";
import { SyncPodSync, type RunningPod, type SyncContext, type SyncPodType } from "./types.ts";

/**
 * PodStatusFunc is invoked (if set) and overrides the status of the pod at the time the pod is
 * killed: it changes the status generated from the latest state in place (an eviction sets phase
 * Failed, reason Evicted and its message).
 */
export type PodStatusFunc = (podStatus: APIPodStatus) => void;

/** KillPodOptions are options when performing a pod update whose update type is kill. */
export interface KillPodOptions {
  /** Closed when the kill completes (syncTerminatingPod succeeded) or the pod is already terminated. */
  CompletedCh?: Chan<void>;
  /** A pod triggered eviction: once a pod is evicted some resources are more aggressively reaped. */
  Evict?: boolean;
  PodStatusFunc?: PodStatusFunc;
  /** An optional override of the grace period for this kill. */
  PodTerminationGracePeriodSecondsOverride?: number;
}

export interface UpdatePodOptions {
  UpdateType: SyncPodType;
  Pod?: Pod;
  MirrorPod?: Pod;
  /** A runtime pod no longer in config: it can only be killed. */
  RunningPod?: RunningPod;
  KillPodOptions?: KillPodOptions;
}

/** PodWorkerState: sync, terminating, terminated. */
export type PodWorkerState = "sync" | "terminating" | "terminated";

/** Times are virtual ms; -1 plays Go's zero time.Time. */
export class PodSyncStatus {
  ctx: SyncContext | null = null;
  working = false;
  pendingUpdate: UpdatePodOptions | null = null;
  activeUpdate: UpdatePodOptions | null = null;
  syncedAtMs = -1;
  startedAtMs = -1;
  terminatingAtMs = -1;
  terminatedAtMs = -1;
  gracePeriod = 0;
  abnormalTerminations: KillPodOptions[] = [];
  startedTerminating = false;
  deleted = false;
  evicted = false;
  finished = false;
  restartRequested = false;
  observedRuntime = false;

  constructor(readonly fullname: string) {}

  IsWorking(): boolean {
    return this.working;
  }
  IsTerminationRequested(): boolean {
    return this.terminatingAtMs >= 0;
  }
  IsTerminationStarted(): boolean {
    return this.startedTerminating;
  }
  IsTerminated(): boolean {
    return this.terminatedAtMs >= 0;
  }
  IsFinished(): boolean {
    return this.finished;
  }
  IsEvicted(): boolean {
    return this.evicted;
  }
  IsDeleted(): boolean {
    return this.deleted;
  }
  IsStarted(): boolean {
    return this.startedAtMs >= 0;
  }

  WorkType(): PodWorkerState {
    if (this.IsTerminated()) return "terminated";
    if (this.IsTerminationRequested()) return "terminating";
    return "sync";
  }

  /**
   * mergeLastUpdate: Pod and MirrorPod are replaced by newer ones (a RunningPod never replaces a
   * real Pod); KillPodOptions accumulate, because a grace period may never grow back. The update
   * type is not merged: the active update keeps Go's zero value, SyncPodSync, so a replayed update
   * (requeueLastPodUpdate) syncs as SyncPodSync, whatever the last update's type was.
   */
  mergeLastUpdate(other: UpdatePodOptions): void {
    const opts = this.activeUpdate ?? { UpdateType: SyncPodSync };
    this.activeUpdate = opts;
    if (opts.Pod === undefined || other.RunningPod === undefined) opts.Pod = other.Pod;
    opts.RunningPod = other.RunningPod;
    if (other.MirrorPod !== undefined) opts.MirrorPod = other.MirrorPod;
    if (other.KillPodOptions !== undefined) {
      const merged: KillPodOptions = {};
      if (other.KillPodOptions.Evict === true) merged.Evict = true;
      if (other.KillPodOptions.PodTerminationGracePeriodSecondsOverride !== undefined) {
        merged.PodTerminationGracePeriodSecondsOverride = other.KillPodOptions.PodTerminationGracePeriodSecondsOverride;
      }
      opts.KillPodOptions = merged;
    }
  }
}

/**
 * calculateEffectiveGracePeriod: the grace period can only decrease. The apiserver's
 * deletionGracePeriodSeconds is bedrock truth; a kubelet-internal kill may ask for less; with no
 * request, the pod's terminationGracePeriodSeconds; never below 1.
 * Returns [gracePeriod, shortened].
 */
export function calculateEffectiveGracePeriod(
  status: Pick<PodSyncStatus, "gracePeriod">,
  pod: Pod,
  options: KillPodOptions | undefined,
): [number, boolean] {
  let gracePeriod = status.gracePeriod;
  let overridden = false;
  const deletionGrace = pod.metadata.deletionGracePeriodSeconds;
  if (deletionGrace !== undefined && deletionGrace !== null) {
    if (gracePeriod === 0 || deletionGrace < gracePeriod) {
      gracePeriod = deletionGrace;
      overridden = true;
    }
  }
  const override = options?.PodTerminationGracePeriodSecondsOverride;
  if (override !== undefined) {
    if (gracePeriod === 0 || override < gracePeriod) {
      gracePeriod = override;
      overridden = true;
    }
  }
  const specGrace = pod.spec.terminationGracePeriodSeconds;
  if (!overridden && gracePeriod === 0 && specGrace !== undefined && specGrace !== null) {
    gracePeriod = specGrace;
  }
  if (gracePeriod < 1) gracePeriod = 1;
  return [gracePeriod, status.gracePeriod !== 0 && status.gracePeriod !== gracePeriod];
}
