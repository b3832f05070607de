// Models pkg/kubelet/status/status_manager.go (manager: the status cache, SetPodStatus, SetContainerReadiness/Startup, TerminatePod).
//
// The cache side of the status manager: callers set statuses with plain calls, and a versioned
// copy is queued for the sync loop (status_sync.ts) with a non-blocking send, as upstream does
// while holding podStatusesLock. Simplified: podStatusesLock is not modelled. Every method here
// runs without yielding, so no other process can see a half-done update, which is all the lock
// guarantees; the sync loop's own reads happen between its yields for the same reason.
// Simplified: the startup-latency helper, metrics and the in-place-resize checkpoint are left out.
import type { VersionLike } from "../version.ts";
import type { Pod, PodCondition, PodStatus } from "../../k8s/pod.ts";
import { IsStaticPod } from "../types.ts";
import type { Chan, Sim } from "../../sim/index.ts";
import { statusEra, type StatusEra } from "./era.ts";
import type { PodDeletionSafetyProvider, PodManager, StatusClient } from "./interfaces.ts";
import {
  checkContainerStateTransition,
  checkInitContainerStateTransition,
  findContainerStatus,
  isPodStatusByKubeletEqual,
  normalizeStatus,
  TRANSITION_TIME_CONDITIONS,
  updateLastTransitionTime,
} from "./status_helpers.ts";
import { GenerateContainersReadyCondition, GeneratePodReadyCondition, type GenerateOptions } from "./generate.ts";
import { terminatedPodStatus } from "./terminate.ts";
import { metav1Now } from "./metatime.ts";
import { statusSyncLoop } from "./status_sync.ts";
import { cloneJSON } from "../../k8s/json.ts";

/** versionedPodStatus: a status with a per-pod version that only grows while the pod is cached. */
export interface VersionedPodStatus {
  readonly status: PodStatus;
  readonly version: number;
  readonly podName: string;
  readonly podNamespace: string;
  /** ≥1.27: generated at the end of SyncTerminatedPod or later (TerminatePod). */
  readonly podIsFinished: boolean;
}

/** podStatusSyncRequest (≤1.26); from 1.27 the channel only carries a wake-up signal (null). */
export interface PodStatusSyncRequest {
  readonly podUID: string;
  readonly status: VersionedPodStatus;
}

/** syncPeriod: how often the whole cache is reconciled with the apiserver. */
export const syncPeriodMs = 10_000;
/** The podStatusChannel's buffer before 1.27: "Buffer up to 1000 statuses". */
export const legacyPodStatusChannelCapacity = 1000;

export interface StatusManagerOptions {
  /** null models a kubelet without an apiserver: Start does nothing, as upstream. */
  kubeClient: StatusClient | null;
  podManager: PodManager;
  podDeletionSafety: PodDeletionSafetyProvider;
  /** The kubelet release (a minor means its .0 release): selects the release's behaviour (era.ts). */
  version: VersionLike;
  /** SidecarContainers gate, for the Ready conditions SetContainerReadiness regenerates. */
  sidecarContainers?: boolean;
  /** Process group of the sync loop (killed together on a kubelet restart). */
  group?: string;
  /**
   * Variant statusPatchWithoutUIDPrecondition: the status patch of the pre-1.18 status manager,
   * before PR #86320 (no UID in the patch, sent even when empty). Race R15.
   */
  patchWithoutUIDPrecondition?: boolean;
}

export class StatusManager {
  readonly era: StatusEra;
  /** podStatuses: pod UID → the latest status. Read by status_sync.ts. */
  readonly podStatuses = new Map<string, VersionedPodStatus>();
  /** apiStatusVersions: (mirror) pod UID → the last version written to the apiserver. Sync loop only. */
  readonly apiStatusVersions = new Map<string, number>();
  /** podStatusChannel: requests (≤1.26, capacity 1000) or a pending-update signal (≥1.27, capacity 1). */
  readonly podStatusChannel: Chan<PodStatusSyncRequest | null>;
  readonly kubeClient: StatusClient | null;
  readonly podManager: PodManager;
  readonly podDeletionSafety: PodDeletionSafetyProvider;
  readonly patchWithoutUIDPrecondition: boolean;
  private readonly generateOpts: GenerateOptions;
  private readonly group: string;
  private changes = 0;

