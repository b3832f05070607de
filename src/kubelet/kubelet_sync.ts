// Models pkg/kubelet/kubelet.go (v1.22 and after): SyncPod, SyncTerminatingPod,
// SyncTerminatingRuntimePod and SyncTerminatedPod, the podSyncer the pod workers drive.
import { recvCase, select, type Proc } from "../sim/index.ts";
import type { CallContext } from "../cri/services.ts";
import type { Pod } from "../k8s/pod.ts";
import type { PodStatus } from "./container/runtime.ts";
import { ContextCanceled, type GoError, type RunningPod, type SyncContext, type SyncPodType } from "./types.ts";
import type { KubeletCore } from "./kubelet_core.ts";
import type { PodSyncer } from "./pod_worker_loop.ts";
import type { PodStatusFunc } from "./pod_sync_status.ts";
import { NetworkNotReadyErrorMsg } from "./pod_workers_legacy.ts";
import { ConvertPodStatusToRunningPod, isBackoffOnlyFailure, PodSetup } from "./kubelet_sync_common.ts";
import { StatusReuse } from "./status_reuse.ts";

/** Model switches of the v1.22+ syncer (scenario variants, src/scenario/schema/variants.ts). */
export interface KubeletSyncerOptions {
  /**
   * The pod worker's context reaches the image pulls of the runtime's SyncPod, so a termination
   * request cancels an in-flight pull (PR #131260 for issue #125050, race R01). Upstream passes
   * context.WithoutCancel(ctx) instead (TODO #113606).
   */
  cancelImagePullOnTermination?: boolean;
  /**
   * SyncTerminatingPod honours its context: an update that shortens the grace period cancels the
   * kill in flight, and the pod worker's next SyncTerminatingPod stops the containers again with
   * the shorter grace (the runtime kills at the earlier deadline). The proposed fix of issue #83916
   * (race R06, PRs #113883 and #127580); upstream's kill ignores the context ("TODO: queue the
   * next update, then cancel the inflight job by invoking context cancellation").
   */
  killHonoursShortenedGrace?: boolean;
}

export class KubeletSyncer implements PodSyncer {
  readonly setup: PodSetup;
  /** Not upstream: SyncPod's generated status, reused while nothing it comes from changes (status_reuse.ts). */
  private readonly statusReuse: StatusReuse;

  constructor(
    private readonly kl: KubeletCore,
    /** podWorkers.IsPodTerminationRequested (RunOnce, which has no pod workers, answers false). */
    private readonly isPodTerminationRequested: (uid: string) => boolean,
    private readonly options: KubeletSyncerOptions = {},
  ) {
    this.setup = new PodSetup(kl);
    const generator = kl.deps.statusGenerator;
    this.statusReuse = new StatusReuse((pod) => generator.generation?.(pod));
  }

  /** SyncPod: converge a pod towards its spec; returns isTerminal when its phase became terminal. */
  *SyncPod(ctx: SyncContext, updateType: SyncPodType, pod: Pod, mirrorPod: Pod | undefined, podStatus: PodStatus): Proc<[boolean, GoError]> {
    const { deps, config } = this.kl;
    this.kl.emit("SyncPod", pod, { updateType });
    const apiPodStatus = this.statusReuse.generate(pod, podStatus, () => deps.statusGenerator.generateAPIPodStatus(pod, podStatus, false));
    podStatus.ips = (apiPodStatus.podIPs ?? []).map((p) => p.ip);
    if (podStatus.ips.length === 0 && apiPodStatus.podIP) podStatus.ips = [apiPodStatus.podIP];
    if (apiPodStatus.phase === "Succeeded" || apiPodStatus.phase === "Failed") {
      deps.statusManager.SetPodStatus(pod, apiPodStatus);
      return [true, null];
    }
    this.statusReuse.SetPodStatus(pod, apiPodStatus, () => deps.statusManager.SetPodStatus(pod, apiPodStatus));
    if (!config.networkReady() && pod.spec.hostNetwork !== true) {
      deps.recorder.Eventf(pod, "Warning", "NetworkNotReady", `${NetworkNotReadyErrorMsg}: container runtime network not ready`);
      return [false, new Error(`${NetworkNotReadyErrorMsg}: container runtime network not ready`)];
    }
    const uid = pod.metadata.uid!;
    if (!this.isPodTerminationRequested(uid)) yield* this.setup.ensureCgroups(pod);
    yield* deps.mirrorClient.tryReconcileMirrorPods(pod, mirrorPod);
    const volErr = yield* this.setup.WaitForAttachAndMount(pod, ctx);
    if (volErr !== null) return [false, volErr];
    deps.probeManager.AddPod(pod);
    // The runtime's SyncPod runs without the worker's cancellation (context.WithoutCancel, #113606):
    // a delete during an image pull does not stop the pull (race R01). With the variant the
    // worker's context reaches the pulls, and a cancelled sync bypasses the reason cache, as the
    // TODO asks: "cancelling the context for SyncPod is a known and deliberate error".
    const sctx = this.options.cancelImagePullOnTermination === true ? this.callContext(ctx, pod) : null;
    const result = yield* deps.runtime.SyncPod(pod, podStatus, sctx?.ctx ?? null);
    sctx?.stop();
    if (sctx !== null && ctx.err() === ContextCanceled) return [false, ContextCanceled];
    deps.reasonCache.Update(uid, result);
    const syncErr = result.Error();
    if (syncErr !== null && !isBackoffOnlyFailure(result)) return [false, new Error(syncErr)];
    return [false, null];
  }

