// Models pkg/kubelet/pod_workers.go (v1.22 and after, "Keep pod worker running until pod is truly
// complete"): UpdatePod, the queries other components ask (CouldHaveRunningContainers,
// ShouldPod*), SyncKnownPods and killPodNow. The loop is in pod_worker_loop.ts.
import { recvCase, select, type Proc, type Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { IsStaticPod, SyncPodCreate, SyncPodKill, type GoError } from "./types.ts";
import { calculateEffectiveGracePeriod, PodSyncStatus, type KillPodOptions, type PodStatusFunc, type UpdatePodOptions, type PodWorkerState } from "./pod_sync_status.ts";
import type { EventRecorder } from "./pod_workers_types.ts";
import { PodWorkersCore } from "./pod_worker_loop.ts";
import type { PodStatus } from "./container/runtime.ts";

export interface PodWorkerSync {
  State: PodWorkerState;
  Orphan: boolean;
  HasConfig: boolean;
  Static: boolean;
}

export class PodWorkers extends PodWorkersCore {
  /**
   * Whether a create for a UID that is terminating sets restartRequested (PR #104847, 1.22.3 and
   * 1.23). Off is variant terminatedUIDCannotReenter: 1.22.0–1.22.2, where such a create was one
   * more update of the terminating pod (a kill) and the finished UID could not reenter until
   * housekeeping purged it, which it never does while the pod is desired (race R03, issue #104648).
   */
  restartOnUIDReuse = true;
  /**
   * ≥1.27 (PR #113145): housekeeping drives orphaned workers: SyncKnownPods starts the termination
   * of an orphan still running and replays the last update to one already terminating, and
   * HandlePodCleanups kills only runtime pods no worker knows. Before (1.22–1.26) an orphaned worker
   * that is not finished is left alone, and a force-deleted pod whose terminating sync failed
   * waited for a retry the sync loop never delivers, as it looks pods up in the pod manager
   * (race R24).
   */
  orphansDrivenByHousekeeping = true;

  IsPodKnownTerminated(uid: string): boolean {
    return this.podSyncStatuses.get(uid)?.IsTerminated() ?? false;
  }
  CouldHaveRunningContainers(uid: string): boolean {
    const s = this.podSyncStatuses.get(uid);
    return s !== undefined ? !s.IsTerminated() : !this.podsSynced;
  }
  ShouldPodBeFinished(uid: string): boolean {
    const s = this.podSyncStatuses.get(uid);
    return s !== undefined ? s.IsFinished() : this.podsSynced;
  }
  IsPodTerminationRequested(uid: string): boolean {
    return this.podSyncStatuses.get(uid)?.IsTerminationRequested() ?? false;
  }
  ShouldPodContainersBeTerminating(uid: string): boolean {
    const s = this.podSyncStatuses.get(uid);
    return s !== undefined ? s.IsTerminationStarted() : this.podsSynced;
  }
  ShouldPodRuntimeBeRemoved(uid: string): boolean {
    const s = this.podSyncStatuses.get(uid);
    return s !== undefined ? s.IsTerminated() : this.podsSynced;
  }
  ShouldPodContentBeRemoved(uid: string): boolean {
    const s = this.podSyncStatuses.get(uid);
    return s !== undefined ? s.IsEvicted() || (s.IsDeleted() && s.IsTerminated()) : this.podsSynced;
  }
  IsPodForMirrorPodTerminatingByFullName(podFullName: string): boolean {
    if (!this.staticPodStartGating) return this.terminatingStaticPodFullnames.has(podFullName);
    const uid = this.startedStaticPodsByFullname.get(podFullName);
    const s = uid === undefined ? undefined : this.podSyncStatuses.get(uid);
    return s !== undefined && s.IsTerminationRequested() && !s.IsTerminated();
  }

  /**
   * UpdatePod carries a config change or a termination to a pod. A pod becomes terminating when it
   * is deleted in the apiserver, reaches a terminal phase, or is killed by the kubelet; from then on
   * every update is a kill and the grace period only shortens. Never blocks (podLock is held
   * upstream only around non-blocking work).
   */
  UpdatePod(options: UpdatePodOptions): void {
    // Object.assign, not a spread: on Node 20's V8 a spread copy of a fresh object is slow to add
    // properties to (about 1 µs each), and KillPodOptions and RunningPod are set below.
    const o: UpdatePodOptions = Object.assign({}, options);
    const isRuntimePod = o.RunningPod !== undefined && o.Pod === undefined;
    if (o.RunningPod !== undefined && !isRuntimePod) o.RunningPod = undefined;
    if (isRuntimePod && o.UpdateType !== SyncPodKill) return; // runtime pods can only be killed
    const uid = isRuntimePod ? o.RunningPod!.id : o.Pod!.metadata.uid!;
    const [firstTime, status] = this.statusFor(uid, o);
    let pod = o.Pod;
    if (isRuntimePod) pod = this.adoptRuntimePod(status, o);
    // The same UID created again while terminating: restart after termination (static pods, R03).
    if (this.restartOnUIDReuse && !firstTime && status.IsTerminationRequested() && o.UpdateType === SyncPodCreate) {
      this.changes++;
      status.restartRequested = true;
      this.traceUpdate("RestartRequested", uid, o);
      return;
    }
    if (status.IsFinished()) {
      this.traceUpdate("UpdateIgnored", uid, o, { why: "finished" });
      return;
    }
    const becameTerminating = this.checkTerminating(status, pod, o, isRuntimePod);
    const shortened = this.applyKillOptions(status, pod, o, isRuntimePod);
    if (shortened === null) return;
    this.ensureWorker(uid, status, pod);
    status.pendingUpdate = o;
    status.working = true;
    this.traceUpdate("UpdatePod", uid, o, { workType: status.WorkType() });
    this.podUpdates.get(uid)?.offer(true);
    if ((becameTerminating || shortened) && status.ctx !== null) {
      this.traceUpdate("CancelSync", uid, o);
      status.ctx.cancel();
    }
  }

  private statusFor(uid: string, o: UpdatePodOptions): [boolean, PodSyncStatus] {
    let status = this.podSyncStatuses.get(uid);
    if (status !== undefined) return [false, status];
    const name = o.Pod?.metadata.name ?? o.RunningPod!.name;
    const ns = o.Pod?.metadata.namespace ?? o.RunningPod!.namespace;
    status = new PodSyncStatus(`${name}_${ns}`);
    status.syncedAtMs = this.sim.nowMs;
    const phase = o.Pod?.status?.phase;
    if (phase === "Failed" || phase === "Succeeded") {
      // After a kubelet restart, a pod terminal in both config and runtime is known terminated
      // (issue 105523), but SyncTerminatedPod must still run.
      const cached = this.podCache.Get(uid);
      if (cached !== undefined && isPodStatusCacheTerminal(cached)) {
        status.terminatedAtMs = status.terminatingAtMs = this.sim.nowMs;
        status.startedTerminating = true;
      }
    }
    this.podSyncStatuses.set(uid, status);
    this.changes++;
    return [true, status];
  }

  private adoptRuntimePod(status: PodSyncStatus, o: UpdatePodOptions): Pod {
    status.observedRuntime = true;
    const known = status.pendingUpdate?.Pod ?? status.activeUpdate?.Pod;
    if (known !== undefined) {
      o.Pod = known;
      o.RunningPod = undefined;
      return known;
    }
    const rp = o.RunningPod!;
    // RunningPod.ToAPIPod(): a placeholder with only identity.
    return { metadata: { name: rp.name, namespace: rp.namespace, uid: rp.id }, spec: { containers: [{ name: "placeholder" }] } };
  }

  private checkTerminating(status: PodSyncStatus, pod: Pod | undefined, o: UpdatePodOptions, isRuntimePod: boolean): boolean {
    if (status.IsTerminationRequested()) return false;
    let why: string | null = null;
    if (isRuntimePod) {
      status.deleted = true;
      why = "orphaned";
    } else if (pod!.metadata.deletionTimestamp) {
      status.deleted = true;
      why = "deleted";
    } else if (pod!.status?.phase === "Failed" || pod!.status?.phase === "Succeeded") {
      why = "terminal phase";
    } else if (o.UpdateType === SyncPodKill) {
      if (o.KillPodOptions?.Evict === true) status.evicted = true;
      why = status.evicted ? "evicted" : "killed";
    }
    if (why === null) return false;
    status.terminatingAtMs = this.sim.nowMs;
    this.changes++;
    // 1.22.0-1.22.4: "if a static pod comes through, start tracking it explicitly (cleared by the pod worker loop)".
    if (!this.staticPodStartGating && pod !== undefined && IsStaticPod(pod)) this.terminatingStaticPodFullnames.add(status.fullname);
    this.traceUpdate("TerminationRequested", pod?.metadata.uid ?? o.RunningPod!.id, o, { why });
    return true;
  }

  /** Returns whether the grace period was shortened, or null when the update must be dropped. */
  private applyKillOptions(status: PodSyncStatus, pod: Pod | undefined, o: UpdatePodOptions, isRuntimePod: boolean): boolean | null {
    if (status.IsTerminated()) {
      // A terminated pod waiting for cleanup ignores a runtime-only kill from a stale cache.
      if (isRuntimePod) return null;
      if (o.KillPodOptions?.CompletedCh !== undefined && !o.KillPodOptions.CompletedCh.closed) o.KillPodOptions.CompletedCh.close();
      o.KillPodOptions = undefined;
      return false;
    }
    if (status.IsTerminationRequested()) {
      const [gracePeriod, shortened] = calculateEffectiveGracePeriod(status, pod!, o.KillPodOptions);
      status.gracePeriod = gracePeriod;
      if (o.KillPodOptions !== undefined) status.abnormalTerminations.push(o.KillPodOptions);
      const kill: KillPodOptions = Object.assign({}, o.KillPodOptions);
      kill.PodTerminationGracePeriodSecondsOverride = gracePeriod;
      o.KillPodOptions = kill;
      return shortened;
    }
    if (o.KillPodOptions !== undefined) {
      if (o.KillPodOptions.CompletedCh !== undefined && !o.KillPodOptions.CompletedCh.closed) o.KillPodOptions.CompletedCh.close();
      o.KillPodOptions = undefined;
    }
    return false;
  }

  private ensureWorker(uid: string, status: PodSyncStatus, pod: Pod | undefined): void {
    if (this.podUpdates.has(uid)) return;
    const ch = this.sim.chan<true>(`podUpdates/${uid}`, 1);
    this.podUpdates.set(uid, ch);
    if (pod !== undefined && IsStaticPod(pod) && this.staticPodStartGating) {
      const waiting = this.waitingToStartStaticPodsByFullname.get(status.fullname) ?? [];
      this.waitingToStartStaticPodsByFullname.set(status.fullname, [...waiting, uid]);
    }
    const ref = pod === undefined ? uid : `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`;
    const outCh = this.workerChannelFn === null ? ch : this.workerChannelFn(uid, ch);
    this.sim.go(`podworker/${ref}`, () => this.podWorkerLoop(uid, outCh), { group: this.group, daemon: true });
  }

  /**
   * SyncKnownPods: purge finished workers no longer desired (or whose UID was re-created), start
   * terminating orphans, and report every remaining worker's state. Marks the workers synced.
   */
  SyncKnownPods(desiredPods: readonly Pod[]): Map<string, PodWorkerSync> {
    const known = new Set(desiredPods.map((p) => p.metadata.uid!));
    const workers = new Map<string, PodWorkerSync>();
    this.podsSynced = true;
    for (const uid of this.sortedWorkerUIDs()) {
      const status = this.podSyncStatuses.get(uid)!;
      const orphan = !known.has(uid);
      if ((status.restartRequested || orphan) && this.removeTerminatedWorker(uid, status, orphan)) continue;
      const cfg = status.activeUpdate?.Pod ?? status.pendingUpdate?.Pod;
      workers.set(uid, { State: status.WorkType(), Orphan: orphan, HasConfig: cfg !== undefined, Static: cfg !== undefined && IsStaticPod(cfg) });
    }
    return workers;
  }

  /** The workers' UIDs in order, as the last pass sorted them while they are the same set (most passes). */
  private workerUIDsSorted: string[] = [];

  /**
   * The UIDs of podSyncStatuses, sorted (SyncKnownPods's pass in a fixed order, where Go ranges over
   * a map): the last sorted list again when it holds as many UIDs as the map and each is in it,
   * which makes it the map's set of keys.
   */
  private sortedWorkerUIDs(): readonly string[] {
    const statuses = this.podSyncStatuses;
    const last = this.workerUIDsSorted;
    let same = last.length === statuses.size;
    for (let i = 0; same && i < last.length; i++) same = statuses.has(last[i]!);
    if (!same) this.workerUIDsSorted = [...statuses.keys()].sort();
    return this.workerUIDsSorted;
  }

  /** removeTerminatedWorker: forget a finished worker; start terminating an orphan that may have run. */
  removeTerminatedWorker(uid: string, status: PodSyncStatus, orphaned: boolean): boolean {
    this.changes++; // whatever it does: a pass of SyncKnownPods that calls it is never reused
    if (!status.finished) {
      if (!orphaned || !this.orphansDrivenByHousekeeping) return false;
      status.deleted = true; // all orphaned pods are considered deleted
      if (status.IsStarted() || status.observedRuntime) {
        if (!status.IsTerminationRequested()) {
          status.terminatingAtMs = this.sim.nowMs;
          const pod = status.activeUpdate?.Pod;
          status.gracePeriod = pod !== undefined ? calculateEffectiveGracePeriod(status, pod, undefined)[0] : 1;
          this.trace("TerminationRequested", uid, { why: "orphaned" });
        }
        this.requeueLastPodUpdate(uid, status);
        return false;
      }
      // never started: safe to forget without a sync
    }
    this.trace(status.restartRequested ? "WorkerRemoved" : "WorkerForgotten", uid, { restartRequested: status.restartRequested });
    this.podSyncStatuses.delete(uid);
    this.cleanupPodUpdates(uid);
    this.forgetStartedStatic(status.fullname, uid);
    return true;
  }

  private traceUpdate(kind: string, uid: string, o: UpdatePodOptions, extra?: Record<string, unknown>): void {
    const p = o.Pod;
    const ref = p !== undefined ? `${p.metadata.namespace ?? "default"}/${p.metadata.name}` : `${o.RunningPod!.namespace}/${o.RunningPod!.name}`;
    this.sim.emit("podworker", kind, { pod: ref, uid, updateType: o.UpdateType, ...extra });
  }
}

/** isPodStatusCacheTerminal: no running container and no ready sandbox. */
export function isPodStatusCacheTerminal(status: PodStatus): boolean {
  return (
    !status.containerStatuses.some((c) => c.state === "running") &&
    !status.sandboxStatuses.some((s) => s.state === "SANDBOX_READY")
  );
}

/** eviction.KillPodFunc (1.22+): kills a pod, with the status to report when it is killed. */
export type KillPodFunc = (pod: Pod, isEvicted: boolean, gracePeriodOverride: number | undefined, statusFn: PodStatusFunc) => Proc<GoError>;

/**
 * killPodNow returns a KillPodFunc that can be used to kill a pod. It is intended to be injected
 * into other modules that need to kill a pod (the eviction manager): it queues a kill with a
 * completion channel and waits for it, or times out after 1.5× the grace period (at least 10 s,
 * "to wait for kubelet->runtime traffic to complete in sigkill").
 */
export function killPodNow(podWorkers: Pick<PodWorkers, "UpdatePod">, sim: Sim, recorder: EventRecorder): KillPodFunc {
  return function* (pod, isEvicted, gracePeriodOverride, statusFn) {
    const gracePeriod = gracePeriodOverride ?? pod.spec.terminationGracePeriodSeconds ?? 0;
    const timeoutSeconds = Math.max(10, gracePeriod + Math.floor(gracePeriod / 2));
    const ch = sim.chan<void>(`killPodNow/${pod.metadata.uid}`, 1);
    podWorkers.UpdatePod({
      Pod: pod,
      UpdateType: SyncPodKill,
      KillPodOptions: {
        CompletedCh: ch,
        Evict: isEvicted,
        PodStatusFunc: statusFn,
        ...(gracePeriodOverride === undefined ? {} : { PodTerminationGracePeriodSecondsOverride: gracePeriodOverride }),
      },
    });
    const r = yield* select([recvCase(ch), recvCase(sim.after(`killPodNow-timeout/${pod.metadata.uid}`, timeoutSeconds * 1000))]);
    if (r.index === 0) return null;
    recorder.Eventf(pod, "Warning", "ExceededGracePeriod", "Container runtime did not kill the pod within specified grace period.");
    return new Error("timeout waiting to kill pod");
  };
}