  constructor(
    readonly sim: Sim,
    opts: StatusManagerOptions,
  ) {
    this.era = statusEra(opts.version);
    this.kubeClient = opts.kubeClient;
    this.podManager = opts.podManager;
    this.podDeletionSafety = opts.podDeletionSafety;
    this.patchWithoutUIDPrecondition = opts.patchWithoutUIDPrecondition ?? false;
    this.group = opts.group ?? "kubelet";
    this.generateOpts = { sidecarContainers: opts.sidecarContainers ?? false, terminalPhaseNotReady: this.era.terminalPhaseNotReady, initializedOnceRegularStarted: this.era.initializedOnceRegularStarted };
    const capacity = this.era.batchChannel ? 1 : legacyPodStatusChannelCapacity;
    this.podStatusChannel = sim.chan<PodStatusSyncRequest | null>("status/podStatusChannel", capacity);
  }

  /** Start the API server status sync loop (a no-op without a client, as upstream). */
  Start(): void {
    if (this.kubeClient === null) return;
    this.sim.go("status-manager", () => statusSyncLoop(this), { group: this.group, daemon: true });
  }

  /**
   * Not upstream: how many times the status cache changed (a status cached, removed) or an update
   * was refused (StatusUpdateAborted). Equal numbers, the same cache, and every SetPodStatus between
   * them found its status equal to the cached one and did nothing: the kubelet's status reuse
   * (kubelet/status_reuse.ts) compares them.
   */
  get generation(): number {
    return this.changes;
  }

  /** GetPodStatus: the cached status (frozen) for the pod UID, or undefined when none. */
  GetPodStatus(uid: string): PodStatus | undefined {
    return this.podStatuses.get(this.podManager.TranslatePodUID(uid))?.status;
  }

  /** SetPodStatus caches the status and triggers an update; forced when the pod is being deleted. */
  SetPodStatus(pod: Pod, status: PodStatus): void {
    // Force a status update if deletion timestamp is set: a non-running pod's worker must still be
    // able to trigger an update and/or deletion.
    this.updateStatusInternal(pod, cloneJSON(status), pod.metadata.deletionTimestamp != null, false, "SetPodStatus");
  }

