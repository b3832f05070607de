// Glue: the kuberuntime manager (values or CriError) seen through the kubelet's ContainerRuntime
// interface ((value, err) pairs), with the kubelet-owned container restart back-off (kl.backOff =
// flowcontrol.NewBackOff(backOffPeriod, MaxContainerBackOff)).
import type { Proc, Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { CriError } from "../cri/errors.ts";
import type { SimRuntime } from "../cri/runtime.ts";
import type { CallContext } from "../cri/services.ts";
import type { KubeGenericRuntimeManager } from "../kubelet/kuberuntime/kuberuntime_manager_sync.ts";
import type { PodSyncResult } from "../kubelet/kuberuntime/sync_result.ts";
import type { PodStatus } from "../kubelet/container/runtime.ts";
import { NewBackOff, type Backoff } from "../kubelet/util/backoff.ts";
import type { ContainerRuntime } from "../kubelet/kubelet_deps.ts";
import type { GoError, RunningPod } from "../kubelet/types.ts";

export class KubeletRuntime implements ContainerRuntime {
  readonly backOff: Backoff;

  constructor(
    sim: Sim,
    private readonly manager: KubeGenericRuntimeManager,
    private readonly runtime: SimRuntime,
    backOffPeriodMs: number,
    maxContainerBackOffMs: number,
  ) {
    this.backOff = NewBackOff({ nowMs: () => sim.nowMs }, backOffPeriodMs, maxContainerBackOffMs);
  }

  /** The manager's own generator, handed on: no frame of glue between the worker and SyncPod. */
  SyncPod(pod: Pod, podStatus: PodStatus, ctx: CallContext | null = null): Proc<PodSyncResult> {
    return this.manager.SyncPod(pod, podStatus, [], this.backOff, ctx);
  }

  *KillPod(pod: Pod | null, runningPod: RunningPod, gracePeriodOverride: number | undefined): Proc<GoError> {
    const err = yield* this.manager.KillPod(pod, runningPod, gracePeriodOverride ?? null);
    return err === null ? null : new Error(err);
  }

  *GetPodStatus(uid: string, name: string, namespace: string): Proc<[PodStatus | null, GoError]> {
    const r = yield* this.manager.GetPodStatus(uid, name, namespace);
    return r instanceof CriError ? [null, new Error(r.message)] : [r, null];
  }

  *GetPods(all: boolean): Proc<[RunningPod[], GoError]> {
    const r = yield* this.manager.GetPods(all);
    return r instanceof CriError ? [[], new Error(r.message)] : [r, null];
  }

  /** DeleteContainer: the kubelet removes a dead container through the CRI. */
  *RemoveContainer(containerID: string): Proc<GoError> {
    const r = yield* this.runtime.RemoveContainer(containerID);
    return r instanceof CriError ? new Error(r.message) : null;
  }
}