  /** The sync context as the CRI sees it: a done channel closed by cancel (context.AfterFunc). */
  private callContext(ctx: SyncContext, pod: Pod): { ctx: CallContext; stop: () => void } {
    const done = this.kl.sim.chan<never>(`ctx.Done ${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`, 0);
    const stop = ctx.AfterFunc(() => done.close());
    return { ctx: { done }, stop: () => void stop() };
  }

  /** SyncTerminatingPod: stop every container with the grace period, then record the final status. */
  *SyncTerminatingPod(ctx: SyncContext, pod: Pod, podStatus: PodStatus, gracePeriod: number | undefined, podStatusFn: PodStatusFunc | undefined): Proc<GoError> {
    const { deps } = this.kl;
    this.kl.emit("SyncTerminatingPod", pod, { gracePeriod: gracePeriod ?? null });
    const apiPodStatus = deps.statusGenerator.generateAPIPodStatus(pod, podStatus, false);
    podStatusFn?.(apiPodStatus);
    deps.statusManager.SetPodStatus(pod, apiPodStatus);
    deps.probeManager.StopLivenessAndStartup(pod);
    const err = this.options.killHonoursShortenedGrace === true
      ? yield* this.killPodUntilCancelled(ctx, pod, podStatus, gracePeriod)
      : yield* deps.runtime.KillPod(pod, ConvertPodStatusToRunningPod(podStatus), gracePeriod);
    if (err === ContextCanceled) return err;
    if (err !== null) {
      deps.recorder.Eventf(pod, "Warning", "FailedKillPod", `error killing pod: ${err.message}`);
      return err;
    }
    deps.probeManager.RemovePod(pod);
    // Guard against KillPod implementations that leave containers running.
    const [stopped, statusErr] = yield* deps.runtime.GetPodStatus(pod.metadata.uid!, pod.metadata.name, pod.metadata.namespace ?? "default");
    if (statusErr !== null || stopped === null) return statusErr ?? new Error("no pod status");
    stopped.ips = podStatus.ips; // preserveDataFromBeforeStopping
    const running = stopped.containerStatuses.filter((s) => s.state === "running").map((s) => s.id.id);
    if (running.length > 0) return new Error(`detected running containers after a successful KillPod, CRI violation: ${running.join(",")}`);
    // Simplified: the status function is applied to the final status too, so a kill's reason
    // survives the releases before 1.23 whose generateAPIPodStatus does not keep a terminal phase.
    const finalStatus = deps.statusGenerator.generateAPIPodStatus(pod, stopped, true);
    if (finalStatus.phase !== "Succeeded") podStatusFn?.(finalStatus);
    deps.statusManager.SetPodStatus(pod, finalStatus);
    return null;
  }

  /**
   * The kill of variant killHonoursShortenedGrace: KillPod in its own goroutine, abandoned when the
   * context is cancelled (the CRI calls in flight run on, as a cancelled gRPC call's work does in
   * the runtime); the pod worker then runs SyncTerminatingPod again with the shorter grace.
   */
  private *killPodUntilCancelled(ctx: SyncContext, pod: Pod, podStatus: PodStatus, gracePeriod: number | undefined): Proc<GoError> {
    const { sim, deps } = this.kl;
    const ref = `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`;
    const done = sim.chan<GoError>(`killPod done ${ref}`, 1);
    sim.go(`killPod/${ref}`, function* () {
      done.trySend(yield* deps.runtime.KillPod(pod, ConvertPodStatusToRunningPod(podStatus), gracePeriod));
    }, { group: "kubelet" });
    const { ctx: call, stop } = this.callContext(ctx, pod);
    const r = yield* select([recvCase(done), recvCase(call.done)]);
    stop();
    if (r.index === 1) {
      this.kl.emit("KillPodCancelled", pod, { gracePeriod: gracePeriod ?? null });
      return ContextCanceled;
    }
    return (r.value as GoError | undefined) ?? null;
  }

  /** SyncTerminatingRuntimePod: an orphan with no config is killed with a 1 s grace period. */
  *SyncTerminatingRuntimePod(_ctx: SyncContext, runningPod: RunningPod): Proc<GoError> {
    const pod: Pod = { metadata: { name: runningPod.name, namespace: runningPod.namespace, uid: runningPod.id }, spec: { containers: [{ name: "orphan" }] } };
    this.kl.emit("SyncTerminatingRuntimePod", pod);
    const err = yield* this.kl.deps.runtime.KillPod(pod, runningPod, 1);
    if (err !== null) this.kl.deps.recorder.Eventf(pod, "Warning", "FailedKillPod", `error killing pod: ${err.message}`);
    return err;
  }

  /** SyncTerminatedPod: final status, volumes and cgroups released, then TerminatePod. */
  *SyncTerminatedPod(_ctx: SyncContext, pod: Pod, podStatus: PodStatus): Proc<GoError> {
    const { deps } = this.kl;
    this.kl.emit("SyncTerminatedPod", pod);
    deps.statusManager.SetPodStatus(pod, deps.statusGenerator.generateAPIPodStatus(pod, podStatus, true));
    yield* this.setup.WaitForUnmount(pod);
    yield* this.setup.destroyCgroups(pod);
    deps.statusManager.TerminatePod(pod);
    return null;
  }
}
