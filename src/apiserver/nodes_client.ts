// Models the slice of client-go's typed CoreV1().Nodes() and CoordinationV1().Leases(ns) clients
// (kubernetes/typed/core/v1/node.go, typed/coordination/v1/lease.go) that the kubelet's heartbeats,
// the node controllers and a user's `kubectl taint` use. Each method is one request through the
// apiserver's network (its latency and partitions), like the pods client's.
import type { Proc } from "../sim/index.ts";
import type { Lease, NodeObject } from "../k8s/node_api.ts";
import type { ApiResult } from "./client.ts";
import type { ApiServer } from "./apiserver.ts";

export interface NodesClient {
  readonly actor: string;
  getNode(name: string): Proc<ApiResult<NodeObject>>;
  createNode(node: NodeObject): Proc<ApiResult<NodeObject>>;
  /** PUT nodes/<name>: spec and metadata (taints); a set resourceVersion is a precondition. */
  updateNode(node: NodeObject): Proc<ApiResult<NodeObject>>;
  /** PUT nodes/<name>/status (the node lifecycle controller's UpdateStatus): resourceVersion is a precondition. */
  updateNodeStatus(node: NodeObject): Proc<ApiResult<NodeObject>>;
  /** PATCH nodes/<name>/status (the kubelet's nodeutil.PatchNodeStatus): the status replaces the stored one. */
  patchNodeStatus(name: string, status: NodeObject["status"]): Proc<ApiResult<NodeObject>>;
  /** PATCH nodes/<name> of spec.unschedulable (kubectl cordon and uncordon: a strategic merge patch, no resourceVersion). */
  patchNodeUnschedulable(name: string, unschedulable: boolean): Proc<ApiResult<NodeObject>>;
  /** DELETE nodes/<name> (kubectl delete node). */
  deleteNode(name: string): Proc<ApiResult<NodeObject>>;
  getLease(namespace: string, name: string): Proc<ApiResult<Lease>>;
  createLease(lease: Lease): Proc<ApiResult<Lease>>;
  updateLease(lease: Lease): Proc<ApiResult<Lease>>;
  /** DELETE leases/<name> (the garbage collector's deletion of a dependent whose owner is gone). */
  deleteLease(namespace: string, name: string): Proc<ApiResult<Lease>>;
}

const NODES = "/api/v1/nodes";
const leases = (ns: string) => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;
const leasePath = (ns: string, name: string) => `${leases(ns)}/${name}`;

function traced<T extends { metadata: { resourceVersion?: string } }>(r: ApiResult<T>): [ApiResult<T>, Record<string, unknown>] {
  return [r, r.value === null ? {} : { resourceVersion: r.value.metadata.resourceVersion ?? "" }];
}

export class NodesActorClient implements NodesClient {
  /** `timeoutMs`: the client's own timeout (rest.Config.Timeout), when it has one (the kubelet's heartbeat client). */
  constructor(private readonly server: ApiServer, readonly actor: string, private readonly timeoutMs?: number) {}

  private req<T>(kind: string, verb: string, path: string, fields: Record<string, unknown>, apply: () => [ApiResult<T>, Record<string, unknown>]) {
    return this.server.request(this.actor, kind, verb, path, fields, apply, this.timeoutMs);
  }

  *getNode(name: string): Proc<ApiResult<NodeObject>> {
    return (yield this.req("NodeGet", "GET", `${NODES}/${name}`, { nodeName: name },
      () => traced(this.server.nodes.get("nodes", name)))) as ApiResult<NodeObject>;
  }

  *createNode(node: NodeObject): Proc<ApiResult<NodeObject>> {
    return (yield this.req("NodeCreate", "POST", NODES, { nodeName: node.metadata.name },
      () => traced(this.server.nodes.create("nodes", node)))) as ApiResult<NodeObject>;
  }

