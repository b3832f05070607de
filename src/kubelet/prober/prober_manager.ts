// Models pkg/kubelet/prober/prober_manager.go (manager: AddPod, StopLivenessAndStartup, RemovePod, CleanupPods, UpdatePodStatus).
//
// The workers map is keyed by probeKey (pod UID, container name, probe type). From 1.28 the
// restartable init containers (sidecars) are probed too, after the regular containers, as
// getRestartableInitContainers appends them. From 1.35 (ChangeContainerStatusOnKubeletRestart off
// by default, KEP-4781) Started and Ready survive a kubelet restart: isContainerStarted trusts a
// Started=true status without a startup result, and setReadyStateOnKubeletRestart keeps a container
// that predates the kubelet Ready while the API's pod is Ready. Simplified: workerLock is not
// modelled, since no method yields while holding it.
import type { VersionLike } from "../version.ts";
import type { Container, ContainerStatus, Pod, PodStatus } from "../../k8s/pod.ts";
import { isRestartableInitContainer } from "../../k8s/podutil.ts";
import { recv, type Proc, type Sim } from "../../sim/index.ts";
import type { EventRecorder } from "../kuberuntime/events.ts";
import { proberEra, type ProberEra } from "./era.ts";
import { Prober, type ProbeRunner } from "./prober.ts";
import { Worker, apiContainerID, type WorkerHost } from "./worker.ts";
import { KUBELET_RESTART_GRACE_MS, type ProbeType } from "./worker_core.ts";
import { parseMetaTime } from "../status/metatime.ts";
import { GO_ZERO_TIME_MS } from "../container/runtime.ts";
import type { ResultsManager } from "./results/results_manager.ts";

/** The status manager as the prober uses it (status.Manager upstream). */
export interface ProberStatusManager {
  GetPodStatus(uid: string): PodStatus | undefined;
  /** Called by the ≤1.20 manager's own update goroutines; from 1.21 the syncLoop calls them. */
  SetContainerReadiness(podUID: string, containerID: string, ready: boolean): void;
  SetContainerStartup(podUID: string, containerID: string, started: boolean): void;
}

/** The pod manager as the variant proberReadsLatestPod lets the workers read it (PR #107514). */
export interface ProberPodManager {
  GetPodByUID(uid: string): Pod | undefined;
}

export interface ProberManagerOptions {
  statusManager: ProberStatusManager;
  livenessManager: ResultsManager;
  /** Owned by the prober manager before 1.21, passed in by the kubelet from 1.21; passed in here for both. */
  readinessManager: ResultsManager;
  startupManager: ResultsManager;
  runner: ProbeRunner;
  /** The kubelet's event recorder, for the prober's Unhealthy and ProbeWarning events (none without one). */
  recorder?: EventRecorder;
  /** The kubelet release (a minor means its .0 release). */
  version: VersionLike;
  /** Process group of the workers (killed together on a kubelet restart). */
  group?: string;
  /**
   * Variant proberReadsLatestPod (PR #107514, closed): the workers read the pod manager's current
   * pod for the graceful-shutdown check instead of their snapshot. Null or absent: upstream.
   */
  podManager?: ProberPodManager | null;
  /**
   * Variant readinessInheritedOnlyForSameContainerID (PR #141487, merged after 1.37; cherry-picks
   * open): readiness survives a kubelet restart only for the container the API's status names.
   */
  readinessInheritedOnlyForSameContainerID?: boolean;
}

/** probeKey as one string. */
function probeKey(podUID: string, containerName: string, probeType: ProbeType): string {
  return `${podUID}/${containerName}/${probeType}`;
}

export class ProberManager implements WorkerHost {
  readonly era: ProberEra;
  readonly prober: Prober;
  /** When the manager was created (upstream: clock.RealClock{}.Now() in NewManager). */
  readonly startMs: number;
  readonly group: string;
  readonly podManager: ProberPodManager | null;
  readonly readinessInheritedOnlyForSameContainerID: boolean;
  private readonly workers = new Map<string, Worker>();
  private readonly statusManager: ProberStatusManager;
  private readonly livenessManager: ResultsManager;
  private readonly readinessManager: ResultsManager;
  private readonly startupManager: ResultsManager;
  /** What `generation` counts besides the results managers' own changes. */
  private changes = 0;

