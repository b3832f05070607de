// The scenario's node section resolved: one name (node.name or kubelet.nodeName), the kubelet's
// own labels under the scenario's, the capacity with kubelet.allocatable's older spelling folded
// in; and the Node value the kubelet's admission reads (allocatable = capacity, the pod count
// from kubelet.maxPods, as the kubelet's node status sets it).
import { kubeletNodeLabels, LABEL_ARCH_BETA, LABEL_ARCH_STABLE, LABEL_OS_BETA, LABEL_OS_STABLE, type Node, type Taint } from "../k8s/node.ts";
import type { NodeCapacity } from "./schema/node.ts";
import type { ParsedScenario } from "./schema/scenario.ts";

export interface ScenarioNode {
  name: string;
  /** Every label the node has: the kubelet's own, then the scenario's. */
  labels: Record<string, string>;
  taints: Taint[];
  capacity: NodeCapacity;
}

/** The node's labels: the kubelet's (os and arch following a platform the scenario names), then the scenario's. */
export function nodeLabels(name: string, written: Readonly<Record<string, string>>): Record<string, string> {
  const own = kubeletNodeLabels(name);
  // The beta labels are the stable ones' twins: the kubelet sets both from runtime.GOOS/GOARCH.
  if (written[LABEL_OS_STABLE] !== undefined) own[LABEL_OS_BETA] = written[LABEL_OS_STABLE];
  if (written[LABEL_ARCH_STABLE] !== undefined) own[LABEL_ARCH_BETA] = written[LABEL_ARCH_STABLE];
  return { ...own, ...written };
}

export function resolveNode(parsed: Pick<ParsedScenario, "node" | "kubelet">): ScenarioNode {
  const name = parsed.node.name ?? parsed.kubelet.nodeName;
  const alias = parsed.kubelet.allocatable;
  const capacity: NodeCapacity = {
    ...parsed.node.capacity,
    ...(alias?.cpuMilli === undefined ? {} : { cpuMilli: alias.cpuMilli }),
    ...(alias?.memoryBytes === undefined ? {} : { memoryBytes: alias.memoryBytes }),
  };
  return { name, labels: nodeLabels(name, parsed.node.labels), taints: parsed.node.taints as Taint[], capacity };
}

/** The Node the kubelet's admission (and a scheduler) reads for this node. */
export function nodeOf(node: ScenarioNode, maxPods: number): Node {
  return {
    name: node.name,
    labels: node.labels,
    taints: node.taints,
    allocatable: {
      milliCPU: node.capacity.cpuMilli,
      memory: node.capacity.memoryBytes,
      ephemeralStorage: node.capacity.ephemeralStorageBytes,
      allowedPodNumber: maxPods,
      scalarResources: node.capacity.scalar,
    },
  };
}
