// Models pkg/kubelet/kuberuntime/kuberuntime_manager.go (kubeGenericRuntimeManager: SyncPod, KillPod,
// killPodWithSyncResult, GetPodStatus, GetPods), v1.29 line, as processes the kubelet's pod workers
// call with `yield*`. The decisions (computePodActions, doBackOff, grace) are the pure cores.
//
// Simplified: no in-place resize step (InPlacePodVerticalScaling off), no dynamic resources, no
// runtime classes, no pull secrets (pullSecrets is accepted and unused), and the internal
// container lifecycle hooks (CPU/memory managers) always succeed.
import { atLeast, type VersionLike } from "../version.ts";
import { fixedIn } from "../cherry_picks.ts";
import type { Proc, Sim } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import { isRestartableInitContainer } from "../../k8s/podutil.ts";
import type { PodSandboxConfig } from "../../cri/api.ts";
import { CriError, isNotFound } from "../../cri/errors.ts";
import type { CallContext, ContainerNetwork, ImageManagerService, RuntimeService } from "../../cri/services.ts";
import { IsHostNetworkPod, formatPod } from "../container/helpers.ts";
import type { PodStatus } from "../container/runtime.ts";
import { NewBackOff, backOffPeriodMs, MaxContainerBackOffMs, type Backoff } from "../util/backoff.ts";
import { BackOffStartContainer, FailedCreatePodSandBox, FailedStatusPodSandBox, SandboxChanged, TraceEventRecorder, containerFieldPath, type EventRecorder } from "./events.ts";
import { ImageManager } from "./image_manager.ts";
import { ParallelImagePuller, SerialImagePuller } from "./image_puller.ts";
import { doBackOff } from "./kuberuntime_backoff.ts";
import { killContainer, killContainersWithSyncResult, pruneInitContainersBeforeStart, purgeInitContainers } from "./kuberuntime_container_kill.ts";
import type { TerminationOrderingEra } from "./kuberuntime_termination_order.ts";
import { containerStartSpec, ephemeralContainerStartSpec, startContainer, type StartSpec } from "./kuberuntime_container_start.ts";
import { computePodActions } from "./kuberuntime_manager.ts";
import { createPodSandbox, determinePodSandboxIPs, generatePodSandboxConfig } from "./kuberuntime_sandbox.ts";
import { HandlerRunner } from "./lifecycle_handlers.ts";
import { TRACE_COMPONENT, noTerminationRequested, trace, type ManagerContext, type PodStateProvider } from "./manager_context.ts";
import { noProbeResults, podActionsString, type FeatureGates, type PodActions, type ProbeResultsGetter } from "./pod_actions.ts";
import { GeneratePodStatus, GetPodStatus, POD_STATUS_TIMESTAMP_FIX_RELEASE } from "./pod_status.ts";
import { GetPods } from "./get_pods.ts";
import type { ContainerEventResponse } from "../../cri/api.ts";
import { ConvertPodStatusToRunningPod, type RuntimePod } from "./running_pod.ts";
import {
  ErrCreatePodSandbox, ErrKillContainer, ErrKillPodSandbox, NewSyncResult, PodSyncResult,
} from "./sync_result.ts";

export interface RuntimeManagerOptions {
  sim: Sim;
  runtimeService: RuntimeService;
  imageService: ImageManagerService;
  /** HTTP hooks reach the container over the pod network. */
  network: ContainerNetwork;
  recorder?: EventRecorder;
  runtimeName?: string;
  livenessManager?: ProbeResultsGetter;
  startupManager?: ProbeResultsGetter;
  /** v1.29 defaults: SidecarContainers on. */
  features?: FeatureGates;
  /** The kubelet release (computePodActions' era switches); v1.29 when omitted. */
  version?: VersionLike;
  /** The EventedPLEG feature gate (GetPodStatus' gated branch); off when omitted. */
  eventedPLEG?: boolean;
  podStateProvider?: PodStateProvider;
  /** The image pull backoff; NewBackOff(10s, 300s) on the virtual clock by default. */
  imageBackOff?: Backoff;
  /** serializeImagePulls (default true, as the kubelet's configuration). */
  serializeImagePulls?: boolean;
  maxParallelImagePulls?: number | null;
  /** Process group of the goroutines the manager spawns. */
  group?: string;
  /** Variant lostContainerReadsAPIStatus (race R22's proposed fix). */
  lostContainerReadsAPIStatus?: boolean;
  /** Variant backOffFromFirstStart (race R25's proposed fix, PR #133577). */
  backOffFromFirstStart?: boolean;
}

