// Models pkg/kubelet/kubelet.go: syncLoop and syncLoopIteration, the select at the heart of the
// kubelet. The handlers it dispatches to are per era: kubelet_handlers.ts (v1.22+) and
// kubelet_handlers_legacy.ts (v1.21 and before).
import { again, recvCase, selectOp, sleep, type Op, type Proc, type SelectCase, type SelectResult } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { GoError } from "./types.ts";
import type { PodStatus } from "./container/runtime.ts";
import { KubeletCore } from "./kubelet_core.ts";
import { proberEra } from "./prober/era.ts";
import type { PodLifecycleEvent, PodUpdate, ProbeResultUpdate } from "./kubelet_deps.ts";

/** The SyncHandler interface syncLoopIteration dispatches to. */
export interface SyncHandler {
  HandlePodAdditions(pods: Pod[]): void;
  HandlePodUpdates(pods: Pod[]): void;
  /** A generator: the v1.21 deletePod reads the runtime cache inside syncLoop, which may take time. */
  HandlePodRemoves(pods: Pod[]): Proc<void>;
  HandlePodReconcile(pods: Pod[]): void;
  HandlePodSyncs(pods: Pod[]): void;
  /** Housekeeping; runs inside syncLoop, so its runtime calls hold the loop up, as upstream. */
  HandlePodCleanups(): Proc<GoError>;
  /** getPodsToSync */
  getPodsToSync(): Pod[];
  /** cleanUpContainersInPod's removeAll: may every dead container of the pod go? (per era) */
  shouldRemoveAllDeadContainers(uid: string, podStatus: PodStatus): boolean;
}

// syncLoop's runtime-error back-off.
const runtimeErrorBackoffBaseMs = 100;
const runtimeErrorBackoffMaxMs = 5000;
/** The sync ticker: "A one-second period is sufficient because the sync interval is defaulted to 10s." */
export const syncTickerPeriodMs = 1000;

export class Kubelet {
  /**
   * syncLoopMonitor: when syncLoop last entered or left an iteration (null before the first).
   * LatestLoopEntryTime reads it for the kubelet server's syncloop health check.
   */
  private syncLoopMonitorMs: number | null = null;
  private eraOf: { version: string; resultsToSyncLoop: boolean } | null = null;

  constructor(
    readonly core: KubeletCore,
    private readonly handler: SyncHandler,
  ) {}

  /** LatestLoopEntryTime: the syncLoopMonitor's time, or null (Go's zero time) before the loop ran. */
  LatestLoopEntryTime(): number | null {
    return this.syncLoopMonitorMs;
  }

  /** Run: starts syncLoop as the kubelet's main goroutine. */
  Run(): void {
    this.core.sim.go("kubelet/syncLoop", () => this.syncLoop(), { group: "kubelet", daemon: true });
  }

  private *syncLoop(): Proc<void> {
    const { sim, config, deps } = this.core;
    this.core.emit("SyncLoopStart", undefined);
    const syncTicker = sim.newTicker("syncTicker", syncTickerPeriodMs);
    const housekeepingTicker = sim.newTicker("housekeepingTicker", config.housekeepingPeriodMs);
    const plegCh = deps.pleg.Watch();
    let durationMs = runtimeErrorBackoffBaseMs;
    let cases: readonly SelectCase[] | null = null;
    for (;;) {
      const runtimeErr = config.runtimeErrors();
      if (runtimeErr !== null) {
        this.core.emit("SkippingPodSynchronization", undefined, { err: runtimeErr.message, backoffMs: durationMs });
        yield* sleep(durationMs);
        durationMs = Math.min(runtimeErrorBackoffMaxMs, 2 * durationMs);
        continue;
      }
      durationMs = runtimeErrorBackoffBaseMs;
      this.syncLoopMonitorMs = sim.nowMs;
      cases = this.iterationCases(cases, syncTicker.C, housekeepingTicker.C, plegCh);
      if (!(yield* this.syncLoopIteration(cases))) break;
      this.syncLoopMonitorMs = sim.nowMs;
    }
  }

  /**
   * The select's cases; the previous iteration's (`prev`) when they name the same channels, as
   * they do unless a channel is replaced: the kernel reads the cases and never changes them, and
   * the loop asks at every iteration.
   */
  private iterationCases(prev: readonly SelectCase[] | null, syncCh: SelectCase["ch"], housekeepingCh: SelectCase["ch"], plegCh: SelectCase["ch"]): readonly SelectCase[] {
    const { deps, config } = this.core;
    // From 1.21 (#98376) readiness and startup results reach syncLoop; before, the prober manager
    // forwarded them to the status manager itself.
    const probes = this.resultsToSyncLoop(config.version);
    const readiness = probes ? deps.readinessManager.Updates() : null;
    const startup = probes ? deps.startupManager.Updates() : null;
    const liveness = deps.livenessManager.Updates();
    if (
      prev !== null && prev.length === (probes ? 7 : 5) && prev[0]!.ch === deps.configUpdates && prev[1]!.ch === plegCh
      && prev[2]!.ch === syncCh && prev[3]!.ch === liveness && prev[4]!.ch === housekeepingCh
      && (!probes || (prev[5]!.ch === readiness && prev[6]!.ch === startup))
    ) return prev;
    const cases: SelectCase[] = [recvCase(deps.configUpdates), recvCase(plegCh), recvCase(syncCh), recvCase(liveness), recvCase(housekeepingCh)];
    if (probes) cases.push(recvCase(readiness), recvCase(startup));
    return cases;
  }

