// Steps of the kubelet's pod sync that both eras share and that the simulator models only as time:
// cgroup creation (pod_container_manager) and volume attach/mount (volumemanager), plus helpers.
import { call, type Proc } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { PodStatus } from "./container/runtime.ts";
import type { GoError, RunningPod, SyncContext } from "./types.ts";
import { ConvertPodStatusToRunningPod as convert } from "./kuberuntime/running_pod.ts";
import type { KubeletCore } from "./kubelet_core.ts";
import { ErrCrashLoopBackOff, ErrImagePullBackOff, type PodSyncResult } from "./kuberuntime/sync_result.ts";

/**
 * Volume and cgroup setup. Simplified: each is one step of configurable virtual time, done once per
 * pod UID, that never fails; no volume plugins, no real cgroup hierarchy.
 */
export class PodSetup {
  private readonly cgroups = new Set<string>();
  private readonly mounted = new Set<string>();

  constructor(private readonly kl: KubeletCore) {}

  /** pcm.EnsureExists(pod) when the pod's cgroup does not exist yet. */
  *ensureCgroups(pod: Pod): Proc<void> {
    const uid = pod.metadata.uid!;
    if (this.cgroups.has(uid)) return;
    yield* call(this.kl.config.cgroupSetupMs, "EnsureExists(pod cgroup)");
    this.cgroups.add(uid);
    this.kl.emit("PodCgroupCreated", pod);
  }

  *destroyCgroups(pod: Pod): Proc<void> {
    if (!this.cgroups.delete(pod.metadata.uid!)) return;
    yield* call(this.kl.config.cgroupSetupMs, "Destroy(pod cgroup)");
    this.kl.emit("PodCgroupRemoved", pod);
  }

  /**
   * volumeManager.WaitForAttachAndMount. From 1.22 it polls under the pod worker's context
   * (wait.PollUntilContextTimeout): a termination request during the wait ends it with the
   * context's error, and SyncPod returns before starting the pod. The mount itself is the volume
   * manager's reconciler's and completes regardless. Simplified: the mount takes volumeSetupMs,
   * without the poll's 300 ms interval.
   */
  *WaitForAttachAndMount(pod: Pod, ctx: SyncContext | null = null): Proc<GoError> {
    const uid = pod.metadata.uid!;
    if (this.mounted.has(uid)) return null;
    yield* call(this.kl.config.volumeSetupMs, "WaitForAttachAndMount");
    this.mounted.add(uid);
    this.kl.emit("VolumesMounted", pod);
    return ctx?.err() ?? null;
  }

  /** volumeManager.WaitForUnmount */
  *WaitForUnmount(pod: Pod): Proc<void> {
    yield* this.unmount(pod.metadata.uid!, pod);
  }

  /** The reconciler unmounts a pod's volumes (the pod object may already be gone). */
  *unmount(uid: string, pod: Pod | undefined): Proc<void> {
    if (!this.mounted.delete(uid)) return;
    yield* call(this.kl.config.volumeSetupMs, "UnmountVolumes");
    this.kl.emit("VolumesUnmounted", pod, pod === undefined ? { uid } : undefined);
  }

  /** The UIDs of pods with mounted volumes, sorted (the volume manager's desired state). */
  mountedPods(): string[] {
    return [...this.mounted].sort();
  }

  /** podVolumesExist, read by the deletion-safety check. */
  volumesExist(uid: string): boolean {
    return this.mounted.has(uid);
  }

  /** The UIDs of pods with a cgroup, sorted (what GetAllPodsFromCgroups finds). */
  cgroupPods(): string[] {
    return [...this.cgroups].sort();
  }

  /** pcm.Destroy for a pod known only by UID (an orphaned cgroup). */
  *destroyCgroupOf(uid: string): Proc<void> {
    if (!this.cgroups.delete(uid)) return;
    yield* call(this.kl.config.cgroupSetupMs, "Destroy(pod cgroup)");
    this.kl.sim.emit("kubelet", "PodCgroupRemoved", { uid });
  }

  /** pcm.Exists(pod), read by the deletion-safety check. */
  cgroupExists(uid: string): boolean {
    return this.cgroups.has(uid);
  }
}

/** kubecontainer.ConvertPodStatusToRunningPod for the simulated runtime ("containerd"). */
export function ConvertPodStatusToRunningPod(podStatus: PodStatus): RunningPod {
  return convert(RUNTIME_NAME, podStatus);
}

/** The runtime's name, the ContainerID type of every container ID. */
export const RUNTIME_NAME = "containerd";

/**
 * "Do not return error if the only failures were pods in backoff." Ported literally: every step
 * result (successful ones included, whose error is nil) must be a back-off for the error to be
 * swallowed.
 */
export function isBackoffOnlyFailure(result: PodSyncResult): boolean {
  return result.SyncResults.every((r) => r.Error === ErrCrashLoopBackOff || r.Error === ErrImagePullBackOff);
}
