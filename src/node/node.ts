// The simulated node: an apiserver, a container runtime and a static pod directory that outlive
// the kubelet, plus the kubelet process itself, which a restart or a reboot replaces.
import { call, sleep, type Proc, type Rng, type Sim } from "../sim/index.ts";
import { drawMs } from "../cri/config.ts";
import type { PodDevicesCheckpoint } from "../kubelet/cm/devicemanager/manager.ts";
import type { Pod } from "../k8s/pod.ts";
import { printPod } from "../k8s/printers.ts";
import { ApiServer, type StoredEvent } from "../apiserver/index.ts";
import { SimRuntime } from "../cri/runtime.ts";
import { ManifestDir } from "../kubelet/config/index.ts";
import type { Scenario } from "../scenario/resolve.ts";
import { KubeletInstance } from "./kubelet_instance.ts";
import { KubeletNodeLister } from "./kubelet_node_lister.ts";
import { HEARTBEAT_CLIENT_TIMEOUT_MS, NodeStatusReporter } from "../kubelet/nodestatus/node_status.ts";
import { NodeLeaseController } from "../kubelet/nodestatus/nodelease.ts";
import { compileNodePlan, type NodePlan } from "./plan.ts";
import type { KubeletSettings } from "./settings.ts";
import type { BehaviourTemplates } from "../cri/program.ts";

export const STATIC_POD_PATH = "/etc/kubernetes/manifests";

/** How a node of a cluster is built (node/cluster.ts); a one-node scenario gives none. */
export interface ClusterMembership {
  /** The cluster's apiserver, built by its first node; absent for the first node itself. */
  readonly api?: ApiServer;
  /** The node's place in `nodes:` (its pod CIDR is 10.244.<index>.0/24). */
  readonly index: number;
  /** The cluster's workload replicas' templates, which the node's runtime reads (adopted_behaviours.ts). */
  readonly templates?: BehaviourTemplates;
}

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
  /** The kubelet's name as the apiserver's client: "kubelet", or "kubelet@<node>" in a cluster. */
  readonly apiActor: string;
  /** Whether this node is one of a cluster's (its PodView records then name each pod's node). */
  readonly inCluster: boolean;
  /** The kubelet's Node informer (a cluster's kubelets only); each kubelet start re-lists it. */
  private nodeLister: KubeletNodeLister | null = null;

  /** A node built from its plan, compiled from the scenario when none is given (node/plan.ts). */
  constructor(
    private readonly sim: Sim,
    readonly scenario: Scenario,
    private readonly plan: NodePlan = compileNodePlan(scenario),
    member?: ClusterMembership,
  ) {
    if (plan.scenario !== scenario) throw new Error("SimNode: the plan was compiled from another scenario");
    this.settings = plan.settings;
    this.inCluster = member !== undefined;
    this.apiActor = member === undefined ? "kubelet" : `kubelet@${this.settings.nodeName}`;
    const { minMs, maxMs } = scenario.apiserver.latency;
    this.api = member?.api ?? new ApiServer(sim, {
      latencyMs: minMs === maxMs ? minMs : [minMs, maxMs],
      onWrite: (e) => this.apiWrite(e),
      skipValidation: plan.skipApiValidation,
    });
    this.runtime = new SimRuntime(sim, plan.runtimeConfig, {
      requestTimeoutMs: this.settings.runtimeRequestTimeoutMs,
      failedStartStaysCreated: this.settings.variants.dockerFailedStartStaysCreated === true,
      // In a cluster each node has its own pod CIDR (10.244.<i>.0/24, as kind gives them) and its own IDs.
      ...(member === undefined ? {} : { podSubnetPrefix: `10.244.${member.index}`, idPrefix: `${this.settings.nodeName}-` }),
      ...(member?.templates === undefined ? {} : { templates: member.templates }),
    });
    this.manifestDir = plan.hasStaticPods ? new ManifestDir(sim, STATIC_POD_PATH) : null;
    // The runtime knows what each container does.
    for (const b of plan.behaviours) this.runtime.setBehaviour(b.podKey, b.container, b.behaviour);
  }

  startKubelet(): void {
    this.sim.emit("kubelet", "KubeletStart", { version: this.settings.version, nodeName: this.settings.nodeName });
    // A new kubelet's informer lists its Node (the lister's constructor on the first start).
    if (this.inCluster) {
      if (this.nodeLister === null) this.nodeLister = new KubeletNodeLister(this.api, this.settings.nodeName, this.apiActor);
      else this.nodeLister.relist();
    }
    this.kubelet = new KubeletInstance({
      sim: this.sim, settings: this.settings, api: this.api, apiActor: this.apiActor, runtime: this.runtime, manifestDir: this.manifestDir,
      skipStaticPodValidation: this.plan.skipStaticPodValidation,
      podDevicesCheckpoint: this.podDevicesCheckpoint,
      ...(this.nodeLister === null ? {} : { nodeLister: this.nodeLister }),
    });
    this.startDevicePlugins(this.kubelet);
    if (this.inCluster) this.startHeartbeats(this.kubelet);
  }

  /**
   * A cluster's kubelet posts its node status and renews its Lease (kubelet.Run: syncNodeStatus and
   * the node lease controller), as kubelet goroutines: they stop while the kubelet or node is down.
   */
  private startHeartbeats(kubelet: KubeletInstance): void {
    const heartbeat = this.api.nodeClient(this.apiActor, HEARTBEAT_CLIENT_TIMEOUT_MS);
    new NodeStatusReporter(this.sim, heartbeat, this.settings, () => kubelet.runtimeError()).start();
    new NodeLeaseController(this.sim, heartbeat, this.settings.nodeName).start();
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

  /**
   * What `kubectl get pods -w` would print after each write (and the checkers' view of the API);
   * the apiserver's owner calls it (this node, or the cluster for its first node).
   */
  apiWrite(e: StoredEvent): void {
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
      ...(this.inCluster ? { node: pod.spec.nodeName ?? "" } : {}),
    });
  }

  /** A pod as the scenario declares it, bound to this node as the scheduler would (frozen). */
  manifestFor(key: string): Pod {
    const m = this.plan.manifests.get(key);
    if (m === undefined) throw new Error(`scenario has no pod ${key}`);
    return m;
  }
}
