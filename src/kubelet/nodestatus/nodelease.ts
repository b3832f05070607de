// Models k8s.io/component-helpers/apimachinery/lease/controller.go (sync, backoffEnsureLease,
// retryUpdateLease, newLease) as pkg/kubelet/kubelet.go starts it for the node (nodeLeaseDurationSeconds
// 40, renew interval 0.25 of it: pkg/kubelet/nodelease). Every renew interval (jittered by 0.04) the
// kubelet updates its Lease's renewTime from the lease it last wrote; on failure it falls back to
// GET (backing off 100 ms doubling to 7 s until it succeeds) and updates again, five attempts each.
// A Lease it creates carries an owner reference to its Node (pkg/kubelet/util/nodelease.go
// SetNodeOwnerFunc, a GET of the Node); when the Node is gone that GET fails and the Lease is not
// created this time (ensureLease returns no lease and no error), so a kubelet whose Node was deleted
// keeps asking, every renew interval, and renews nothing until the Node is back.
import { sleep, type Proc, type Sim } from "../../sim/index.ts";
import type { NodesClient } from "../../apiserver/nodes_client.ts";
import { formatRFC3339Nano } from "../../apiserver/time.ts";
import { NAMESPACE_NODE_LEASE, type Lease, type LeaseOwnerReference, type NodeObject } from "../../k8s/node_api.ts";
import { jitterUntil } from "./jitter.ts";

/** KubeletConfiguration nodeLeaseDurationSeconds default. */
export const NODE_LEASE_DURATION_SECONDS = 40;
/** nodelease.renewIntervalFraction */
export const RENEW_INTERVAL_FRACTION = 0.25;
/** lease controller: maxUpdateRetries and maxBackoff. */
export const MAX_UPDATE_RETRIES = 5;
export const MAX_BACKOFF_MS = 7_000;
export const ENSURE_INITIAL_SLEEP_MS = 100;
export const LEASE_JITTER = 0.04;

export function renewIntervalMs(leaseDurationSeconds: number = NODE_LEASE_DURATION_SECONDS): number {
  return leaseDurationSeconds * 1000 * RENEW_INTERVAL_FRACTION;
}

/** SetNodeOwnerFunc's owner reference: the Node, by its UID. */
export function nodeOwnerReference(node: NodeObject): LeaseOwnerReference {
  return { apiVersion: "v1", kind: "Node", name: node.metadata.name, uid: node.metadata.uid ?? "" };
}

/** newLease: the base (or a new Lease, owned by `owner` when given) held by this node, renewed now. */
export function newLease(base: Lease | null, nodeName: string, nowMs: number, owner?: LeaseOwnerReference): Lease {
  const metadata = base?.metadata ?? { name: nodeName, namespace: NAMESPACE_NODE_LEASE, ...(owner === undefined ? {} : { ownerReferences: [owner] }) };
  return { metadata, spec: { holderIdentity: nodeName, leaseDurationSeconds: NODE_LEASE_DURATION_SECONDS, renewTime: formatRFC3339Nano(nowMs) } };
}

export class NodeLeaseController {
  private latestLease: Lease | null = null;

  constructor(private readonly sim: Sim, private readonly client: NodesClient, private readonly nodeName: string) {}

  start(): void {
    const rng = this.sim.rng("kubelet/node-lease");
    this.sim.go("kubelet/nodeLease", () => jitterUntil(() => this.sync(), renewIntervalMs(), LEASE_JITTER, rng, "lease renewInterval"),
      { group: "kubelet", daemon: true });
  }

  *sync(): Proc<void> {
    if (this.latestLease !== null) {
      const err = yield* this.retryUpdateLease(this.latestLease);
      if (err === null) return;
    }
    const { lease, created } = yield* this.backoffEnsureLease();
    this.latestLease = lease;
    if (!created && lease !== null) yield* this.retryUpdateLease(lease);
  }

  /**
   * backoffEnsureLease: GET (or create) until it succeeds, sleeping 200 ms, 400 ms, ... 7 s between
   * tries. Null: the Lease is missing and could not be given its owner (the Node is gone).
   */
  private *backoffEnsureLease(): Proc<{ lease: Lease | null; created: boolean }> {
    let sleepMs = ENSURE_INITIAL_SLEEP_MS;
    // Bounded by the apiserver coming back (a partition ends) or the kubelet's death.
    for (;;) {
      const got = yield* this.client.getLease(NAMESPACE_NODE_LEASE, this.nodeName);
      if (got.err === null) return { lease: got.value, created: false };
      let err = got.err.message;
      if (got.err.reason === "NotFound") {
        // newLease(nil) with SetNodeOwnerFunc: the owner reference needs the Node's UID.
        const node = yield* this.client.getNode(this.nodeName);
        if (node.err !== null) {
          this.sim.emit("kubelet", "LeaseOwnerUnset", { err: `failed to get node when trying to set owner ref to the node lease: ${node.err.message}` });
          return { lease: null, created: false };
        }
        const c = yield* this.client.createLease(newLease(null, this.nodeName, this.sim.nowMs, nodeOwnerReference(node.value)));
        if (c.err === null) return { lease: c.value, created: true };
        err = c.err.message;
      }
      sleepMs = Math.min(2 * sleepMs, MAX_BACKOFF_MS);
      this.sim.emit("kubelet", "LeaseEnsureFailed", { err, retryInMs: sleepMs });
      yield* sleep(sleepMs, "ensure lease backoff");
    }
  }

  /** retryUpdateLease: up to maxUpdateRetries updates; a conflict re-reads the lease first. */
  private *retryUpdateLease(base: Lease): Proc<string | null> {
    let b = base;
    for (let i = 0; i < MAX_UPDATE_RETRIES; i++) {
      const r = yield* this.client.updateLease(newLease(b, this.nodeName, this.sim.nowMs));
      if (r.err === null) {
        this.latestLease = r.value;
        return null;
      }
      if (r.err.reason !== "Conflict") continue;
      const fresh = (yield* this.backoffEnsureLease()).lease;
      // The Lease and its Node are gone: nothing to update (#119661: no update of a Lease without its owner).
      if (fresh === null) return "failed to ensure lease exists";
      b = fresh;
    }
    this.sim.emit("kubelet", "LeaseUpdateFailed", { attempts: MAX_UPDATE_RETRIES });
    return `failed ${MAX_UPDATE_RETRIES} attempts to update lease`;
  }
}
