// The node controllers of kube-controller-manager a cluster runs (cmd/kube-controller-manager's
// nodelifecycle, taint-eviction-controller and podgc), on shared informers as the controller
// manager's informer factory gives them: one pod informer (a watch of every pod) and one each for
// Nodes and Leases. Every cluster runs them; a one-node scenario has none.
import type { Proc, Sim } from "../sim/index.ts";
import type { SimCluster } from "../node/cluster.ts";
import { kubeletVersion } from "../kubelet/version.ts";
import { ControllerLoop } from "./informer.ts";
import { controlPlaneRelease } from "./manager.ts";
import { ObjectInformer } from "./node_informer.ts";
import { NodeLifecycleController } from "./node_lifecycle.ts";
import { TaintEvictionController } from "./taint_eviction.ts";
import { PodGCController } from "./podgc.ts";
import { GarbageCollector } from "./garbage_collector.ts";

export interface NodeControllers {
  readonly lifecycle: NodeLifecycleController;
  readonly taintEviction: TaintEvictionController;
  readonly podGC: PodGCController;
}

export function startNodeControllers(sim: Sim, cluster: SimCluster): NodeControllers | null {
  if (!cluster.isCluster) return null;
  const api = cluster.api;
  // The control plane's release: controlPlane.version, else the first node's.
  const version = kubeletVersion(controlPlaneRelease(cluster.scenario));
  const nodes = new ObjectInformer(api, "nodes");
  const leases = new ObjectInformer(api, "leases");
  let taintEviction: TaintEvictionController | null = null;
  const podInformer = new ControllerLoop(sim, api.client("kube-controller-manager"), "node-controllers", {
    observe: (e, pod, before) => taintEviction?.observePod(e, pod, before),
    sync: function* (): Proc<void> {},
  });
  const pods = () => podInformer.pods.values();
  taintEviction = new TaintEvictionController(sim, api, nodes, pods, version);
  const lifecycle = new NodeLifecycleController(sim, api, nodes, leases, pods, version);
  const podGC = new PodGCController(sim, api, nodes, pods, version);
  podInformer.start();
  taintEviction.start();
  lifecycle.start();
  podGC.start();
  new GarbageCollector(sim, api, nodes, leases).start();
  return { lifecycle, taintEviction, podGC };
}