/** What SyncPod's start() needs to start one container. */
interface StartContext {
  pod: Pod;
  podStatus: PodStatus;
  backOff: Backoff;
  podSandboxID: string;
  podSandboxConfig: PodSandboxConfig;
  result: PodSyncResult;
  /** The caller's context, or null for context.WithoutCancel (the kubelet's default, #113606). */
  ctx: CallContext | null;
}

/** The release modelled when the caller names none. */
const DEFAULT_VERSION = "1.29";

/**
 * Which sidecar termination ordering a release has (race R23). Before 1.29 none: every container
 * is signalled at once. 1.29 (PR #120620): sidecars stop after the regular containers and after
 * every later sidecar, but a sidecar that never started still holds back the earlier ones until
 * the grace period ends (issue #125880). PR #125935 (1.31; cherry-picked into 1.30.4 and 1.29.8)
 * pre-closes the channels of containers that are not running.
 */
export function terminationOrderingEra(features: FeatureGates, version: VersionLike): TerminationOrderingEra {
  if (!features.SidecarContainers || !atLeast(version, "1.29")) return "none";
  return fixedIn(version, "1.29.8", "1.30.4", "1.31.0") ? "ignoresNotStarted" : "waitsForNotStarted";
}

/**
 * The gates as kuberuntime obeys them. 1.28.0 and 1.28.1 ran the SidecarContainers code of
 * kuberuntime (computeInitContainerActions, the InitContainersToStart loop) whatever the gate said
 * (issue #120247: "This occurs *without* enabling the new SidecarFeatureGate"); PR #120281,
 * cherry-picked as #120440 into 1.28.2, put it behind the gate (race R20).
 */
export function sidecarCodeGates(features: FeatureGates, version: VersionLike): FeatureGates {
  const ungated = atLeast(version, "1.28") && !fixedIn(version, "1.28.2");
  return ungated ? { ...features, SidecarContainers: true } : features;
}

export class KubeGenericRuntimeManager {
  readonly m: ManagerContext;
  private readonly livenessManager: ProbeResultsGetter;
  private readonly startupManager: ProbeResultsGetter;
  private readonly features: FeatureGates;
  private readonly version: VersionLike | undefined;
  private readonly lostContainerReadsAPIStatus: boolean;
  private readonly backOffFromFirstStart: boolean;

  constructor(o: RuntimeManagerOptions) {
    const group = o.group ?? "kubelet";
    const version = o.version ?? DEFAULT_VERSION;
    const recorder = o.recorder ?? new TraceEventRecorder(o.sim);
    const clock = { nowMs: () => o.sim.nowMs };
    const puller = o.serializeImagePulls === false
      ? new ParallelImagePuller(o.sim, o.imageService, group, o.maxParallelImagePulls ?? null)
      : new SerialImagePuller(o.sim, o.imageService, group);
    const imageBackOff = o.imageBackOff ?? NewBackOff(clock, backOffPeriodMs, MaxContainerBackOffMs);
    this.m = {
      sim: o.sim,
      runtimeName: o.runtimeName ?? "containerd",
      runtimeService: o.runtimeService,
      imageService: o.imageService,
      recorder,
      imagePuller: new ImageManager(o.sim, o.imageService, recorder, imageBackOff, puller, atLeast(version, "1.32")),
      runner: new HandlerRunner(o.runtimeService, o.network),
      podStateProvider: o.podStateProvider ?? noTerminationRequested,
      group,
      skipVanishedOnStatus: atLeast(version, "1.24"),
      activeContainerStatuses: atLeast(version, "1.33"),
      eventedPLEG: o.eventedPLEG === true,
      podStatusTimestampFixed: atLeast(version, POD_STATUS_TIMESTAMP_FIX_RELEASE),
    };
    this.livenessManager = o.livenessManager ?? noProbeResults;
    this.startupManager = o.startupManager ?? noProbeResults;
    this.features = sidecarCodeGates(o.features ?? { SidecarContainers: true }, version);
    this.version = o.version;
    this.lostContainerReadsAPIStatus = o.lostContainerReadsAPIStatus === true;
    this.backOffFromFirstStart = o.backOffFromFirstStart === true;
  }

