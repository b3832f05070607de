// Models pkg/kubelet/pod_workers.go (v1.22 and after): podWorkerLoop, startPodSync, the static-pod
// start gate and the complete* transitions. UpdatePod and the queries are in pod_workers.ts.
import { recv, type Chan, type Proc, type Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { PodStatus } from "./container/runtime.ts";
import { emptyPodStatus } from "./container/cache.ts";
import { ContextCanceled, IsStaticPod, SyncContext, type GoError, type RunningPod, type SyncPodType } from "./types.ts";
import { PodSyncStatus, type PodStatusFunc, type UpdatePodOptions, type PodWorkerState } from "./pod_sync_status.ts";
import { WorkQueue } from "./util/queue.ts";
import { jitterMs } from "./util/jitter.ts";
import { NetworkNotReadyErrorMsg } from "./pod_workers_legacy.ts";
import type { EventRecorder, PodCacheReader } from "./pod_workers_types.ts";

/** podSyncer: the kubelet's four lifecycle operations. */
export interface PodSyncer {
  SyncPod(ctx: SyncContext, updateType: SyncPodType, pod: Pod, mirrorPod: Pod | undefined, podStatus: PodStatus): Proc<[boolean, GoError]>;
  SyncTerminatingPod(ctx: SyncContext, pod: Pod, podStatus: PodStatus, gracePeriod: number | undefined, podStatusFn: PodStatusFunc | undefined): Proc<GoError>;
  SyncTerminatingRuntimePod(ctx: SyncContext, runningPod: RunningPod): Proc<GoError>;
  SyncTerminatedPod(ctx: SyncContext, pod: Pod, podStatus: PodStatus): Proc<GoError>;
}

interface PodWork {
  WorkType: PodWorkerState;
  Options: UpdatePodOptions;
}

const workerResyncIntervalJitterFactor = 0.5;
const workerBackOffPeriodJitterFactor = 0.5;
const backOffOnTransientErrorPeriodMs = 1000;

export class PodWorkersCore {
  // The state below is read and seeded by the conformance harness, as Go's package tests do.
  /** podsSynced: true once SyncKnownPods ran (all working pods were given to UpdatePod). */
  podsSynced = false;
  readonly podUpdates = new Map<string, Chan<true>>();
  readonly podSyncStatuses = new Map<string, PodSyncStatus>();
  readonly startedStaticPodsByFullname = new Map<string, string>();
  readonly waitingToStartStaticPodsByFullname = new Map<string, string[]>();
  /**
   * 1.22.0-1.22.4: terminatingStaticPodFullnames, the full names of static pods being terminated,
   * which only IsPodForMirrorPodTerminatingByFullName reads; nothing held a new pod back.
   */
  readonly terminatingStaticPodFullnames = new Set<string>();
  /**
   * allowPodStart's static pod rule, "Ensure there is one running static pod with the same full
   * name" (PR #104743: 1.23.0, cherry-picked into 1.22.5 by #106394). Off, a static pod whose
   * manifest changed (a new UID, the same full name) starts while the old one is still terminating
   * (race R04, issue #97722).
   */
  staticPodStartGating = true;
  /**
   * workerChannelFn is exposed for testing to allow unit tests to impose delays in channel
   * communication (upstream's own seam): invoked once each time a new worker starts, it returns the
   * channel the worker reads instead of its podUpdates channel. Never set by the kubelet.
   */
  workerChannelFn: ((uid: string, podUpdates: Chan<true>) => Chan<true>) | null = null;
  /** What `generation` counts. */
  protected changes = 0;

  constructor(
    protected readonly sim: Sim,
    protected readonly podSyncer: PodSyncer,
    protected readonly recorder: EventRecorder,
    readonly workQueue: WorkQueue,
    protected readonly resyncIntervalMs: number,
    protected readonly backOffPeriodMs: number,
    protected readonly podCache: PodCacheReader,
    protected readonly group = "kubelet",
  ) {}

  /**
   * Not upstream: a change count of what housekeeping reads of the workers (kubelet/housekeeping_reuse.ts):
   * which UIDs have a worker, and each one's termination request, termination, finish and restart
   * request (its WorkType and whether SyncKnownPods would act on it). Equal numbers, the same answers.
   * A worker's updates and syncs move it only through those transitions.
   */
  get generation(): number {
    return this.changes;
  }

  protected *podWorkerLoop(podUID: string, podUpdates: Chan<true>): Proc<void> {
    let lastSyncTimeMs = -1;
    for (;;) {
      const { ok: open } = yield* recv(podUpdates);
      if (!open) return;
      const r = this.startPodSync(podUID);
      if (r === null) continue;
      const { ctx, update, canStart, canEverStart } = r;
      if (!canEverStart) return;
      if (!canStart) continue;
      const [isTerminal, err, synced] = yield* this.runWork(ctx, podUID, update, lastSyncTimeMs);
      // Only a sync that ran moves lastSyncTime (a cache error returns before it).
      if (synced) {
        lastSyncTimeMs = this.sim.nowMs;
        this.trace("SyncEnd", podUID, { mode: update.WorkType, err: err === null ? null : err.message });
      }
      let phaseTransition = false;
      if (err === ContextCanceled || err !== null) {
        // cancelled: an update is already queued; other errors: a retry is queued below
      } else if (update.WorkType === "terminated") {
        this.completeTerminated(podUID);
        return;
      } else if (update.WorkType === "terminating") {
        if (update.Options.RunningPod !== undefined) {
          this.completeTerminatingRuntimePod(podUID);
          return;
        }
        this.completeTerminating(podUID);
        phaseTransition = true;
      } else if (isTerminal) {
        this.completeSync(podUID);
        phaseTransition = true;
      }
      this.completeWork(podUID, phaseTransition, err);
    }
  }

  /**
   * One pass of the worker: wait for a fresh cache entry, then the sync method for the work type.
   * Returns [isTerminal, err, synced]: synced is false when the cache held an error for the pod (the
   * PLEG could not read its status), which upstream reports as a FailedSync event and retries.
   */
  private *runWork(ctx: SyncContext, podUID: string, update: PodWork, lastSyncTimeMs: number): Proc<[boolean, GoError, boolean]> {
    const o = update.Options;
    let status: PodStatus | undefined;
    if (o.RunningPod === undefined) {
      const [cached, err] = yield* this.podCache.GetNewerThanWithError(o.Pod!.metadata.uid!, lastSyncTimeMs);
      if (err !== null) {
        // "This is the legacy event thrown by manage pod loop all other events are now dispatched from syncPodFn"
        this.recorder.Eventf(o.Pod!, "Warning", "FailedSync", `error determining status: ${err.message}`);
        this.trace("StatusError", podUID, { mode: update.WorkType, err: err.message });
        return [false, err, false];
      }
      status = cached ?? emptyPodStatus(o.Pod!.metadata.uid!);
    }
    this.trace("SyncBegin", podUID, { mode: update.WorkType, statusTimeMs: status?.timestampMs ?? null });
    switch (update.WorkType) {
      case "terminated":
        return [false, yield* this.podSyncer.SyncTerminatedPod(ctx, o.Pod!, status!), true];
      case "terminating": {
        const gracePeriod = o.KillPodOptions?.PodTerminationGracePeriodSecondsOverride;
        const podStatusFn = this.acknowledgeTerminating(podUID);
        if (o.RunningPod !== undefined) return [false, yield* this.podSyncer.SyncTerminatingRuntimePod(ctx, o.RunningPod), true];
        return [false, yield* this.podSyncer.SyncTerminatingPod(ctx, o.Pod!, status!, gracePeriod, podStatusFn), true];
      }
      default:
        return [...(yield* this.podSyncer.SyncPod(ctx, o.UpdateType, o.Pod!, o.MirrorPod, status!)), true];
    }
  }

  /** startPodSync: consume the pending update, decide whether the pod is (or may be) started. */
  private startPodSync(podUID: string): { ctx: SyncContext; update: PodWork; canStart: boolean; canEverStart: boolean } | null {
    const status = this.podSyncStatuses.get(podUID);
    if (status === undefined) return null; // the worker should exit (the channel is closed next)
    if (status.pendingUpdate === null) {
      status.working = false;
      return null;
    }
    const update: PodWork = { WorkType: status.WorkType(), Options: status.pendingUpdate };
    status.pendingUpdate = null;
    this.podUpdates.get(podUID)?.tryRecv(); // drain: only ever written under the lock
    if (status.ctx === null || status.ctx.err() === ContextCanceled) status.ctx = new SyncContext();
    const ctx = status.ctx;
    const o = update.Options;
    if (status.IsStarted() || (o.RunningPod !== undefined && update.WorkType === "terminating")) {
      status.mergeLastUpdate(o);
      return { ctx, update, canStart: true, canEverStart: true };
    }
    if (o.Pod === undefined) {
      status.mergeLastUpdate(o);
      return { ctx, update, canStart: false, canEverStart: false };
    }
    const [canStart, canEverStart] = this.allowPodStart(o.Pod);
    if (!canEverStart) {
      this.cleanupUnstartedPod(o.Pod, status);
      status.working = false;
      return { ctx, update, canStart, canEverStart };
    }
    if (!canStart) {
      status.pendingUpdate = o; // the only path that does not start: put the change back
      status.working = false;
      return { ctx, update, canStart, canEverStart };
    }
    status.startedAtMs = this.sim.nowMs;
    status.mergeLastUpdate(o);
    return { ctx, update, canStart: true, canEverStart: true };
  }

  /** allowPodStart: static pods with the same full name start one at a time, in arrival order. */
  allowPodStart(pod: Pod): [boolean, boolean] {
    if (!IsStaticPod(pod) || !this.staticPodStartGating) return [true, true];
    const status = this.podSyncStatuses.get(pod.metadata.uid!);
    if (status === undefined || status.IsTerminationRequested()) return [false, false];
    if (!this.allowStaticPodStart(status.fullname, pod.metadata.uid!)) {
      this.workQueue.Enqueue(pod.metadata.uid!, jitterMs(this.rng(), this.backOffPeriodMs, workerBackOffPeriodJitterFactor));
      return [false, true];
    }
    return [true, true];
  }

  private allowStaticPodStart(fullname: string, uid: string): boolean {
    const startedUID = this.startedStaticPodsByFullname.get(fullname);
    if (startedUID !== undefined) return startedUID === uid;
    let waiting = this.waitingToStartStaticPodsByFullname.get(fullname) ?? [];
    for (let i = 0; i < waiting.length; i++) {
      const w = waiting[i]!;
      const s = this.podSyncStatuses.get(w);
      if (s === undefined || s.IsTerminationRequested() || s.IsTerminated()) continue;
      if (w !== uid) {
        this.waitingToStartStaticPodsByFullname.set(fullname, waiting.slice(i));
        return false;
      }
      waiting = waiting.slice(i + 1);
      break;
    }
    if (waiting.length > 0) this.waitingToStartStaticPodsByFullname.set(fullname, waiting);
    else this.waitingToStartStaticPodsByFullname.delete(fullname);
    this.startedStaticPodsByFullname.set(fullname, uid);
    return true;
  }

  private cleanupUnstartedPod(pod: Pod, status: PodSyncStatus): void {
    this.cleanupPodUpdates(pod.metadata.uid!);
    this.changes++;
    status.finished = true;
    status.working = false;
    status.terminatedAtMs = this.sim.nowMs;
    this.forgetStartedStatic(status.fullname, pod.metadata.uid!);
  }

  /** acknowledgeTerminating: from now on no container may start; returns the last kill's PodStatusFunc (statusPostTerminating). */
  private acknowledgeTerminating(podUID: string): PodStatusFunc | undefined {
    const status = this.podSyncStatuses.get(podUID);
    if (status === undefined) return undefined;
    if (status.terminatingAtMs >= 0 && !status.startedTerminating) {
      status.startedTerminating = true;
      this.trace("TerminationStarted", podUID);
    }
    const withFn = status.abnormalTerminations.filter((t) => t.PodStatusFunc !== undefined);
    return withFn[withFn.length - 1]?.PodStatusFunc;
  }

  private completeSync(podUID: string): void {
    const status = this.podSyncStatuses.get(podUID);
    if (status === undefined) return;
    if (status.terminatingAtMs < 0) status.terminatingAtMs = this.sim.nowMs;
    this.changes++;
    status.startedTerminating = true;
    this.trace("TerminationRequested", podUID, { why: "terminal" });
    this.requeueLastPodUpdate(podUID, status);
  }

  private completeTerminating(podUID: string): void {
    const status = this.podSyncStatuses.get(podUID);
    if (status === undefined) return;
    status.terminatedAtMs = this.sim.nowMs;
    this.changes++;
    this.terminatingStaticPodFullnames.delete(status.fullname);
    for (const t of status.abnormalTerminations) {
      if (t.CompletedCh !== undefined && !t.CompletedCh.closed) t.CompletedCh.close();
      t.CompletedCh = undefined;
    }
    this.trace("Terminated", podUID);
    this.requeueLastPodUpdate(podUID, status);
  }

  private completeTerminatingRuntimePod(podUID: string): void {
    this.cleanupPodUpdates(podUID);
    const status = this.podSyncStatuses.get(podUID);
    if (status === undefined) return;
    this.changes++;
    status.terminatedAtMs = this.sim.nowMs;
    status.finished = true;
    status.working = false;
    this.forgetStartedStatic(status.fullname, podUID);
    this.terminatingStaticPodFullnames.delete(status.fullname);
    this.podSyncStatuses.delete(podUID); // a runtime pod is transient: forget it
    this.trace("Finished", podUID, { runtimePod: true });
  }

  private completeTerminated(podUID: string): void {
    this.cleanupPodUpdates(podUID);
    const status = this.podSyncStatuses.get(podUID);
    if (status === undefined) return;
    this.changes++;
    status.finished = true;
    status.working = false;
    this.forgetStartedStatic(status.fullname, podUID);
    this.trace("Finished", podUID);
  }

  /** completeWork: requeue (at once on a phase transition), then run any pending update. */
  private completeWork(podUID: string, phaseTransition: boolean, syncErr: GoError): void {
    let delayMs: number;
    if (phaseTransition) delayMs = 0;
    else if (syncErr === null) delayMs = jitterMs(this.rng(), this.resyncIntervalMs, workerResyncIntervalJitterFactor);
    else if (syncErr.message.includes(NetworkNotReadyErrorMsg)) {
      delayMs = jitterMs(this.rng(), backOffOnTransientErrorPeriodMs, workerBackOffPeriodJitterFactor);
    } else delayMs = jitterMs(this.rng(), this.backOffPeriodMs, workerBackOffPeriodJitterFactor);
    this.workQueue.Enqueue(podUID, delayMs);
    const status = this.podSyncStatuses.get(podUID);
    if (status === undefined) return;
    if (status.pendingUpdate !== null) this.podUpdates.get(podUID)?.offer(true);
    else status.working = false;
  }

  protected cleanupPodUpdates(uid: string): void {
    const ch = this.podUpdates.get(uid);
    if (ch !== undefined && !ch.closed) ch.close();
    this.podUpdates.delete(uid);
  }

  /** requeueLastPodUpdate: replay the active update (if nothing is pending) and wake the worker. */
  protected requeueLastPodUpdate(podUID: string, status: PodSyncStatus): void {
    if (status.pendingUpdate !== null || status.activeUpdate === null) return;
    status.pendingUpdate = { ...status.activeUpdate };
    status.working = true;
    this.podUpdates.get(podUID)?.offer(true);
  }

  protected forgetStartedStatic(fullname: string, uid: string): void {
    if (this.startedStaticPodsByFullname.get(fullname) === uid) this.startedStaticPodsByFullname.delete(fullname);
  }

  protected rng() {
    return this.sim.rng("podworkers");
  }

  protected trace(kind: string, uid: string, extra?: Record<string, unknown>): void {
    const s = this.podSyncStatuses.get(uid);
    const pod = s?.activeUpdate?.Pod ?? s?.pendingUpdate?.Pod;
    const ref = pod === undefined ? undefined : `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`;
    this.sim.emit("podworker", kind, { pod: ref, uid, ...extra });
  }
}