  *updateNode(node: NodeObject): Proc<ApiResult<NodeObject>> {
    const taints = (node.spec.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ""}:${t.effect}`);
    return (yield this.req("NodeUpdate", "PUT", `${NODES}/${node.metadata.name}`, { nodeName: node.metadata.name, taints },
      () => traced(this.server.nodes.update("nodes", keepStatus(this.server, node))))) as ApiResult<NodeObject>;
  }

  *updateNodeStatus(node: NodeObject): Proc<ApiResult<NodeObject>> {
    return (yield this.req("NodeUpdateStatus", "PUT", `${NODES}/${node.metadata.name}/status`, { nodeName: node.metadata.name, ready: readyOf(node) },
      () => traced(this.server.nodes.update("nodes", keepSpec(this.server, node))))) as ApiResult<NodeObject>;
  }

  *patchNodeStatus(name: string, status: NodeObject["status"]): Proc<ApiResult<NodeObject>> {
    return (yield this.req("NodePatchStatus", "PATCH", `${NODES}/${name}/status`, { nodeName: name, ready: readyOf({ status } as NodeObject) }, () => {
      const cur = this.server.nodes.get("nodes", name);
      if (cur.value === null) return traced(cur);
      return traced(this.server.nodes.update("nodes", { ...cur.value, status }));
    })) as ApiResult<NodeObject>;
  }

  *patchNodeUnschedulable(name: string, unschedulable: boolean): Proc<ApiResult<NodeObject>> {
    return (yield this.req("NodePatch", "PATCH", `${NODES}/${name}`, { nodeName: name, unschedulable }, () => {
      const cur = this.server.nodes.get("nodes", name);
      if (cur.value === null) return traced(cur);
      // {"spec":{"unschedulable":true}}; uncordon's patch removes the field ({"spec":{"unschedulable":null}}).
      const { unschedulable: _old, ...spec } = cur.value.spec;
      return traced(this.server.nodes.update("nodes", { ...cur.value, spec: unschedulable ? { ...spec, unschedulable } : spec }));
    })) as ApiResult<NodeObject>;
  }

  *deleteNode(name: string): Proc<ApiResult<NodeObject>> {
    return (yield this.req("NodeDelete", "DELETE", `${NODES}/${name}`, { nodeName: name },
      () => traced(this.server.nodes.delete("nodes", name)))) as ApiResult<NodeObject>;
  }

  *getLease(namespace: string, name: string): Proc<ApiResult<Lease>> {
    return (yield this.req("LeaseGet", "GET", leasePath(namespace, name), { lease: `${namespace}/${name}` },
      () => traced(this.server.nodes.get("leases", name)))) as ApiResult<Lease>;
  }

  *createLease(lease: Lease): Proc<ApiResult<Lease>> {
    return (yield this.req("LeaseCreate", "POST", leases(lease.metadata.namespace), { lease: `${lease.metadata.namespace}/${lease.metadata.name}` },
      () => traced(this.server.nodes.create("leases", lease)))) as ApiResult<Lease>;
  }

  *updateLease(lease: Lease): Proc<ApiResult<Lease>> {
    const { namespace, name } = lease.metadata;
    return (yield this.req("LeaseUpdate", "PUT", leasePath(namespace, name), { lease: `${namespace}/${name}`, renewTime: lease.spec.renewTime },
      () => traced(this.server.nodes.update("leases", lease)))) as ApiResult<Lease>;
  }

  *deleteLease(namespace: string, name: string): Proc<ApiResult<Lease>> {
    return (yield this.req("LeaseDelete", "DELETE", leasePath(namespace, name), { lease: `${namespace}/${name}` },
      () => traced(this.server.nodes.delete("leases", name)))) as ApiResult<Lease>;
  }
}

function readyOf(node: NodeObject): string | null {
  return node.status.conditions.find((c) => c.type === "Ready")?.status ?? null;
}

/** A PUT of the node changes its metadata and spec, never its status (the status subresource's strategy). */
function keepStatus(server: ApiServer, node: NodeObject): NodeObject {
  const cur = server.nodes.get("nodes", node.metadata.name).value;
  return cur === null ? node : { ...node, status: cur.status };
}

/** A PUT of nodes/status changes the status only. */
function keepSpec(server: ApiServer, node: NodeObject): NodeObject {
  const cur = server.nodes.get("nodes", node.metadata.name).value;
  return cur === null ? node : { ...node, metadata: { ...cur.metadata, resourceVersion: node.metadata.resourceVersion }, spec: cur.spec } as NodeObject;
}