  /**
   * SyncPod syncs the running pod into the desired pod: 1. compute sandbox and container changes;
   * 2. kill the pod sandbox if necessary; 3. kill containers that should not run; 4. create the
   * sandbox if necessary; 5. start ephemeral containers; 6. init containers; 7. containers.
   * ctx reaches the image pulls only (null: they cannot be cancelled).
   */
  *SyncPod(pod: Pod, podStatus: PodStatus, _pullSecrets: readonly unknown[], backOff: Backoff, ctx: CallContext | null = null): Proc<PodSyncResult> {
    const m = this.m;
    const result = new PodSyncResult();
    trace(m, "SyncPod", pod, { phase: "begin" });
    // Step 1: Compute sandbox and container changes.
    const changes = computePodActions(pod, podStatus, {
      livenessManager: this.livenessManager, startupManager: this.startupManager, features: this.features,
      ...(this.version === undefined ? {} : { version: this.version }),
      lostContainerReadsAPIStatus: this.lostContainerReadsAPIStatus,
    });
    trace(m, "computePodActions", pod, { actions: podActionsString(changes) });
    if (changes.CreateSandbox && changes.SandboxID !== "") {
      m.recorder.Eventf(pod, "Normal", SandboxChanged, "Pod sandbox changed, it will be killed and re-created.");
    }
    if (yield* this.killStep(pod, podStatus, changes, result)) {
      // Keep terminated init containers fairly aggressively controlled.
      yield* pruneInitContainersBeforeStart(m, pod, podStatus);
      const sandbox = yield* this.createSandboxStep(pod, podStatus, changes, result);
      if (sandbox !== null) {
        // Get podSandboxConfig for containers to start.
        result.AddSyncResult(NewSyncResult("ConfigPodSandbox", sandbox.id));
        const podSandboxConfig = generatePodSandboxConfig(pod, changes.Attempt);
        const sc: StartContext = { pod, podStatus, backOff, podSandboxID: sandbox.id, podSandboxConfig, result, ctx };
        yield* this.startStep(sc, changes);
      }
    }
    const err = result.Error();
    trace(m, "SyncPod", pod, { phase: "end", ...(err === null ? {} : { error: err }) });
    return result;
  }

  /** Steps 2 and 3: kill the whole pod, or the unwanted containers. False ends SyncPod. */
  private *killStep(pod: Pod, podStatus: PodStatus, changes: PodActions, result: PodSyncResult): Proc<boolean> {
    const m = this.m;
    if (changes.KillPod) {
      // Step 2: Kill the pod if the sandbox has changed (or all other containers are dead).
      const killResult = yield* this.killPodWithSyncResult(pod, ConvertPodStatusToRunningPod(m.runtimeName, podStatus), null);
      result.AddPodSyncResult(killResult);
      if (killResult.Error() !== null) return false;
      if (changes.CreateSandbox) yield* purgeInitContainers(m, pod, podStatus);
      return true;
    }
    // Step 3: kill any running containers in this pod which are not to keep, in Go map order.
    for (const key of m.sim.mapOrder([...changes.ContainersToKill.keys()].sort())) {
      const info = changes.ContainersToKill.get(key)!;
      const killContainerResult = NewSyncResult("KillContainer", info.name);
      result.AddSyncResult(killContainerResult);
      const err = yield* killContainer(m, pod, info.containerID, info.name, info.message, info.reason, null);
      if (err !== null) {
        killContainerResult.Fail(ErrKillContainer, err);
        return false;
      }
    }
    return true;
  }

