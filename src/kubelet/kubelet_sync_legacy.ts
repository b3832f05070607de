// Models pkg/kubelet/kubelet.go syncPod and kubelet_pods.go killPod as of v1.21 and before (the
// seeds): one function for both setting up and killing a pod, driven by the update type.
import type { Proc } from "../sim/index.ts";
import type { Pod, PodStatus as APIPodStatus, ContainerStatus } from "../k8s/pod.ts";
import type { PodStatus } from "./container/runtime.ts";
import { SyncPodKill, type GoError, type RunningPod } from "./types.ts";
import type { KubeletCore } from "./kubelet_core.ts";
import type { LegacySyncPodOptions } from "./pod_workers_legacy.ts";
import { NetworkNotReadyErrorMsg } from "./pod_workers_legacy.ts";
import { ConvertPodStatusToRunningPod, isBackoffOnlyFailure, PodSetup } from "./kubelet_sync_common.ts";

export class LegacyKubeletSyncer {
  readonly setup: PodSetup;

  constructor(private readonly kl: KubeletCore) {
    this.setup = new PodSetup(kl);
  }

  /** syncPod (v1.21): kill when asked to, otherwise generate status, kill if deleted/failed, else set up. */
  *syncPod(o: LegacySyncPodOptions): Proc<GoError> {
    const { deps, config } = this.kl;
    const { pod, podStatus } = o;
    this.kl.emit("SyncPod", pod, { updateType: o.updateType });
    if (o.updateType === SyncPodKill) {
      if (o.killPodOptions === undefined) return new Error("kill pod options are required if update type is kill");
      deps.statusManager.SetPodStatus(pod, o.killPodOptions.PodStatusFunc(pod, podStatus));
      const err = yield* this.killPod(pod, undefined, podStatus, o.killPodOptions.PodTerminationGracePeriodSecondsOverride);
      if (err !== null) deps.recorder.Eventf(pod, "Warning", "FailedKillPod", `error killing pod: ${err.message}`);
      return err;
    }
    const apiPodStatus = deps.statusGenerator.generateAPIPodStatus(pod, podStatus, false);
    podStatus.ips = (apiPodStatus.podIPs ?? []).map((p) => p.ip);
    // canRunPod (soft admission) always admits here: no AppArmor/sysctl/no-new-privs handlers modelled.
    deps.statusManager.SetPodStatus(pod, apiPodStatus);
    if (pod.metadata.deletionTimestamp || apiPodStatus.phase === "Failed") {
      const err = yield* this.killPod(pod, undefined, podStatus, undefined);
      if (err !== null) {
        deps.recorder.Eventf(pod, "Warning", "FailedKillPod", `error killing pod: ${err.message}`);
        return new Error(`error killing pod: ${err.message}`);
      }
      return null;
    }
    if (!config.networkReady() && pod.spec.hostNetwork !== true) {
      deps.recorder.Eventf(pod, "Warning", "NetworkNotReady", `${NetworkNotReadyErrorMsg}: container runtime network not ready`);
      return new Error(`${NetworkNotReadyErrorMsg}: container runtime network not ready`);
    }
    // Volumes and cgroups are not set up for pods the kubelet already considers terminated.
    if (!this.podIsTerminated(pod)) yield* this.setup.ensureCgroups(pod);
    // Create (or replace) the mirror pod of a static pod.
    yield* deps.mirrorClient.tryReconcileMirrorPods(pod, o.mirrorPod);
    if (!this.podIsTerminated(pod)) {
      const volErr = yield* this.setup.WaitForAttachAndMount(pod);
      if (volErr !== null) return volErr;
    }
    const result = yield* deps.runtime.SyncPod(pod, podStatus);
    deps.reasonCache.Update(pod.metadata.uid!, result);
    const syncErr = result.Error();
    if (syncErr !== null && !isBackoffOnlyFailure(result)) return new Error(syncErr);
    return null;
  }

  /** killPod: KillPod on the runtime, from a running pod or else from the status. */
  *killPod(pod: Pod | null, runningPod: RunningPod | undefined, status: PodStatus | undefined, gracePeriodOverride: number | undefined): Proc<GoError> {
    let p: RunningPod;
    if (runningPod !== undefined) p = runningPod;
    else if (status !== undefined) p = ConvertPodStatusToRunningPod(status);
    else return new Error("one of the two arguments must be non-nil: runningPod, status");
    return yield* this.kl.deps.runtime.KillPod(pod, p, gracePeriodOverride);
  }

  /**
   * podIsTerminated (v1.21): the cached status (or the API's after a restart) says Failed or
   * Succeeded, or the pod is deleted and no container is running. "Not started yet" looks the same
   * as "terminated" here: the root of race R02.
   */
  podIsTerminated(pod: Pod): boolean {
    const status = this.statusOf(pod);
    return status.phase === "Failed" || status.phase === "Succeeded" || (!!pod.metadata.deletionTimestamp && notRunning(status.containerStatuses ?? []));
  }

  /** podAndContainersAreTerminal (v1.21), used by dispatchWork. */
  podAndContainersAreTerminal(pod: Pod): [boolean, boolean] {
    const status = this.statusOf(pod);
    const containersTerminal = notRunning(status.containerStatuses ?? []);
    const podWorkerTerminal =
      status.phase === "Failed" || status.phase === "Succeeded" || (!!pod.metadata.deletionTimestamp && containersTerminal);
    return [containersTerminal, podWorkerTerminal];
  }

  private statusOf(pod: Pod): APIPodStatus {
    return this.kl.deps.statusManager.GetPodStatus(pod.metadata.uid!) ?? pod.status ?? {};
  }
}

/** notRunning: every container status is terminated or waiting. */
export function notRunning(statuses: readonly ContainerStatus[]): boolean {
  return statuses.every((s) => s.state?.terminated !== undefined || s.state?.waiting !== undefined);
}
