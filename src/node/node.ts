// The simulated node: an apiserver, a container runtime and a static pod directory that outlive
// the kubelet, plus the kubelet process itself, which a restart or a reboot replaces.
import { call, sleep, type Proc, type Rng, type Sim } from "../sim/index.ts";
import { drawMs } from "../cri/config.ts";
import type { PodDevicesCheckpoint } from "../kubelet/cm/devicemanager/manager.ts";
import type { Pod } from "../k8s/pod.ts";
import { printPod } from "../k8s/printers.ts";
import { ApiServer, type StoredEvent } from "../apiserver/index.ts";
import { SimRuntime } from "../cri/runtime.ts";
import { ManifestDir, generatePodName } from "../kubelet/config/index.ts";
import { compileBehaviour } from "../scenario/compile.ts";
import type { Scenario } from "../scenario/resolve.ts";
import { KubeletInstance } from "./kubelet_instance.ts";
import { kubeletSettings, type KubeletSettings } from "./settings.ts";

export const STATIC_POD_PATH = "/etc/kubernetes/manifests";

export class SimNode {
  readonly api: ApiServer;
  readonly runtime: SimRuntime;
  readonly manifestDir: ManifestDir | null;
  readonly settings: KubeletSettings;
  kubelet: KubeletInstance | null = null;
  /** The device manager's checkpoint file: allocations survive kubelet restarts. */
  readonly podDevicesCheckpoint: PodDevicesCheckpoint = new Map();
  private pluginRng: Rng | null = null;
  /** Observers of every apiserver write (checkers), called after the PodView record. */
  readonly apiObservers: ((e: StoredEvent) => void)[] = [];

  constructor(
    private readonly sim: Sim,
    readonly scenario: Scenario,
  ) {
    this.settings = kubeletSettings(scenario);
    const { minMs, maxMs } = scenario.apiserver.latency;
    this.api = new ApiServer(sim, {
      latencyMs: minMs === maxMs ? minMs : [minMs, maxMs],
      onWrite: (e) => this.onApiWrite(e),
      skipValidation: skippingValidation(scenario, "api"),
    });
    this.runtime = new SimRuntime(sim, scenario.runtime, {
      requestTimeoutMs: this.settings.runtimeRequestTimeoutMs,
      failedStartStaysCreated: this.settings.variants.dockerFailedStartStaysCreated === true,
    });
    const hasStatic = scenario.pods.some((p) => p.source === "file");
    this.manifestDir = hasStatic ? new ManifestDir(sim, STATIC_POD_PATH) : null;
    this.setBehaviours();
  }

  /** The runtime knows what each container does; static pods run under their node-suffixed name. */
  private setBehaviours(): void {
    for (const p of this.scenario.pods) {
      const name = p.source === "file" ? generatePodName(p.name, this.settings.nodeName) : p.name;
      for (const [container, behaviour] of Object.entries(p.behaviour).sort(([a], [b]) => (a < b ? -1 : 1))) {
        this.runtime.setBehaviour(`${p.namespace}/${name}`, container, compileBehaviour(behaviour));
      }
    }
  }

  startKubelet(): void {
    this.sim.emit("kubelet", "KubeletStart", { version: this.settings.version, nodeName: this.settings.nodeName });
    this.kubelet = new KubeletInstance({
      sim: this.sim, settings: this.settings, api: this.api, runtime: this.runtime, manifestDir: this.manifestDir,
      skipStaticPodValidation: skippingValidation(this.scenario, "file"),
      podDevicesCheckpoint: this.podDevicesCheckpoint,
    });
    this.startDevicePlugins(this.kubelet);
  }

  /**
   * Each device plugin notices the kubelet's new socket and registers after its delay (drawn per
   * start). It is not a kubelet goroutine: a registration aimed at a kubelet that has since
   * restarted is lost, as the old socket is.
   */
  private startDevicePlugins(kubelet: KubeletInstance): void {
    if (this.settings.devicePlugins.length === 0) return;
    this.pluginRng ??= this.sim.rng("device-plugins");
    const rng = this.pluginRng;
    for (const p of this.settings.devicePlugins) {
      const delayMs = drawMs(rng, p.registerAfter);
      this.sim.go(`device-plugin/${p.resource}`, function* (this: SimNode) {
        if (delayMs > 0) yield* sleep(delayMs, "device plugin registration");
        if (this.kubelet === kubelet) kubelet.deviceManager?.Register(p.resource, p.devices);
      }.bind(this));
    }
  }

  /** The kubelet process dies: all its goroutines and in-memory state are gone. */
  stopKubelet(): number {
    const killed = this.sim.killGroup("kubelet");
    this.kubelet = null;
    this.sim.emit("kubelet", "KubeletStop", { processes: killed });
    return killed;
  }

  /** systemctl restart kubelet: stop, stay down for downtimeMs, start with empty memory. */
  *restartKubelet(downtimeMs: number): Proc<void> {
    this.stopKubelet();
    if (downtimeMs > 0) yield* call(downtimeMs, "kubelet down");
    this.startKubelet();
  }

  /** A node reboot: the kubelet stops, running containers and sandboxes die, then all come back. */
  *rebootNode(downtimeMs: number): Proc<void> {
    this.stopKubelet();
    this.runtime.nodeReboot({ downMs: downtimeMs, keepRecords: true });
    if (downtimeMs > 0) yield* call(downtimeMs, "node down");
    this.startKubelet();
  }

  /** What `kubectl get pods -w` would print after each write (and the checkers' view of the API). */
  private onApiWrite(e: StoredEvent): void {
    if (this.sim.traces("PodView")) this.tracePodView(e);
    for (const o of this.apiObservers) o(e);
  }

  private tracePodView(e: StoredEvent): void {
    const pod = e.object;
    const row = printPod(pod, { nowMs: this.sim.nowMs });
    this.sim.emit("apiserver", "PodView", {
      pod: `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`,
      uid: pod.metadata.uid,
      ready: row.ready,
      status: row.status,
      restarts: row.restarts,
      phase: pod.status?.phase ?? "Pending",
      ...(pod.metadata.creationTimestamp ? { creationTimestamp: pod.metadata.creationTimestamp } : {}),
      ...(e.type === "DELETED" ? { deleted: true } : {}),
    });
  }

  /** A pod as the scenario declares it, bound to this node as the scheduler would. */
  manifestFor(key: string): Pod {
    const p = this.scenario.pods.find((x) => x.key === key);
    if (p === undefined) throw new Error(`scenario has no pod ${key}`);
    const m = p.manifest as Pod;
    return { ...m, spec: { ...m.spec, nodeName: m.spec.nodeName ?? this.settings.nodeName } };
  }
}

/** The pods of one source that the scenario lets past validation (skipApiValidation), by key. */
function skippingValidation(scenario: Scenario, source: "api" | "file"): ReadonlySet<string> {
  return new Set(scenario.pods.filter((p) => p.source === source && p.skipApiValidation === true).map((p) => p.key));
}