  /** Step 4: create a sandbox if necessary and read its IPs. Null ends SyncPod. */
  private *createSandboxStep(pod: Pod, podStatus: PodStatus, changes: PodActions, result: PodSyncResult): Proc<{ id: string; podIPs: string[] } | null> {
    const m = this.m;
    // We default to the IPs in the passed-in pod status, and overwrite them if the sandbox is (re)started.
    if (!changes.CreateSandbox) return { id: changes.SandboxID, podIPs: podStatus.ips };
    const createSandboxResult = NewSyncResult("CreatePodSandbox", formatPod(pod));
    result.AddSyncResult(createSandboxResult);
    const startMs = m.sim.nowMs;
    const created = yield* createPodSandbox(m, pod, changes.Attempt);
    if (created.err !== null) {
      trace(m, "CreatePodSandbox", pod, { attempt: changes.Attempt, sinceMs: startMs, error: created.err.message });
      // If the pod has been deleted while its sandbox was being created, it is not a real error.
      if (m.podStateProvider.IsPodTerminationRequested(pod.metadata.uid ?? "")) return null;
      createSandboxResult.Fail(ErrCreatePodSandbox, created.msg);
      m.recorder.Eventf(pod, "Warning", FailedCreatePodSandBox, `Failed to create pod sandbox: ${created.err.message}`);
      return null;
    }
    const resp = yield* m.runtimeService.PodSandboxStatus(created.id);
    if (resp instanceof CriError) {
      m.recorder.Eventf(pod, "Warning", FailedStatusPodSandBox, `Unable to get pod sandbox status: ${resp.message}`);
      result.Fail(resp.message);
      return null;
    }
    // If we ever allow updating a pod from non-host-network to host-network, we may use a stale IP.
    const podIPs = IsHostNetworkPod(pod) ? podStatus.ips : determinePodSandboxIPs(resp);
    trace(m, "CreatePodSandbox", pod, { attempt: changes.Attempt, id: created.id, ips: podIPs, sinceMs: startMs });
    return { id: created.id, podIPs };
  }

  /** Steps 5 to 7: ephemeral containers, then the next init container(s), then containers. */
  private *startStep(ctx: StartContext, changes: PodActions): Proc<void> {
    const { pod } = ctx;
    // Step 5: start ephemeral containers, "prior" to init containers.
    for (const idx of changes.EphemeralContainersToStart ?? []) {
      yield* this.start(ctx, "ephemeral container", ephemeralContainerStartSpec(pod.spec.ephemeralContainers![idx]!));
    }
    const inits = pod.spec.initContainers ?? [];
    if (!this.features.SidecarContainers) {
      // Step 6: start the next init container.
      const next = changes.NextInitContainerToStart;
      if (next !== null && (yield* this.start(ctx, "init container", containerStartSpec(next))) !== null) return;
    } else {
      // Step 6: start init containers; a failed sidecar does not stop the others.
      for (const idx of changes.InitContainersToStart ?? []) {
        const container = inits[idx]!;
        if ((yield* this.start(ctx, "init container", containerStartSpec(container))) === null) continue;
        if (isRestartableInitContainer(container)) continue;
        return;
      }
    }
    // Step 7: start containers in podContainerChanges.ContainersToStart.
    for (const idx of changes.ContainersToStart) yield* this.start(ctx, "container", containerStartSpec(pod.spec.containers[idx]!));
  }