  constructor(
    readonly sim: Sim,
    opts: ProberManagerOptions,
  ) {
    this.era = proberEra(opts.version);
    this.prober = new Prober(sim, opts.runner, { recorder: opts.recorder ?? null, era: this.era });
    this.startMs = sim.nowMs;
    this.group = opts.group ?? "kubelet";
    this.podManager = opts.podManager ?? null;
    this.readinessInheritedOnlyForSameContainerID = opts.readinessInheritedOnlyForSameContainerID === true;
    this.statusManager = opts.statusManager;
    this.livenessManager = opts.livenessManager;
    this.readinessManager = opts.readinessManager;
    this.startupManager = opts.startupManager;
  }

  /**
   * Not upstream: a change count of what UpdatePodStatus reads (the workers, the results) and of
   * what it did besides setting fields (a manual trigger, a mismatch record). Equal numbers, the
   * same answers for the same statuses, with nothing else done: the kubelet's status reuse
   * (kubelet/status_reuse.ts) compares them.
   */
  get generation(): number {
    return this.changes + this.livenessManager.generation + this.readinessManager.generation + this.startupManager.generation;
  }

  /**
   * Start (before 1.21 only): forward readiness and startup results to the status manager, each
   * in its own process (wait.Forever). From 1.21 the kubelet's syncLoop reads those channels.
   */
  Start(): void {
    if (this.era.resultsToSyncLoop) return;
    const forward = (rm: ResultsManager, set: (uid: string, id: string, ok: boolean) => void) =>
      function* (): Proc<void> {
        for (;;) {
          const { value } = yield* recv(rm.Updates());
          set(value!.PodUID, value!.ContainerID, value!.Result === "Success");
        }
      };
    const sm = this.statusManager;
    this.sim.go("prober/updateReadiness", forward(this.readinessManager, (u, c, ok) => sm.SetContainerReadiness(u, c, ok)), { group: this.group, daemon: true });
    this.sim.go("prober/updateStartup", forward(this.startupManager, (u, c, ok) => sm.SetContainerStartup(u, c, ok)), { group: this.group, daemon: true });
  }

  /** The workers and what each last saw, read-only (play mode's shared state). */
  workersView(): { name: string; containerID: string; lastResult: string; resultRun: number; onHold: boolean }[] {
    return [...this.workers.values()].map((w) => ({ name: w.name, ...w.workerState }));
  }

  /** AddPod creates and starts a worker for every probe of every container (and sidecar, from 1.28), in upstream order. */
  AddPod(pod: Pod): void {
    const uid = pod.metadata.uid ?? "";
    for (const c of this.probedContainers(pod)) {
      const wanted: [ProbeType, unknown][] = [["startup", c.startupProbe], ["readiness", c.readinessProbe], ["liveness", c.livenessProbe]];
      for (const [probeType, spec] of wanted) {
        if (spec === undefined) continue;
        const key = probeKey(uid, c.name, probeType);
        if (this.workers.has(key)) {
          // "<Type> probe already exists for container". Upstream returns from AddPod here, so later
          // containers of the pod get no new workers either.
          this.sim.emit("prober", "WorkerExists", { pod: `${pod.metadata.namespace ?? ""}/${pod.metadata.name}`, uid, container: c.name, probeType });
          return;
        }
        const w = new Worker(this, probeType, pod, c);
        this.workers.set(key, w);
        this.changes++;
        this.sim.go(w.name, () => w.run(), { group: this.group, daemon: true });
      }
    }
  }

  /**
   * StopLivenessAndStartup stops the liveness and startup workers of the pod's regular containers
   * (termination). As in the v1.29 text, a sidecar's workers keep running until RemovePod (the
   * newest upstream text stops the sidecars' too; not modelled).
   */
  StopLivenessAndStartup(pod: Pod): void {
    this.stopWorkers(pod, pod.spec.containers, ["liveness", "startup"]);
  }

  /** RemovePod stops every worker of the pod's containers (and sidecars, from 1.28); each cleans up and unregisters itself. */
  RemovePod(pod: Pod): void {
    this.stopWorkers(pod, this.probedContainers(pod), ["readiness", "liveness", "startup"]);
  }

