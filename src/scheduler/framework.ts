// The scheduling cycle's decisions, as plain functions: pkg/scheduler/schedule_one.go
// (findNodesThatFitPod, numFeasibleNodesToFind, selectHost) with the default profile's filters in
// its order (nodeunschedulable, nodename, tainttoleration, nodeaffinity, nodeports, noderesources Fit) and the
// NodeResourcesFit score with its default LeastAllocated strategy (noderesources/least_allocated.go,
// cpu and memory, weight 1 each, over non-zero requests: schedutil.GetNonzeroRequests).
// Simplified: no other filter or score plugin (volumes, inter-pod affinity, topology spread,
// balanced allocation, image locality), no preemption, no extenders; the filters are the ones the
// kubelet's admission runs too (k8s/scheduling/), so a pod the scheduler places the kubelet admits.
import type { Pod } from "../k8s/pod.ts";
import type { Node, Taint } from "../k8s/node.ts";
import { admissionCheck, NODE_NAME, fitsNodeName, type PreFilterResult } from "../k8s/scheduling/admission_check.ts";
import { wantedHostPorts } from "../k8s/scheduling/node_ports.ts";
import { podRequests, type ResourceOptions, type ResourceRequest } from "../k8s/scheduling/node_resources.ts";
import { findMatchingUntoleratedTaint } from "../k8s/scheduling/taints.ts";

/** framework.MaxNodeScore */
export const MAX_NODE_SCORE = 100;
/** schedutil.DefaultMilliCPURequest and DefaultMemoryRequest: what a container without requests counts as, for scoring. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;
/** schedule_one.go minFeasibleNodesToFind and minFeasibleNodesPercentageToFind. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/**
 * A node as the scheduler's snapshot holds it (framework.NodeInfo): the node and its pods, and
 * optionally the sum of its pods' non-zero requests (NodeInfo.NonZeroRequested, which upstream
 * keeps as pods are added and removed; computed from the pods when absent).
 */
export interface NodeInfo {
  readonly node: Node;
  readonly pods: readonly Pod[];
  readonly nonZeroRequested?: { readonly milliCPU: number; readonly memory: number };
  /** The Node's spec.unschedulable (kubectl cordon). */
  readonly unschedulable?: boolean;
}

