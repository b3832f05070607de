// The cluster: N nodes on one apiserver (no upstream file). A scenario without `nodes:` is a
// cluster of its one node, built exactly as before (the node owns the apiserver, its kubelet runs
// on the kernel itself). With `nodes:`, the apiserver is the cluster's, built on the kernel, and
// each node's kubelet, runtime and device plugins run on the node's view of it (node_sim.ts);
// the first node reports the apiserver's writes (PodView records, the checkers' observers).
import type { Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { ApiServer } from "../apiserver/index.ts";
import type { Scenario } from "../scenario/resolve.ts";
import { SimNode } from "./node.ts";
import { nodeSim } from "./node_sim.ts";
import { AdoptedBehaviours } from "./adopted_behaviours.ts";
import { compileClusterPlan, type ClusterPlan } from "./plan.ts";
import type { ControllerManager } from "../controllers/manager.ts";
import { defaultTolerationSeconds } from "../apiserver/admission/default_toleration_seconds.ts";
import { initialNode, nodeCapacity, readyCondition } from "../kubelet/nodestatus/node_status.ts";
import { newLease, nodeOwnerReference } from "../kubelet/nodestatus/nodelease.ts";
import { formatRFC3339 } from "../apiserver/time.ts";

export class SimCluster {
  readonly nodes: readonly SimNode[];
  readonly api: ApiServer;
  /** Which template each workload replica runs as, for every node's runtime (adopted_behaviours.ts). */
  readonly adopted = new AdoptedBehaviours();
  /** The controllers, when the scenario has workloads (controllers/manager.ts; set by simulate). */
  controllers: ControllerManager | null = null;
  private readonly byName: ReadonlyMap<string, SimNode>;

  /** `plans`: every node's, when the caller compiled them once (node/plan.ts compileClusterPlan). */
  constructor(sim: Sim, readonly scenario: Scenario, plans: ClusterPlan = compileClusterPlan(scenario)) {
    if (plans.length !== (scenario.nodes?.length ?? 1)) throw new Error("SimCluster: the plan has another number of nodes than the scenario");
    if (scenario.nodes === undefined) {
      const node = new SimNode(sim, scenario, plans[0]);
      this.nodes = [node];
      this.api = node.api;
    } else {
      const { minMs, maxMs } = scenario.apiserver.latency;
      let first: SimNode | null = null;
      this.api = new ApiServer(sim, {
        latencyMs: minMs === maxMs ? minMs : [minMs, maxMs],
        onWrite: (e) => first?.apiWrite(e),
        skipValidation: plans[0]!.skipApiValidation,
        admitPod: defaultTolerationSeconds,
      });
      this.nodes = plans.map((p, index) => new SimNode(nodeSim(sim, p.settings.nodeName), scenario, p, { api: this.api, index, templates: this.adopted }));
      first = this.nodes[0]!;
      this.registerNodes();
    }
    this.byName = new Map(this.nodes.map((n) => [n.settings.nodeName, n]));
  }

  /**
   * The cluster is up when the run starts: each node registered, Ready and its Lease renewed at 0s
   * (as a one-node scenario's pods are already in the apiserver), so its kubelet finds them there.
   */
  private registerNodes(): void {
    for (const n of this.nodes) {
      const node = initialNode(n.settings, nodeCapacity(n.settings));
      node.metadata.creationTimestamp = formatRFC3339(0);
      node.status.conditions = [readyCondition(undefined, 0, null)];
      const created = this.api.nodes.create("nodes", node).value!;
      // Owned by its Node, as the kubelet's SetNodeOwnerFunc makes it: the garbage collector deletes it with the Node.
      this.api.nodes.create("leases", newLease(null, n.settings.nodeName, 0, nodeOwnerReference(created)));
    }
  }

  /** Whether the scenario declared a cluster (`nodes:`), even of one node. */
  get isCluster(): boolean {
    return this.scenario.nodes !== undefined;
  }

  get first(): SimNode {
    return this.nodes[0]!;
  }

  node(name: string): SimNode | undefined {
    return this.byName.get(name);
  }

  /** The node a pod is bound to now (its spec.nodeName in the apiserver), or undefined. */
  nodeOfPod(key: string): SimNode | undefined {
    const pod: Pod | undefined = this.api.store.pods[key];
    const name = pod?.spec.nodeName;
    return name === undefined ? undefined : this.byName.get(name);
  }

  startKubelets(): void {
    for (const n of this.nodes) n.startKubelet();
  }
}