  /**
   * CleanupPods stops the workers of every pod not in desiredPods. Go walks the map in random
   * order, but stop() is a non-blocking send that nothing observes until this process yields, so
   * the order cannot matter and no choice is recorded. Returns how many workers it stopped (not
   * upstream: housekeeping_reuse.ts skips a call that would stop none).
   */
  CleanupPods(desiredPods: ReadonlySet<string>): number {
    let stopped = 0;
    for (const w of this.workers.values()) {
      if (!desiredPods.has(w.uid)) {
        w.stop();
        stopped++;
      }
    }
    return stopped;
  }

  /**
   * UpdatePodStatus sets Started and Ready of each container status in place, from cached results
   * and workers. From 1.28 upstream takes the pod: init container statuses get Started too, and a
   * sidecar's Ready is computed as a regular container's. A caller that passes only the pod UID
   * (the ≤1.27 signature) gets the ≤1.27 treatment of init containers, as there is no spec to tell
   * sidecars apart.
   */
  UpdatePodStatus(podOrUID: Pod | string, podStatus: PodStatus): void {
    const pod = typeof podOrUID === "string" ? null : podOrUID;
    const podUID = typeof podOrUID === "string" ? podOrUID : (podOrUID.metadata.uid ?? "");
    for (const c of podStatus.containerStatuses ?? []) {
      const started = this.isContainerStarted(podUID, c);
      c.started = started;
      // Ready is computed only for started containers (in every release: the ≤1.20 form is the same guard).
      if (!started) continue;
      c.ready = c.state?.running !== undefined && this.readyOf(podUID, c.name, c.containerID ?? "");
      const spec = pod?.spec.containers.find((x) => x.name === c.name);
      if (pod !== null && spec !== undefined) c.ready = this.readyAfterKubeletRestart(c.ready, pod, c, spec);
    }
    if (pod === null || !this.era.restartableInitContainers) {
      // Init containers are ready if they have exited with success.
      for (const c of podStatus.initContainerStatuses ?? []) {
        c.ready = c.state?.terminated !== undefined && c.state.terminated.exitCode === 0;
      }
      return;
    }
    this.updateInitContainerStatuses(pod, podUID, podStatus.initContainerStatuses ?? []);
  }

  /** isContainerStarted: running, and its startup probe succeeded or it has none (no worker left). */
  private isContainerStarted(podUID: string, c: ContainerStatus): boolean {
    if (c.state?.running === undefined) return false;
    const r = this.startupManager.Get(c.containerID ?? "");
    if (r !== undefined) return r === "Success";
    // 1.35: a status that says Started (kept over a kubelet restart, or inherited by name) stands.
    if (this.era.preserveStatusOnKubeletRestart && c.started === true) return true;
    // If there is a startup probe which hasn't run yet, the container is not started.
    return this.getWorker(podUID, c.name, "startup") === undefined;
  }

  /** UpdatePodStatus's init container loop (≥1.28): Started for all, Ready for sidecars as for containers. */
  private updateInitContainerStatuses(pod: Pod, podUID: string, statuses: ContainerStatus[]): void {
    const inits = pod.spec.initContainers ?? [];
    statuses.forEach((c, i) => {
      const started = this.isContainerStarted(podUID, c);
      c.started = started;
      // kubeutil.GetContainerByIndex: the spec at the same index, if the names agree.
      const initContainer = inits[i];
      if (initContainer === undefined || initContainer.name !== c.name) {
        // "Mismatch between pod spec and status, likely programmer error".
        this.changes++;
        this.sim.emit("prober", "StatusSpecMismatch", { uid: podUID, container: c.name });
        return;
      }
      if (!isRestartableInitContainer(initContainer)) {
        if (c.state?.terminated !== undefined && c.state.terminated.exitCode === 0) c.ready = true;
        return;
      }
      if (!started) return;
      c.ready = c.state?.running !== undefined && this.readyOf(podUID, c.name, c.containerID ?? "");
      c.ready = this.readyAfterKubeletRestart(c.ready, pod, c, initContainer);
    });
  }

