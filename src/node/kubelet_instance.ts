// Builds one kubelet process: every in-memory component of the kubelet, wired as NewMainKubelet
// and Kubelet.Run do, for the era the scenario's version selects. A kubelet restart throws the
// instance away (its processes are killed as the "kubelet" group) and builds a new one.
import type { Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import type { ApiServer } from "../apiserver/index.ts";
import type { SimRuntime } from "../cri/runtime.ts";
import { makePodSourceConfig, type ManifestDir } from "../kubelet/config/index.ts";
import { Cache } from "../kubelet/container/cache.ts";
import { GenericPLEG } from "../kubelet/pleg/generic.ts";
import { EventedPLEG, EVENT_TIMESTAMP_FIX_RELEASE, eventedPlegRelistPeriodMs, eventedPlegRelistThresholdMs } from "../kubelet/pleg/evented.ts";
import { plegChannelCapacity, type PodLifecycleEvent } from "../kubelet/pleg/pleg.ts";
import type { ProbeResultsGetter } from "../kubelet/kuberuntime/pod_actions.ts";
import { containerIDString } from "../kubelet/container/runtime.ts";
import { KubeGenericRuntimeManager } from "../kubelet/kuberuntime/kuberuntime_manager_sync.ts";
import { TraceEventRecorder } from "../kubelet/kuberuntime/events.ts";
import { StatusManager } from "../kubelet/status/status_manager.ts";
import { ProberManager } from "../kubelet/prober/prober_manager.ts";
import { ResultsManager } from "../kubelet/prober/results/results_manager.ts";
import { criProbeRunner } from "../kubelet/prober/prober.ts";
import { ActiveDeadlineHandler } from "../kubelet/active_deadline.ts";
import { NewBackOff } from "../kubelet/util/backoff.ts";
import { ReasonCache } from "../kubelet/reason_cache.ts";
import { RuntimeState } from "../kubelet/runtime_state.ts";
import { DeviceManager, type PodDevicesCheckpoint } from "../kubelet/cm/devicemanager/manager.ts";
import { KubernetesContainerNameLabel, KubernetesPodUIDLabel } from "../kubelet/kuberuntime/labels.ts";
import { generateAPIPodStatus, kubeletPodsEra } from "../kubelet/kubelet_pods.ts";
import { KubeletCore, isLegacyEra } from "../kubelet/kubelet_core.ts";
import { Kubelet } from "../kubelet/kubelet.ts";
import { PodWorkers, killPodNow } from "../kubelet/pod_workers.ts";
import { EvictionManager } from "../kubelet/eviction/eviction_manager.ts";
import { LegacyPodWorkers } from "../kubelet/pod_workers_legacy.ts";
import { KubeletSyncer } from "../kubelet/kubelet_sync.ts";
import { LegacyKubeletSyncer } from "../kubelet/kubelet_sync_legacy.ts";
import { KubeletHandlers } from "../kubelet/kubelet_handlers.ts";
import { LegacyKubeletHandlers } from "../kubelet/kubelet_handlers_legacy.ts";
import { PodContainerDeletor } from "../kubelet/pod_container_deletor.ts";
import { MirrorClient } from "../kubelet/mirror_client.ts";
import { LegacyVolumePopulator } from "../kubelet/volumemanager/populator_legacy.ts";
import { deletionSafety, legacyDeletionSafety } from "../kubelet/kubelet_deletion_safety.ts";
import { RunOnceKubelet } from "../kubelet/runonce.ts";
import type { KubeletConfig, KubeletDeps } from "../kubelet/kubelet_deps.ts";
import type { PodSetup } from "../kubelet/kubelet_sync_common.ts";
import { KubeletRuntime } from "./runtime_adapter.ts";
import type { KubeletSettings } from "./settings.ts";
import { atLeast, type KubeletVersion } from "../kubelet/version.ts";
import type { KubeletNodeLister } from "./kubelet_node_lister.ts";

export interface KubeletInstanceOptions {
  sim: Sim;
  settings: KubeletSettings;
  api: ApiServer;
  /** The kubelet's name as the apiserver's client ("kubelet"; "kubelet@<node>" in a cluster). */
  apiActor?: string;
  runtime: SimRuntime;
  /** The static pod directory, when the scenario has file pods. */
  manifestDir: ManifestDir | null;
  /** Static pods ("namespace/name") the kubelet takes without validating them (skipApiValidation). */
  skipStaticPodValidation?: ReadonlySet<string>;
  /** The device manager's checkpoint (kubelet_internal_checkpoint): it outlives a kubelet restart. */
  podDevicesCheckpoint: PodDevicesCheckpoint;
  /** The kubelet's Node informer, in a cluster (getNodeAnyWay reads it); absent on a lone node. */
  nodeLister?: KubeletNodeLister;
}

/** A kubelet-internal kill (eviction): how the era's kubelet terminates a pod abnormally. */
export type Evictor = (pod: Pod, gracePeriodSeconds: number | undefined, reason: string, message: string) => void;

export class KubeletInstance {
  readonly core: KubeletCore;
  readonly statusManager: StatusManager;
  readonly evict: Evictor;
  readonly pleg: GenericPLEG;
  /** The syncLoop's owner (null in runOnce mode, which has no syncLoop). */
  readonly syncLoop: Kubelet | null;
  /** The device manager, when the node has device plugins (they register with it). */
  readonly deviceManager: DeviceManager | null;
  /** The pod status cache, and the era's pod workers (null in runOnce mode): play mode shows their state. */
  readonly podCache: Cache;
  readonly podWorkers: PodWorkers | LegacyPodWorkers | null = null;
  /** runtimeState.runtimeErrors, as the node status's Ready condition reads it (null: healthy). */
  readonly runtimeError: () => string | null;

  constructor(o: KubeletInstanceOptions) {
    const { sim, settings } = o;
    const version: KubeletVersion = { minor: settings.minor, patch: settings.patch };
    const recorder = new TraceEventRecorder(sim, "kubelet");
    const kubeClient = o.api.client(o.apiActor ?? "kubelet");
    const { podConfig } = makePodSourceConfig(sim, {
      nodeName: settings.nodeName,
      kubeClient,
      ...(o.manifestDir === null ? {} : { manifestDir: o.manifestDir }),
      fileCheckFrequencyMs: settings.fileCheckFrequencyMs,
      ...(o.skipStaticPodValidation === undefined ? {} : { skipStaticPodValidation: o.skipStaticPodValidation }),
    });
    const sources = o.manifestDir === null ? ["api"] : ["file", "api"];
    const liveness = new ResultsManager(sim, "liveness");
    const readiness = new ResultsManager(sim, "readiness");
    const startup = new ResultsManager(sim, "startup");
    // The pod workers are built after the runtime manager, which asks them about termination.
    let terminationRequested: (uid: string) => boolean = () => false;
    let couldHaveRunningContainers: (uid: string) => boolean = () => true;
    const manager = new KubeGenericRuntimeManager({
      sim, runtimeService: o.runtime, imageService: o.runtime, network: o.runtime, recorder,
      livenessManager: probeResultsGetter(liveness), startupManager: probeResultsGetter(startup),
      features: { SidecarContainers: settings.featureGates.SidecarContainers },
      eventedPLEG: settings.featureGates.EventedPLEG,
      podStateProvider: { IsPodTerminationRequested: (uid) => terminationRequested(uid) },
      serializeImagePulls: settings.serializeImagePulls,
      // kubelet.go: imageBackOff := flowcontrol.NewBackOff(backOffPeriod, MaxContainerBackOff), as the container back-off.
      imageBackOff: NewBackOff({ nowMs: () => sim.nowMs }, settings.backOffPeriodMs, settings.maxContainerBackOffMs),
      version,
      lostContainerReadsAPIStatus: settings.variants.lostContainerReadsAPIStatus === true,
      backOffFromFirstStart: settings.variants.backOffFromFirstStart === true,
    });
    const runtime = new KubeletRuntime(sim, manager, o.runtime, settings.backOffPeriodMs, settings.maxContainerBackOffMs);
    const evented = settings.featureGates.EventedPLEG;
    const cache = new Cache(sim, evented);
    this.podCache = cache;
    // kubelet.go: one event channel for both PLEGs; with the Evented PLEG the generic one relists
    // every 300 s, and falls back to the configured period if the event stream fails.
    const eventChannel = sim.chan<PodLifecycleEvent>("pleg/events", plegChannelCapacity);
    const genericRelistDuration = { relistPeriodMs: settings.plegRelistPeriodMs, relistThresholdMs: settings.plegRelistThresholdMs };
    const pleg = new GenericPLEG(sim, manager, cache, {
      relistDuration: evented ? { relistPeriodMs: eventedPlegRelistPeriodMs, relistThresholdMs: eventedPlegRelistThresholdMs } : genericRelistDuration,
      eventChannel,
      eventedPLEG: evented,
      // eventedPleg is made below; the generic PLEG asks it only while relisting.
      isEventedPLEGInUse: (): boolean => eventedPleg?.InUse === true,
      setCurrentKeepsMissingPods: settings.variants.plegSetCurrentKeepsMissingPods === true,
    });
    const eventedPleg = !evented ? null : new EventedPLEG(sim, o.runtime, cache, pleg, {
      eventChannel,
      generatePodStatus: (e) => manager.GeneratePodStatus(e),
      createdAtTimestampFixed: atLeast(version, EVENT_TIMESTAMP_FIX_RELEASE),
      relistDuration: genericRelistDuration,
    });
    // kubelet.go: klet.runtimeState.addHealthCheck("PLEG", klet.pleg.Healthy), and "EventedPLEG" with
    // the gate. Simplified: the PLEG check counts from the first successful relist, as if the kubelet
    // started with it done (upstream's syncLoop skips its first iterations until then).
    const runtimeState = new RuntimeState();
    this.runtimeError = () => runtimeState.runtimeErrors()?.message ?? null;
    runtimeState.addHealthCheck("PLEG", () => (pleg.relistTimeMs === null ? { ok: true, err: null } : pleg.Healthy()));
    if (eventedPleg !== null) runtimeState.addHealthCheck("EventedPLEG", () => eventedPleg.Healthy());
    this.pleg = pleg;
    let syncLoop: Kubelet | null = null;
    const reasonCache = new ReasonCache();
    const config: KubeletConfig = {
      version: settings.version,
      syncFrequencyMs: settings.syncFrequencyMs,
      housekeepingPeriodMs: settings.housekeepingPeriodMs,
      node: settings.node,
      ...(o.nodeLister === undefined ? {} : { getNode: () => o.nodeLister!.node(settings.node) }),
      sidecarContainers: settings.featureGates.SidecarContainers,
      networkReady: () => true,
      runtimeErrors: () => runtimeState.runtimeErrors(),
      volumeSetupMs: settings.volumeSetupMs,
      cgroupSetupMs: settings.cgroupSetupMs,
    };
    // Components that need one another are tied through late-bound closures, as Go's struct fields are.
    let setup: PodSetup | null = null;
    const podManagerRef: { pm: KubeletCore["podManager"] | null } = { pm: null };
    this.statusManager = new StatusManager(sim, {
      kubeClient,
      podManager: {
        GetPodByUID: (uid) => podManagerRef.pm!.GetPodByUID(uid),
        GetMirrorPodByPod: (pod) => podManagerRef.pm!.GetMirrorPodByPod(pod),
        TranslatePodUID: (uid) => podManagerRef.pm!.TranslatePodUID(uid),
        GetUIDTranslations: () => podManagerRef.pm!.GetUIDTranslations(),
      },
      podDeletionSafety: {
        PodResourcesAreReclaimed: (pod, status) => safety().PodResourcesAreReclaimed(pod, status),
        PodCouldHaveRunningContainers: (pod) => safety().PodCouldHaveRunningContainers(pod),
      },
      version,
      sidecarContainers: settings.featureGates.SidecarContainers,
      patchWithoutUIDPrecondition: settings.variants.statusPatchWithoutUIDPrecondition === true,
    });
    const statusManager = this.statusManager;
    const prober = new ProberManager(sim, {
      statusManager, livenessManager: liveness, readinessManager: readiness, startupManager: startup,
      runner: criProbeRunner(o.runtime, o.runtime), recorder, version,
      podManager: settings.variants.proberReadsLatestPod === true ? { GetPodByUID: (uid) => podManagerRef.pm!.GetPodByUID(uid) } : null,
      readinessInheritedOnlyForSameContainerID: settings.variants.readinessInheritedOnlyForSameContainerID === true,
    });
    const era = kubeletPodsEra(version);
    // The kubelet registers its active deadline handler both as a sync loop handler and as a pod sync handler.
    const activeDeadline = new ActiveDeadlineHandler(sim, statusManager, recorder);
    const deps: KubeletDeps = {
      configUpdates: podConfig.updates,
      pleg,
      podCache: cache,
      runtime,
      statusManager,
      statusGenerator: {
        generateAPIPodStatus: (pod, podStatus, podIsTerminal) =>
          generateAPIPodStatus(pod, podStatus, podIsTerminal, {
            era, reasonCache,
            startedInheritedOnlyForSameContainerID: settings.variants.startedInheritedOnlyForSameContainerID === true,
            statusManagerPodStatus: (uid) => statusManager.GetPodStatus(uid),
            probeManagerUpdatePodStatus: (p, s) => prober.UpdatePodStatus(p, s),
            sidecarContainers: settings.featureGates.SidecarContainers,
            readyToStartContainersCondition: settings.featureGates.PodReadyToStartContainersCondition,
            shouldEvict: (p) => activeDeadline.ShouldEvict(p),
            // getHostIPsAnyWay: the node's address (the kubelet always has an API client here).
            hostIPs: [settings.nodeIP],
            nodeIPs: [settings.nodeIP],
          }),
        // What the two read besides their arguments (kubelet/status_reuse.ts); an active deadline reads the time.
        generation: (pod) =>
          pod.spec.activeDeadlineSeconds == null ? statusManager.generation + prober.generation + reasonCache.generation : undefined,
      },
      reasonCache,
      probeManager: prober,
      livenessManager: liveness,
      readinessManager: readiness,
      startupManager: startup,
      recorder,
      backOffGC: () => runtime.backOff.GC(),
      containerDeletor: new PodContainerDeletor(sim, runtime),
      podSyncLoopHandlers: [activeDeadline],
      mirrorClient: new MirrorClient(sim, kubeClient, settings.nodeName),
    };
    const deviceManager = settings.devicePlugins.length === 0 ? null : this.newDeviceManager(o, () => this.core.sourcesReady.AllReady());
    if (deviceManager !== null) deps.admitHandlers = [deviceManager];
    this.deviceManager = deviceManager;
    this.core = new KubeletCore(sim, deps, config, sources);
    podManagerRef.pm = this.core.podManager;
    const legacy = isLegacyEra(settings.version);
    let safetyProvider: ReturnType<typeof deletionSafety> | null = null;
    const safety = () => safetyProvider!;
    if (settings.runOnce) {
      const syncer = new KubeletSyncer(this.core, () => false);
      setup = syncer.setup;
      safetyProvider = deletionSafety(() => false, setup);
      this.evict = () => {};
      const runner = new RunOnceKubelet(this.core, syncer);
      sim.go("kubelet/runOnce", function* () {
        const [, err] = yield* runner.RunOnce();
        sim.emit("kubelet", "RunOnceDone", { err: err === null ? null : err.message });
      }, { group: "kubelet" });
    } else if (legacy) {
      const syncer = new LegacyKubeletSyncer(this.core);
      setup = syncer.setup;
      safetyProvider = legacyDeletionSafety(cache, setup);
      const workers = new LegacyPodWorkers(sim, (opts) => syncer.syncPod(opts), recorder, this.core.workQueue,
        settings.syncFrequencyMs, settings.backOffPeriodMs, cache);
      this.podWorkers = workers;
      const handlers = new LegacyKubeletHandlers(this.core, workers, syncer);
      handlers.Start();
      new LegacyVolumePopulator(this.core, syncer).Start();
      syncLoop = new Kubelet(this.core, handlers);
      syncLoop.Run();
      // Simplified: the status handed over keeps the pod's other status fields (upstream's is bare).
      const eviction = new EvictionManager({ legacy: true, kill: (pod, status, grace) => workers.killPodNow(pod, { ...(pod.status ?? {}), ...status }, grace) }, recorder);
      this.evict = evictor(sim, eviction);
    } else {
      let workers: PodWorkers | null = null;
      const syncer = new KubeletSyncer(this.core, (uid) => workers!.IsPodTerminationRequested(uid), {
        cancelImagePullOnTermination: settings.variants.cancelImagePullOnTermination === true,
        killHonoursShortenedGrace: settings.variants.killHonoursShortenedGrace === true,
      });
      setup = syncer.setup;
      workers = new PodWorkers(sim, syncer, recorder, this.core.workQueue, settings.syncFrequencyMs, settings.backOffPeriodMs, cache);
      workers.restartOnUIDReuse = settings.variants.terminatedUIDCannotReenter !== true;
      workers.staticPodStartGating = atLeast(version, "1.22.5");
      workers.orphansDrivenByHousekeeping = atLeast(version, "1.27");
      const w = workers;
      this.podWorkers = w;
      terminationRequested = (uid) => w.IsPodTerminationRequested(uid);
      couldHaveRunningContainers = (uid) => w.CouldHaveRunningContainers(uid);
      safetyProvider = deletionSafety((uid) => couldHaveRunningContainers(uid), setup);
      syncLoop = new Kubelet(this.core, new KubeletHandlers(this.core, w));
      syncLoop.Run();
      this.evict = evictor(sim, new EvictionManager({ legacy: false, kill: killPodNow(w, sim, recorder) }, recorder));
    }
    this.syncLoop = syncLoop;
    // Kubelet.Run starts the status manager, the prober manager and the PLEG before syncLoop;
    // RunOnce starts none of them (runonce.go), so in that mode no status reaches the apiserver.
    if (!settings.runOnce) {
      statusManager.Start();
      prober.Start();
      pleg.Start();
      eventedPleg?.Start();
    }
  }

  private newDeviceManager(o: KubeletInstanceOptions, sourcesReady: () => boolean): DeviceManager {
    const running = runningContainerSet(o.runtime);
    return new DeviceManager({
      checkpoint: o.podDevicesCheckpoint,
      sourcesReady,
      isContainerRunning: (uid, name) => running.has(`${uid}/${name}`),
      emit: (kind, fields) => o.sim.emit("kubelet", kind, fields),
    });
  }
}

/** The running containers as Start's container map sees them: "podUID/containerName". */
function runningContainerSet(runtime: SimRuntime): Set<string> {
  return new Set(runtime.runningContainerLabels().map((l) => `${l[KubernetesPodUIDLabel] ?? ""}/${l[KubernetesContainerNameLabel] ?? ""}`));
}

/** The timeline's `evict` step: the eviction manager's evictPod, in a goroutine of its own. */
function evictor(sim: Sim, eviction: EvictionManager): Evictor {
  return (pod, grace, reason, message) => {
    sim.go(`kubelet/evict/${pod.metadata.name}`, function* () {
      const r = yield* eviction.evictPod(pod, grace, message, reason);
      if (!r.evicted) sim.emit("kubelet", "EvictionFailed", { pod: `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`, err: r.err?.message ?? null });
    }, { group: "kubelet" });
  };
}

/** The prober's results managers (Get by ID string) as the runtime manager reads them (get by ContainerID). */
function probeResultsGetter(m: ResultsManager): ProbeResultsGetter {
  return { get: (id) => m.Get(containerIDString(id)) };
}