  /** SetContainerReadiness updates one container's readiness and the Ready/ContainersReady conditions. */
  SetContainerReadiness(podUID: string, containerID: string, ready: boolean): void {
    const found = this.cachedContainer(podUID, containerID, "readiness");
    if (found === undefined) return;
    const { pod, cached } = found;
    if ((findContainerStatus(cached.status, containerID)!.ready ?? false) === ready) return;
    // Make sure we're not updating the cached version.
    const status: PodStatus = cloneJSON(cached.status);
    findContainerStatus(status, containerID)!.ready = ready;
    const conditions = (status.conditions ??= []);
    const update = (c: PodCondition): void => {
      const i = conditions.findIndex((x) => x.type === c.type);
      if (i >= 0) conditions[i] = c;
      else conditions.push(c);
    };
    const statuses = this.era.sidecarAwareReadiness ? [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])] : status.containerStatuses;
    update(GeneratePodReadyCondition(pod, status.conditions, statuses, status.phase, this.generateOpts));
    update(GenerateContainersReadyCondition(pod, statuses, status.phase, this.generateOpts));
    this.updateStatusInternal(pod, status, false, false, "SetContainerReadiness");
  }

  /** SetContainerStartup updates one container's Started field. */
  SetContainerStartup(podUID: string, containerID: string, started: boolean): void {
    const found = this.cachedContainer(podUID, containerID, "startup");
    if (found === undefined) return;
    const { pod, cached } = found;
    const current = findContainerStatus(cached.status, containerID)!.started;
    if (current !== undefined && current !== null && current === started) return;
    const status: PodStatus = cloneJSON(cached.status);
    findContainerStatus(status, containerID)!.started = started;
    this.updateStatusInternal(pod, status, false, false, "SetContainerStartup");
  }

  /** TerminatePod defaults the statuses of containers that could have started to terminated (see terminate.ts). */
  TerminatePod(pod: Pod): void {
    const cached = this.podStatuses.get(pod.metadata.uid ?? "");
    const oldStatus = cached?.status ?? pod.status ?? {};
    const status = terminatedPodStatus(pod, oldStatus, this.era);
    this.updateStatusInternal(pod, status, true, this.era.batchChannel, "TerminatePod");
  }

  /** RemoveOrphanedStatuses drops every cached status whose pod UID is not in podUIDs. */
  RemoveOrphanedStatuses(podUIDs: ReadonlySet<string>): void {
    const removed = [...this.podStatuses.keys()].filter((uid) => !podUIDs.has(uid)).sort();
    for (const uid of removed) this.podStatuses.delete(uid);
    this.changes += removed.length;
    if (removed.length > 0) this.sim.emit("status", "RemoveOrphanedStatuses", { uids: removed });
  }

  /** deletePodStatus simply removes the given pod from the status cache. */
  deletePodStatus(uid: string): void {
    if (this.podStatuses.delete(uid)) this.changes++;
  }

  private cachedContainer(podUID: string, containerID: string, what: string): { pod: Pod; cached: VersionedPodStatus } | undefined {
    const pod = this.podManager.GetPodByUID(podUID);
    // Pod has been deleted, no need to update.
    if (pod === undefined) return undefined;
    const cached = this.podStatuses.get(pod.metadata.uid ?? "");
    if (cached === undefined || findContainerStatus(cached.status, containerID) === undefined) {
      // "Container <what> changed before pod has synced" / "for unknown container".
      this.sim.emit("status", "SetContainerIgnored", { pod: podRef(pod), uid: podUID, containerID, probe: what });
      return undefined;
    }
    return { pod, cached };
  }

  /**
   * updateStatusInternal updates the cache and queues an update to the sync loop when the status
   * changed (or forceUpdate). Returns whether a new version was cached.
   */
  private updateStatusInternal(pod: Pod, status: PodStatus, forceUpdate: boolean, podIsFinishedIn: boolean, cause: string): boolean {
    const uid = pod.metadata.uid ?? "";
    const cached = this.podStatuses.get(uid);
    let podIsFinished = podIsFinishedIn;
    // A finished pod stays finished ("programmer error" upstream), except static pods (#116484).
    if (cached?.podIsFinished === true && !podIsFinished && this.era.batchChannel && !IsStaticPod(pod)) podIsFinished = true;
    const oldStatus = cached?.status ?? this.podManager.GetMirrorPodByPod(pod)?.status ?? pod.status ?? {};
    // Check for illegal state transition in containers.
    const err =
      checkContainerStateTransition(oldStatus.containerStatuses, status.containerStatuses, pod.spec.restartPolicy) ??
      (this.era.initTransitionSkipsSidecars
        ? checkInitContainerStateTransition(oldStatus.initContainerStatuses, status.initContainerStatuses, pod)
        : checkContainerStateTransition(oldStatus.initContainerStatuses, status.initContainerStatuses, pod.spec.restartPolicy));
    if (err !== null) {
      this.changes++;
      this.sim.emit("status", "StatusUpdateAborted", { pod: podRef(pod), uid, cause, error: err });
      return false;
    }
    for (const type of TRANSITION_TIME_CONDITIONS) updateLastTransitionTime(status, oldStatus, type, this.sim.nowMs);
    // Ensure that the start time does not change across updates.
    if (oldStatus.startTime != null && oldStatus.startTime !== "") status.startTime = oldStatus.startTime;
    else if (status.startTime == null || status.startTime === "") status.startTime = metav1Now(this.sim.nowMs);
    normalizeStatus(pod, status, this.era.normalizeEphemeral);
    // Prevent concurrent updates from clobbering each other so the phase progresses monotonically.
    if (cached !== undefined && isPodStatusByKubeletEqual(cached.status, status, this.era) && !forceUpdate) return false;
    const next: VersionedPodStatus = {
      status: deepFreeze(status),
      version: (cached?.version ?? 0) + 1,
      podName: pod.metadata.name,
      podNamespace: pod.metadata.namespace ?? "",
      podIsFinished,
    };
    this.podStatuses.set(uid, next);
    this.changes++;
    this.sim.emit("status", cause, { pod: podRef(pod), uid, version: next.version, phase: status.phase ?? null });
    return this.notify({ podUID: uid, status: next });
  }

  /** The non-blocking send: a full channel leaves the update to the periodic syncBatch. */
  private notify(req: PodStatusSyncRequest): boolean {
    if (this.era.batchChannel) {
      // There may already be a status update pending: one signal is enough.
      this.podStatusChannel.trySend(null);
      return true;
    }
    if (this.podStatusChannel.trySend(req)) return true;
    this.sim.emit("status", "StatusChannelFull", { uid: req.podUID, version: req.status.version });
    return false;
  }
}

/** "namespace/name", how trace records name a pod. */
export function podRef(pod: Pod): string {
  return `${pod.metadata.namespace ?? ""}/${pod.metadata.name}`;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    // Indexed and for-in loops: Object.values would build an array per object of every status.
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    else for (const k in value) if (Object.hasOwn(value, k)) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}
