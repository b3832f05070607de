// Models pkg/controller/garbagecollector (garbagecollector.go attemptToDeleteItem, isDangling) for
// the one owner a cluster's objects here have in the apiserver: a node Lease owned by its Node
// (the kubelet sets the owner reference, pkg/kubelet/util/nodelease.go). When a Node is deleted, the
// graph builder sees its Lease's owner go; the collector verifies the owner is absent with a live
// GET (NotFound, or a Node of that name with another UID) and deletes the Lease (background
// propagation: it has no dependents of its own).
// Simplified: pods' owners (ReplicaSets, Jobs, ...) are held by their controllers, not stored, so
// their cascading deletion is the controllers' own (controllers/manager.ts); no retry queue (one
// attempt per deleted owner; a failed GET or DELETE is recorded).
import type { Proc, Sim } from "../sim/index.ts";
import type { ApiServer } from "../apiserver/index.ts";
import type { NodesClient } from "../apiserver/nodes_client.ts";
import type { Lease, NodeObject } from "../k8s/node_api.ts";
import type { ObjectInformer } from "./node_informer.ts";

const COMPONENT = "garbage-collector";

/** isDangling: the owner is gone when its GET is NotFound or names another object (another UID). */
export function ownerIsDangling(got: { err: { reason: string } | null; value: NodeObject | null }, ownerUID: string): boolean | null {
  if (got.err !== null) return got.err.reason === "NotFound" ? true : null;
  return got.value!.metadata.uid !== ownerUID;
}

/** The Leases a deleted Node owned (their owner reference names its UID). */
export function leasesOwnedBy(leases: readonly Lease[], node: NodeObject): Lease[] {
  return leases.filter((l) => (l.metadata.ownerReferences ?? []).some((r) => r.kind === "Node" && r.uid === node.metadata.uid));
}

export class GarbageCollector {
  private readonly client: NodesClient;

  constructor(private readonly sim: Sim, api: ApiServer, private readonly nodes: ObjectInformer<"nodes">, private readonly leases: ObjectInformer<"leases">) {
    this.client = api.nodeClient("generic-garbage-collector");
  }

  start(): void {
    this.nodes.onEvent((type, node) => {
      if (type !== "DELETED") return;
      for (const lease of leasesOwnedBy(this.leases.list(), node)) {
        this.sim.go(`${COMPONENT}/attemptToDelete/${lease.metadata.name}`, () => this.attemptToDelete(lease, node.metadata.uid ?? ""), { daemon: true });
      }
    });
  }

  private *attemptToDelete(lease: Lease, ownerUID: string): Proc<void> {
    const owner = yield* this.client.getNode(lease.metadata.name);
    const dangling = ownerIsDangling(owner, ownerUID);
    if (dangling !== true) {
      if (dangling === null) this.sim.emit(COMPONENT, "AttemptToDeleteFailed", { lease: `${lease.metadata.namespace}/${lease.metadata.name}`, err: owner.err!.message });
      return;
    }
    const r = yield* this.client.deleteLease(lease.metadata.namespace, lease.metadata.name);
    this.sim.emit(COMPONENT, "DeletedDependent", {
      object: `lease/${lease.metadata.namespace}/${lease.metadata.name}`,
      owner: `node/${lease.metadata.name}`,
      ...(r.err === null ? {} : { err: r.err.message }),
    });
  }
}
