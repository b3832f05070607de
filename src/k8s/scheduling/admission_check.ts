// Models pkg/scheduler/schedule_one.go AdmissionCheck (1.2x; GeneralPredicates in
// pkg/kubelet/lifecycle/predicate.go before it, with the same checks in the same order) and
// pkg/scheduler/framework/plugins/nodename (Fits): resources, node affinity, node name, host
// ports. The kubelet's predicate admit handler and the scheduler's filters both call it, so it
// takes plain values and returns plain values.
import type { ContainerPort, Pod } from "../pod.ts";
import type { Node } from "../node.ts";
import { requiredNodeAffinityMatches } from "./node_affinity.ts";
import { fitsPorts } from "./node_ports.ts";
import { fits, type InsufficientResource, type ResourceOptions, type ResourceRequest } from "./node_resources.ts";

/** The plugins' names and their Filter reasons (nodeaffinity.ErrReasonPod, nodename.ErrReason, nodeports.ErrReason). */
export const NODE_AFFINITY = { name: "NodeAffinity", reason: "node(s) didn't match Pod's node affinity/selector" } as const;
export const NODE_NAME = { name: "NodeName", reason: "node(s) didn't match the requested node name" } as const;
export const NODE_PORTS = { name: "NodePorts", reason: "node(s) didn't have free ports for the requested pod ports" } as const;
export const TAINT_TOLERATION = { name: "TaintToleration", reason: "node(s) had taints that the pod didn't tolerate" } as const;

/** The pod's side of the checks, the same on every node: the Fit and NodePorts plugins' PreFilter state. */
export interface PreFilterResult {
  readonly request: ResourceRequest;
  readonly hostPorts: readonly ContainerPort[];
}

/** scheduler.AdmissionResult: an insufficient resource, or a plugin's name and reason. */
export type AdmissionResult =
  | { insufficientResource: InsufficientResource }
  | { name: string; reason: string };

/** nodename.Fits: a pod bound to no node, or to this one. */
export function fitsNodeName(pod: Pod, node: Node): boolean {
  const bound = pod.spec.nodeName ?? "";
  return bound === "" || bound === node.name;
}

/**
 * AdmissionCheck(pod, nodeInfo, includeAllFailures): every failure in order, or only the first
 * when includeAllFailures is false (the scheduler's pre-enqueue check). `pre` is what the plugins'
 * PreFilter computed of the pod once for the cycle (its requests, its host ports); without it each
 * call computes them.
 */
export function admissionCheck(pod: Pod, node: Node, otherPods: readonly Pod[], includeAllFailures: boolean, opts: ResourceOptions, pre?: PreFilterResult): AdmissionResult[] {
  const out: AdmissionResult[] = [];
  const insufficient = fits(pod, otherPods, node.allocatable, opts, pre?.request);
  if (insufficient.length > 0) {
    out.push(...insufficient.map((r) => ({ insufficientResource: r })));
    if (!includeAllFailures) return out;
  }
  const checks: Array<[boolean, { name: string; reason: string }]> = [
    [requiredNodeAffinityMatches(pod, node), NODE_AFFINITY],
    [fitsNodeName(pod, node), NODE_NAME],
    [fitsPorts(pod, otherPods, pre?.hostPorts), NODE_PORTS],
  ];
  for (const [ok, plugin] of checks) {
    if (ok) continue;
    out.push({ name: plugin.name, reason: plugin.reason });
    if (!includeAllFailures) return out;
  }
  return out;
}