/** nodeunschedulable.ErrReasonUnschedulable */
export const ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable";
/** v1.TaintNodeUnschedulable: a pod that tolerates it tolerates spec.unschedulable too. */
const UNSCHEDULABLE_TAINT: Taint = { key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" };

/** NodeInfo.NonZeroRequested: the pods' non-zero requests summed. */
export function nonZeroRequestedBy(pods: readonly Pod[], opts: ResourceOptions): { milliCPU: number; memory: number } {
  let milliCPU = 0;
  let memory = 0;
  for (const p of pods) {
    const r = nonZeroRequests(p, opts);
    milliCPU += r.milliCPU;
    memory += r.memory;
  }
  return { milliCPU, memory };
}

/** Why a node did not fit: the first failing filter's reason (framework.Status reasons). */
export type FilterResult = { fits: true } | { fits: false; reason: string };

/** tainttoleration.Filter: NoSchedule and NoExecute taints the pod does not tolerate. */
function untoleratedTaint(pod: Pod, taints: readonly Taint[]): Taint | null {
  return findMatchingUntoleratedTaint(taints, pod.spec.tolerations ?? [], (t) => t.effect === "NoSchedule" || t.effect === "NoExecute");
}

/**
 * What the PreFilter and PreScore plugins compute of the pod once a scheduling cycle and keep in
 * the CycleState: the Fit plugin's request (computePodResourceRequest), NodePorts' wanted host
 * ports, and the score's non-zero request. Every node's filter and score read them.
 */
export interface CycleState extends PreFilterResult {
  readonly nonZero: { readonly milliCPU: number; readonly memory: number };
}

/** RunPreFilterPlugins and the score's pod side, once for the pod. */
export function preFilter(pod: Pod, opts: ResourceOptions): CycleState {
  const request = podRequests(pod, opts);
  return { request, hostPorts: wantedHostPorts(pod), nonZero: nonZeroOf(request) };
}

/** The default profile's filters, in order; the first failure is the node's reason. */
export function filterNode(pod: Pod, info: NodeInfo, opts: ResourceOptions, state: CycleState = preFilter(pod, opts)): FilterResult {
  // nodeunschedulable.Filter: a cordoned node, unless the pod tolerates the unschedulable taint.
  if (info.unschedulable === true && untoleratedTaint(pod, [UNSCHEDULABLE_TAINT]) !== null) return { fits: false, reason: ERR_REASON_UNSCHEDULABLE };
  if (!fitsNodeName(pod, info.node)) return { fits: false, reason: NODE_NAME.reason };
  const taint = untoleratedTaint(pod, info.node.taints);
  if (taint !== null) return { fits: false, reason: `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ""}}` };
  const failures = admissionCheck(pod, info.node, info.pods, false, opts, state);
  const f = failures[0];
  if (f === undefined) return { fits: true };
  return { fits: false, reason: "insufficientResource" in f ? f.insufficientResource.reason : f.reason };
}

/** schedutil.GetNonzeroRequests for the pod: cpu and memory, a container asking for none counting the defaults. */
export function nonZeroRequests(pod: Pod, opts: ResourceOptions): { milliCPU: number; memory: number } {
  return nonZeroOf(podRequests(pod, opts));
}

/** GetNonzeroRequests over a request already computed. */
function nonZeroOf(r: ResourceRequest): { milliCPU: number; memory: number } {
  // Simplified: upstream applies the defaults per container; here per pod, when the pod asks for none.
  return { milliCPU: r.milliCPU === 0 ? DEFAULT_MILLI_CPU_REQUEST : r.milliCPU, memory: r.memory === 0 ? DEFAULT_MEMORY_REQUEST : r.memory };
}

/** leastRequestedScore: (capacity - requested) * MaxNodeScore / capacity, 0 when over. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.floor(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** LeastAllocated over cpu and memory (weight 1 each), with the pod's own requests added. */
export function leastAllocatedScore(pod: Pod, info: NodeInfo, opts: ResourceOptions, want: { readonly milliCPU: number; readonly memory: number } = nonZeroRequests(pod, opts)): number {
  const used = info.nonZeroRequested ?? nonZeroRequestedBy(info.pods, opts);
  const cpu = want.milliCPU + used.milliCPU;
  const memory = want.memory + used.memory;
  const a = info.node.allocatable;
  let score = 0;
  let weights = 0;
  // The resources in their order (cpu, then memory), without building a list of pairs a node.
  if (a.milliCPU !== 0) {
    score += leastRequestedScore(cpu, a.milliCPU);
    weights++;
  }
  if (a.memory !== 0) {
    score += leastRequestedScore(memory, a.memory);
    weights++;
  }
  return weights === 0 ? 0 : Math.floor(score / weights);
}

/** numFeasibleNodesToFind with the default percentageOfNodesToScore (adaptive). */
export function numFeasibleNodesToFind(numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  const adaptive = Math.max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND, 50 - Math.floor(numAllNodes / 125));
  const numNodes = Math.floor((numAllNodes * adaptive) / 100);
  return numNodes < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : numNodes;
}

/** The feasible nodes, the failures by reason, and where the next cycle starts (nextStartNodeIndex). */
export interface FitResult {
  feasible: NodeInfo[];
  reasons: Map<string, number>;
  nextStartNodeIndex: number;
}

/**
 * findNodesThatPassFilters: from nextStartNodeIndex round the node list, stop once enough
 * feasible nodes are found; each failing node counts under its reason.
 */
export function findNodesThatFit(pod: Pod, nodes: readonly NodeInfo[], start: number, opts: ResourceOptions, state: CycleState = preFilter(pod, opts)): FitResult {
  const want = numFeasibleNodesToFind(nodes.length);
  const feasible: NodeInfo[] = [];
  const reasons = new Map<string, number>();
  let processed = 0;
  for (; processed < nodes.length && feasible.length < want; processed++) {
    const info = nodes[(start + processed) % nodes.length]!;
    const r = filterNode(pod, info, opts, state);
    if (r.fits) feasible.push(info);
    else reasons.set(r.reason, (reasons.get(r.reason) ?? 0) + 1);
  }
  return { feasible, reasons, nextStartNodeIndex: nodes.length === 0 ? 0 : (start + processed) % nodes.length };
}

/** FitError.Error: "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had ..." (reasons sorted). */
export function fitErrorMessage(numAllNodes: number, reasons: ReadonlyMap<string, number>): string {
  const parts = [...reasons].map(([reason, n]) => `${n} ${reason}`).sort();
  return `0/${numAllNodes} nodes are available: ${parts.join(", ")}.`;
}

/** The nodes with the highest score (selectHost draws one of them uniformly). */
export function bestNodes(scored: ReadonlyArray<{ info: NodeInfo; score: number }>): NodeInfo[] {
  let max = -1;
  let best: NodeInfo[] = [];
  for (const s of scored) {
    if (s.score > max) {
      max = s.score;
      best = [s.info];
    } else if (s.score === max) best.push(s.info);
  }
  return best;
}
