// Models the kubelet's own Node informer and getNodeAnyWay (pkg/kubelet/kubelet.go NewMainKubelet:
// a shared informer factory on the kubelet's client, its list and watch narrowed by the field
// selector metadata.name=<nodeName>, whose lister `kl.nodeLister` getNodeAnyWay reads; and
// kubelet_getters.go getNodeAnyWay: the lister's Node, else initialNode). Admission
// (lifecycle/predicate.go, predicateAdmitHandler.Admit) reads the node through it, so a label or a
// taint put on the Node object at run time (kubectl label, kubectl taint, the node lifecycle
// controller) reaches the kubelet's admission after the watch's delivery delay, as it reaches the
// scheduler and the controllers.
//
// Simplified: the informer shares the cluster's node watch (apiserver/node_registry.ts: one
// delivery per write for every informer); while the kubelet is cut off from the apiserver (a
// partition) its deliveries are lost, and the lister is re-listed at the first read after the
// partition (the reflector's re-list on reconnecting, without its backoff); a kubelet restart
// re-lists. Only the Node's labels and taints are taken from it: the allocatable admission counts
// is the kubelet's own (what its node status reports).
import type { ApiServer } from "../apiserver/index.ts";
import type { NodeObject } from "../k8s/node_api.ts";
import type { Node } from "../k8s/node.ts";

export class KubeletNodeLister {
  private cached: NodeObject | undefined;
  /** A delivery was lost while the kubelet was cut off: re-list at the next read once it is not. */
  private missed = false;
  /** The last answer of `node`, kept while neither the cached object nor the initial node changes. */
  private memo: { obj: NodeObject; base: Node; node: Node } | null = null;

  constructor(private readonly api: ApiServer, private readonly nodeName: string, private readonly actor: string) {
    api.nodes.watch("nodes", (type, obj) => {
      if (obj.metadata.name !== nodeName) return; // the field selector
      if (!api.reachable(actor)) {
        this.missed = true;
        return;
      }
      this.cached = type === "DELETED" ? undefined : obj;
    });
    this.relist();
  }

  /**
   * The reflector's List: the Node as the apiserver has it now (none before the kubelet registered).
   * A kubelet (re)started while cut off lists nothing, so getNodeAnyWay falls back to its initial
   * node until the partition ends.
   */
  relist(): void {
    const reachable = this.api.reachable(this.actor);
    this.cached = reachable ? (this.api.nodes.get("nodes", this.nodeName).value ?? undefined) : undefined;
    this.missed = !reachable;
  }

  /** getNodeAnyWay: the lister's Node (its labels and taints on the kubelet's own node), else `initial`. */
  node(initial: Node): Node {
    if (this.missed && this.api.reachable(this.actor)) this.relist();
    const obj = this.cached;
    if (obj === undefined) return initial;
    const m = this.memo;
    if (m !== null && m.obj === obj && m.base === initial) return m.node;
    const node: Node = { ...initial, labels: obj.metadata.labels, taints: obj.spec.taints ?? [] };
    this.memo = { obj, base: initial, node };
    return node;
  }
}