  /** The prober era's resultsToSyncLoop for this version, computed once per version (asked at every iteration). */
  private resultsToSyncLoop(version: string): boolean {
    if (this.eraOf === null || this.eraOf.version !== version) this.eraOf = { version, resultsToSyncLoop: proberEra(version).resultsToSyncLoop };
    return this.eraOf.resultsToSyncLoop;
  }

  /** The select operation of these cases, built once while the cases are the same (`iterationCases`). */
  private iterationOp: Op | null = null;

  /** syncLoopIteration: one Go select; when several channels are ready, which fires is a recorded choice. */
  private *syncLoopIteration(cases: readonly SelectCase[]): Proc<boolean> {
    // `yield* select(cases)` without a generator and an operation per iteration (sim/ops.ts selectOp).
    if (this.iterationOp === null || this.iterationOp.target !== cases) this.iterationOp = selectOp(cases);
    const c = (yield again(this.iterationOp)) as SelectResult;
    switch (c.index) {
      case 0:
        if (!c.ok) return false; // "Update channel is closed, exiting the sync loop"
        yield* this.onConfigUpdate(c.value as PodUpdate);
        break;
      case 1:
        this.onPLEGEvent(c.value as PodLifecycleEvent);
        break;
      case 2: {
        const podsToSync = this.handler.getPodsToSync();
        if (podsToSync.length > 0) {
          if (this.core.sim.traces("SyncLoopSync")) this.core.emit("SyncLoopSync", undefined, { pods: podsToSync.map(podRef) });
          this.handler.HandlePodSyncs(podsToSync);
        }
        break;
      }
      case 3: {
        const u = c.value as ProbeResultUpdate;
        if (u.Result === "Failure") this.handleProbeSync(u, "liveness", "unhealthy");
        break;
      }
      case 4:
        yield* this.housekeeping();
        break;
      case 5:
        this.onReadiness(c.value as ProbeResultUpdate);
        break;
      case 6:
        this.onStartup(c.value as ProbeResultUpdate);
        break;
    }
    return true;
  }

  private *onConfigUpdate(u: PodUpdate): Proc<void> {
    this.core.emit(`SyncLoop${u.Op}`, undefined, { source: u.Source, pods: u.Pods.map(podRef) });
    switch (u.Op) {
      case "ADD":
      case "RESTORE": // pods restored from a checkpoint are treated as new
        this.handler.HandlePodAdditions(u.Pods);
        break;
      case "UPDATE":
      case "DELETE": // DELETE is treated as an UPDATE because of graceful deletion
        this.handler.HandlePodUpdates(u.Pods);
        break;
      case "REMOVE":
        yield* this.handler.HandlePodRemoves(u.Pods);
        break;
      case "RECONCILE":
        this.handler.HandlePodReconcile(u.Pods);
        break;
      case "SET":
        break; // "Kubelet does not support snapshot update"
    }
    // v1.21 does not mark a source ready on a RESTORE (checkpoints may be incomplete).
    if (!(this.core.legacy && u.Op === "RESTORE")) this.core.sourcesReady.AddSource(u.Source);
  }

  private onPLEGEvent(e: PodLifecycleEvent): void {
    // isSyncPodWorthy: ContainerRemoved does not affect pod state.
    if (e.Type !== "ContainerRemoved") {
      const pod = this.core.podManager.GetPodByUID(e.ID);
      if (pod !== undefined) {
        this.core.emit("SyncLoopPLEG", pod, { event: e.Type, data: typeof e.Data === "string" ? e.Data : null });
        this.handler.HandlePodSyncs([pod]);
      } // else the pod no longer exists: ignore the event
    }
    if (e.Type === "ContainerDied" && typeof e.Data === "string") this.cleanUpContainersInPod(e.ID, e.Data);
  }

  /** cleanUpContainersInPod: hand the pod's dead containers to the container deletor. */
  private cleanUpContainersInPod(podID: string, exitedContainerID: string): void {
    const podStatus = this.core.deps.podCache.Get(podID);
    if (podStatus === undefined) return;
    const removeAll = this.handler.shouldRemoveAllDeadContainers(podID, podStatus);
    this.core.deps.containerDeletor.deleteContainersInPod(exitedContainerID, podStatus, removeAll);
  }

  private onReadiness(u: ProbeResultUpdate): void {
    const ready = u.Result === "Success";
    this.core.deps.statusManager.SetContainerReadiness(u.PodUID, u.ContainerID, ready);
    this.handleProbeSync(u, "readiness", ready ? "ready" : "not ready");
  }

  private onStartup(u: ProbeResultUpdate): void {
    const started = u.Result === "Success";
    this.core.deps.statusManager.SetContainerStartup(u.PodUID, u.ContainerID, started);
    this.handleProbeSync(u, "startup", started ? "started" : "unhealthy");
  }

  private handleProbeSync(u: ProbeResultUpdate, probe: string, status: string): void {
    const pod = this.core.podManager.GetPodByUID(u.PodUID);
    if (pod === undefined) return; // the pod no longer exists: ignore the update
    this.core.emit("SyncLoopProbe", pod, { probe, status });
    this.handler.HandlePodSyncs([pod]);
  }

  private *housekeeping(): Proc<void> {
    if (!this.core.sourcesReady.AllReady()) {
      this.core.emit("HousekeepingSkipped", undefined, { why: "sources aren't ready yet" });
      return;
    }
    this.core.emit("Housekeeping", undefined);
    const err = yield* this.handler.HandlePodCleanups();
    if (err !== null) this.core.emit("HousekeepingFailed", undefined, { err: err.message });
  }
}

export function podRef(pod: Pod): string {
  return `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`;
}
