// Models the parts of k8s.io/api/core/v1 Node (types.go: NodeSpec, NodeStatus, NodeCondition) and
// k8s.io/api/coordination/v1 Lease that the kubelet's heartbeats, the node lifecycle controller,
// the taint eviction controller, podgc and the scheduler read and write, as the apiserver stores
// them (frozen JSON values, times as RFC 3339 text).
import type { TaintEffect } from "./node.ts";
import { parseRFC3339, parseRFC3339Milli } from "../apiserver/time.ts";

/** v1.Taint with timeAdded (set by the node lifecycle controller on its NoExecute taints). */
export interface NodeTaint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: string;
}

export type ConditionStatus = "True" | "False" | "Unknown";

/** v1.NodeCondition */
export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  lastHeartbeatTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** v1.Node, the fields modelled. */
export interface NodeObject {
  metadata: {
    name: string;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    labels: Readonly<Record<string, string>>;
  };
  spec: { taints?: readonly NodeTaint[]; unschedulable?: boolean };
  status: { capacity: Readonly<Record<string, string>>; conditions: readonly NodeCondition[] };
}

/** The owner reference the kubelet puts on its node Lease (pkg/kubelet/util/nodelease.go SetNodeOwnerFunc): its Node. */
export interface LeaseOwnerReference {
  apiVersion: "v1";
  kind: "Node";
  name: string;
  uid: string;
}

/** coordination/v1 Lease: the node's heartbeat in kube-node-lease. */
export interface Lease {
  metadata: { name: string; namespace: string; resourceVersion?: string; ownerReferences?: readonly LeaseOwnerReference[] };
  spec: { holderIdentity: string; leaseDurationSeconds: number; renewTime: string };
}

/** v1.NamespaceNodeLease */
export const NAMESPACE_NODE_LEASE = "kube-node-lease";
/** v1.NodeReady */
export const NODE_READY = "Ready";

/** Taint keys of k8s.io/api/core/v1 well_known_taints.go. */
export const TAINT_NODE_NOT_READY = "node.kubernetes.io/not-ready";
export const TAINT_NODE_UNREACHABLE = "node.kubernetes.io/unreachable";
export const TAINT_NODE_UNSCHEDULABLE = "node.kubernetes.io/unschedulable";
export const TAINT_NODE_OUT_OF_SERVICE = "node.kubernetes.io/out-of-service";

/** controllerutil.GetNodeCondition */
export function nodeCondition(node: NodeObject, type: string): NodeCondition | undefined {
  return node.status.conditions.find((c) => c.type === type);
}

/**
 * metav1.MicroTime text (RFC 3339 with a fraction) as virtual ms. The node lifecycle controller
 * parses both leases' renewTimes at every monitor pass: the common form is read digit by digit.
 */
export function parseMicroTime(text: string): number {
  return parseRFC3339Milli(text) ?? parseMicroTimeSlow(text);
}

function parseMicroTimeSlow(text: string): number {
  const m = /\.(\d+)Z$/.exec(text);
  const frac = m === null ? 0 : Math.floor(Number(`0.${m[1]}`) * 1000);
  return parseRFC3339(text) + frac;
}

/** taintutils.TaintExists: same key and effect. */
export function taintExists(taints: readonly NodeTaint[] | undefined, t: { key: string; effect: string }): boolean {
  return (taints ?? []).some((x) => x.key === t.key && x.effect === t.effect);
}
