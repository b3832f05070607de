// Models pkg/kubelet/pod_workers.go as of v1.21 and before (the design the seeds show): one
// goroutine per pod fed through a channel of capacity 1, isWorking, and lastUndeliveredWorkUpdate
// with its kill-pinning rule (race R05). Replaced in v1.22 by pod_workers.ts.
import { recv, recvCase, select, type Chan, type Proc, type Sim } from "../sim/index.ts";
import { emptyPodStatus } from "./container/cache.ts";
import type { Pod, PodStatus as APIPodStatus } from "../k8s/pod.ts";
import type { PodStatus } from "./container/runtime.ts";
import { SyncPodKill, type GoError, type SyncPodType } from "./types.ts";
import { WorkQueue } from "./util/queue.ts";
import { jitterMs } from "./util/jitter.ts";
import type { EventRecorder, PodCacheReader } from "./pod_workers_types.ts";

/** PodStatusFunc: the status to set when a pod is killed (an eviction's reason, say). */
export type PodStatusFunc = (pod: Pod, podStatus: PodStatus) => APIPodStatus;

export interface KillPodOptions {
  PodStatusFunc: PodStatusFunc;
  PodTerminationGracePeriodSecondsOverride?: number;
}

export interface LegacyUpdatePodOptions {
  Pod: Pod;
  MirrorPod?: Pod;
  UpdateType: SyncPodType;
  /** Not guaranteed to be called: an update may be dropped while the worker is busy. */
  OnCompleteFunc?: (err: GoError) => void;
  KillPodOptions?: KillPodOptions;
}

export interface LegacySyncPodOptions {
  mirrorPod?: Pod;
  pod: Pod;
  updateType: SyncPodType;
  podStatus: PodStatus;
  killPodOptions?: KillPodOptions;
}

export type LegacySyncPodFn = (o: LegacySyncPodOptions) => Proc<GoError>;

// jitter factors and the transient-error back-off, as upstream.
const workerResyncIntervalJitterFactor = 0.5;
const workerBackOffPeriodJitterFactor = 0.5;
const backOffOnTransientErrorPeriodMs = 1000;
export const NetworkNotReadyErrorMsg = "network is not ready";

export class LegacyPodWorkers {
  /** One channel per pod UID; the per-pod goroutine ranges over it. */
  private readonly podUpdates = new Map<string, Chan<LegacyUpdatePodOptions>>();
  private readonly isWorking = new Map<string, boolean>();
  private readonly lastUndeliveredWorkUpdate = new Map<string, LegacyUpdatePodOptions>();

  constructor(
    private readonly sim: Sim,
    private readonly syncPodFn: LegacySyncPodFn,
    private readonly recorder: EventRecorder,
    readonly workQueue: WorkQueue,
    private readonly resyncIntervalMs: number,
    private readonly backOffPeriodMs: number,
    private readonly podCache: PodCacheReader,
    private readonly group = "kubelet",
  ) {}

  /**
   * UpdatePod. Upstream holds podLock around a send on a capacity-1 channel that is known to be
   * empty (isWorking was false), so it never blocks: here a plain non-blocking send.
   */
  UpdatePod(options: LegacyUpdatePodOptions): void {
    const uid = options.Pod.metadata.uid!;
    let podUpdates = this.podUpdates.get(uid);
    if (podUpdates === undefined) {
      podUpdates = this.sim.chan<LegacyUpdatePodOptions>(`podUpdates/${uid}`, 1);
      this.podUpdates.set(uid, podUpdates);
      const ch = podUpdates;
      this.sim.go(`podworker/${podRef(options.Pod)}`, () => this.managePodLoop(ch), { group: this.group, daemon: true });
    }
    this.trace("UpdatePod", options);
    if (this.isWorking.get(uid) !== true) {
      this.isWorking.set(uid, true);
      mustSend(podUpdates, options);
      return;
    }
    // if a request to kill a pod is pending, we do not let anything overwrite that request.
    const pending = this.lastUndeliveredWorkUpdate.get(uid);
    if (pending === undefined || pending.UpdateType !== SyncPodKill) {
      this.lastUndeliveredWorkUpdate.set(uid, options);
    } else {
      this.trace("UpdateDropped", options, { pinnedBy: "kill" });
    }
  }

  /**
   * Each worker's slots as they stand (play mode shows them): whether it is working, how many
   * updates wait in its channel (capacity 1), and the update parked in lastUndeliveredWorkUpdate.
   */
  slots(): { uid: string; working: boolean; queued: number; parked: LegacyUpdatePodOptions | null }[] {
    return [...this.podUpdates.keys()].sort(byString).map((uid) => ({
      uid,
      working: this.isWorking.get(uid) === true,
      queued: this.podUpdates.get(uid)!.length,
      parked: this.lastUndeliveredWorkUpdate.get(uid) ?? null,
    }));
  }