  /**
   * UpdatePodStatus's 1.35 step for a running container without a readiness Success: when the gate
   * is off, setReadyStateOnKubeletRestart may keep it Ready.
   */
  private readyAfterKubeletRestart(ready: boolean, pod: Pod, c: ContainerStatus, spec: Container): boolean {
    if (!this.era.preserveStatusOnKubeletRestart || c.state?.running === undefined) return ready;
    if (this.readinessManager.Get(c.containerID ?? "") === "Success") return ready;
    return this.setReadyStateOnKubeletRestart(ready, pod, c, spec);
  }

  /**
   * setReadyStateOnKubeletRestart: a container that started before the kubelet restarted (more than
   * kubeletRestartGracePeriod before it) and has no readiness result yet is Ready; if it has a
   * readiness probe, only while the API's pod is Ready. The start time cannot tell a survivor from a
   * replacement the runtime started while the API was unreachable (race R18); the variant
   * readinessInheritedOnlyForSameContainerID (PR #141487) asks that the API's status name this container.
   */
  private setReadyStateOnKubeletRestart(readyIn: boolean, pod: Pod, c: ContainerStatus, spec: Container): boolean {
    const startedAtMs = c.state?.running?.startedAt ? parseMetaTime(c.state.running.startedAt) : GO_ZERO_TIME_MS;
    if (startedAtMs === GO_ZERO_TIME_MS || startedAtMs >= this.startMs - KUBELET_RESTART_GRACE_MS) return readyIn;
    if (this.readinessInheritedOnlyForSameContainerID && apiContainerID(pod, c.name) !== (c.containerID ?? "")) return readyIn;
    let ready = readyIn;
    if (!ready && this.readinessManager.Get(c.containerID ?? "") === undefined) ready = true;
    if (spec.readinessProbe !== undefined) {
      const podIsReady = (pod.status?.conditions ?? []).some((x) => x.type === "Ready" && x.status === "True");
      if (!podIsReady) ready = false;
    }
    return ready;
  }

  private readyOf(podUID: string, containerName: string, containerID: string): boolean {
    const r = this.readinessManager.Get(containerID);
    if (!this.era.resultsToSyncLoop && r !== undefined) return r === "Success";
    if (r === "Success") return true;
    const w = this.getWorker(podUID, containerName, "readiness");
    // No readiness probe: always ready.
    if (w === undefined) return true;
    // Trigger an immediate run of the readiness probe to update the ready state (non-blocking).
    if (w.manualTriggerCh !== null) this.changes++;
    if (w.manualTriggerCh !== null && !w.manualTriggerCh.trySend(null)) {
      this.sim.emit("prober", "ManualTriggerFailed", { uid: podUID, container: containerName, probeType: "readiness" });
    }
    return false;
  }

  getWorker(podUID: string, containerName: string, probeType: ProbeType): Worker | undefined {
    return this.workers.get(probeKey(podUID, containerName, probeType));
  }

  /** Called by a worker after exiting. */
  removeWorker(podUID: string, containerName: string, probeType: ProbeType): void {
    if (this.workers.delete(probeKey(podUID, containerName, probeType))) this.changes++;
  }

  workerCount(): number {
    return this.workers.size;
  }

  GetPodStatus(uid: string): PodStatus | undefined {
    return this.statusManager.GetPodStatus(uid);
  }

  resultsManagerFor(probeType: ProbeType): ResultsManager {
    if (probeType === "liveness") return this.livenessManager;
    if (probeType === "readiness") return this.readinessManager;
    return this.startupManager;
  }

  /** The containers AddPod and RemovePod walk: the regular ones, then (1.28+) getRestartableInitContainers. */
  private probedContainers(pod: Pod): Container[] {
    if (!this.era.restartableInitContainers) return pod.spec.containers;
    return [...pod.spec.containers, ...(pod.spec.initContainers ?? []).filter(isRestartableInitContainer)];
  }

  private stopWorkers(pod: Pod, containers: readonly Container[], types: readonly ProbeType[]): void {
    const uid = pod.metadata.uid ?? "";
    for (const c of containers) {
      for (const t of types) this.getWorker(uid, c.name, t)?.stop();
    }
  }
}