  /** SyncPod's start(): the crash-loop backoff check, then startContainer. Returns the error name or null. */
  private *start(ctx: StartContext, typeName: string, spec: StartSpec): Proc<string | null> {
    const m = this.m;
    const { pod, podStatus, result } = ctx;
    const startContainerResult = NewSyncResult("StartContainer", spec.container.name);
    result.AddSyncResult(startContainerResult);
    const startMs = m.sim.nowMs;
    // The record's fields as literals, not a spread of `fields` (on Node 20's V8 a spread of a fresh
    // object followed by a property costs about 1 µs: see podFields in container/cache.ts).
    const fields = (): Record<string, unknown> => ({ container: spec.container.name, type: typeName, sinceMs: startMs });
    const backOff = doBackOff(pod, spec.container, podStatus, ctx.backOff, this.backOffFromFirstStart);
    if (backOff.isInBackOff) {
      m.recorder.Eventf(pod, "Warning", BackOffStartContainer, backOff.eventMessage, containerFieldPath(pod, spec.container));
      startContainerResult.Fail(backOff.err!, backOff.message);
      const f = fields();
      f.error = backOff.err;
      f.message = backOff.message;
      trace(m, "StartContainer", pod, f);
      return backOff.err;
    }
    const { msg, err } = yield* startContainer(m, ctx.podSandboxID, ctx.podSandboxConfig, spec, pod, podStatus, ctx.ctx);
    if (err !== null) startContainerResult.Fail(err, msg);
    const f = fields();
    if (err !== null) {
      f.error = err;
      f.message = msg;
    }
    trace(m, "StartContainer", pod, f);
    return err;
  }

  /** KillPod kills all the containers of a pod; pod may be null, runningPod must not be. Returns the error text or null. */
  *KillPod(pod: Pod | null, runningPod: RuntimePod, gracePeriodOverride: number | null): Proc<string | null> {
    const result = yield* this.killPodWithSyncResult(pod, runningPod, gracePeriodOverride);
    return result.Error();
  }

  /** killPodWithSyncResult kills a runningPod's containers, then stops all its sandboxes. */
  *killPodWithSyncResult(pod: Pod | null, runningPod: RuntimePod, gracePeriodOverride: number | null): Proc<PodSyncResult> {
    const m = this.m;
    const result = new PodSyncResult();
    const startMs = m.sim.nowMs;
    const ordering = terminationOrderingEra(this.features, this.version ?? DEFAULT_VERSION);
    result.AddSyncResult(...(yield* killContainersWithSyncResult(m, pod, runningPod, gracePeriodOverride, ordering)));
    // Stop sandbox; the sandbox will be removed in GarbageCollect.
    const killSandboxResult = NewSyncResult("KillPodSandbox", runningPod.id);
    result.AddSyncResult(killSandboxResult);
    // Stop all sandboxes belonging to the same pod.
    for (const podSandbox of runningPod.sandboxes) {
      const err = yield* m.runtimeService.StopPodSandbox(podSandbox.id.id);
      if (err instanceof CriError && !isNotFound(err)) killSandboxResult.Fail(ErrKillPodSandbox, err.message);
    }
    const err = result.Error();
    m.sim.emit(TRACE_COMPONENT, "KillPod", {
      pod: `${runningPod.namespace}/${runningPod.name}`,
      containers: runningPod.containers.map((c) => c.name),
      sandboxes: runningPod.sandboxes.map((s) => s.id.id),
      sinceMs: startMs,
      ...(err === null ? {} : { error: err }),
    });
    return result;
  }

  /** GetPodStatus: sandboxes and containers of the pod UID, newest first. */
  GetPodStatus(uid: string, name: string, namespace: string): Proc<PodStatus | CriError> {
    return GetPodStatus(this.m, uid, name, namespace);
  }

  /** GeneratePodStatus: the pod status a container event of the runtime's stream carries (Evented PLEG). */
  GeneratePodStatus(event: ContainerEventResponse): PodStatus {
    return GeneratePodStatus(event, this.m.runtimeName);
  }

  /** GetPods: running pods (or all, with exited containers and not-ready sandboxes). */
  GetPods(all: boolean): Proc<RuntimePod[] | CriError> {
    return GetPods(this.m, all);
  }
}