  private *managePodLoop(podUpdates: Chan<LegacyUpdatePodOptions>): Proc<void> {
    let lastSyncTimeMs = -1;
    for (;;) {
      const { value: update, ok } = yield* recv(podUpdates);
      if (!ok) return;
      const u = update!;
      const uid = u.Pod.metadata.uid!;
      // Blocks until the cache has an entry newer than the end of the previous sync.
      const [cached, cacheErr] = yield* this.podCache.GetNewerThanWithError(uid, lastSyncTimeMs);
      if (cacheErr !== null) {
        // "This is the legacy event thrown by manage pod loop"; lastSyncTime stays, wrapUp retries.
        this.recorder.Eventf(u.Pod, "Warning", "FailedSync", `error determining status: ${cacheErr.message}`);
        this.trace("StatusError", u, { mode: "sync", err: cacheErr.message });
        u.OnCompleteFunc?.(cacheErr);
        this.wrapUp(uid, cacheErr);
        continue;
      }
      const status = cached ?? emptyPodStatus(uid);
      this.trace("SyncBegin", u, { mode: "sync", statusTimeMs: status.timestampMs ?? null });
      const err = yield* this.syncPodFn({
        mirrorPod: u.MirrorPod,
        pod: u.Pod,
        podStatus: status,
        killPodOptions: u.KillPodOptions,
        updateType: u.UpdateType,
      });
      lastSyncTimeMs = this.sim.nowMs;
      this.trace("SyncEnd", u, { err: err === null ? null : err.message });
      u.OnCompleteFunc?.(err);
      this.wrapUp(uid, err);
    }
  }

  /** Requeue the pod at the resync interval, or with back-off after an error; then deliver any parked update. */
  private wrapUp(uid: string, syncErr: GoError): void {
    const rng = this.sim.rng("podworkers");
    if (syncErr === null) {
      this.workQueue.Enqueue(uid, jitterMs(rng, this.resyncIntervalMs, workerResyncIntervalJitterFactor));
    } else if (syncErr.message.includes(NetworkNotReadyErrorMsg)) {
      this.workQueue.Enqueue(uid, jitterMs(rng, backOffOnTransientErrorPeriodMs, workerBackOffPeriodJitterFactor));
    } else {
      this.workQueue.Enqueue(uid, jitterMs(rng, this.backOffPeriodMs, workerBackOffPeriodJitterFactor));
    }
    this.checkForUpdates(uid);
  }

  private checkForUpdates(uid: string): void {
    const work = this.lastUndeliveredWorkUpdate.get(uid);
    if (work !== undefined) {
      mustSend(this.podUpdates.get(uid)!, work);
      this.lastUndeliveredWorkUpdate.delete(uid);
    } else {
      this.isWorking.set(uid, false);
    }
  }

  private removeWorker(uid: string): void {
    const ch = this.podUpdates.get(uid);
    if (ch === undefined) return;
    ch.close();
    this.podUpdates.delete(uid);
    // The per-pod goroutine could not deliver an undelivered update to a closed channel.
    this.lastUndeliveredWorkUpdate.delete(uid);
  }

  ForgetWorker(uid: string): void {
    this.removeWorker(uid);
  }

  ForgetNonExistingPodWorkers(desiredPods: ReadonlySet<string>): void {
    for (const uid of [...this.podUpdates.keys()].sort()) {
      if (!desiredPods.has(uid)) this.removeWorker(uid);
    }
  }

  /** killPodNow: queue a kill and wait for its completion, or time out after 1.5× grace (min 10 s). */
  *killPodNow(pod: Pod, status: APIPodStatus, gracePeriodOverride?: number): Proc<GoError> {
    const gracePeriod = gracePeriodOverride ?? pod.spec.terminationGracePeriodSeconds ?? 0;
    const timeoutSeconds = Math.max(10, gracePeriod + Math.floor(gracePeriod / 2));
    const done = this.sim.chan<GoError>(`killPodNow/${pod.metadata.uid}`, 1);
    this.UpdatePod({
      Pod: pod,
      UpdateType: SyncPodKill,
      OnCompleteFunc: (err) => void done.offer(err),
      KillPodOptions: { PodStatusFunc: () => status, PodTerminationGracePeriodSecondsOverride: gracePeriodOverride },
    });
    const timeout = this.sim.after(`killPodNow-timeout/${pod.metadata.uid}`, timeoutSeconds * 1000);
    const r = yield* select([recvCase(done), recvCase(timeout)]);
    if (r.index === 0) return (r.value as GoError) ?? null;
    this.recorder.Eventf(pod, "Warning", "ExceededGracePeriod", "Container runtime did not kill the pod within specified grace period.");
    return new Error("timeout waiting to kill pod");
  }

  private trace(kind: string, u: LegacyUpdatePodOptions, extra?: Record<string, unknown>): void {
    this.sim.emit("podworker", kind, { pod: podRef(u.Pod), uid: u.Pod.metadata.uid, updateType: u.UpdateType, ...extra });
  }
}

function podRef(pod: Pod): string {
  return `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`;
}

function mustSend<T>(ch: Chan<T>, v: T): void {
  // The channel is known to be empty here (see UpdatePod); a full one is a model bug, loudly.
  if (!ch.trySend(v)) throw new Error(`pod worker channel ${ch.name} unexpectedly full`);
}

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
