// Models the parts of k8s.io/api/core/v1 Node (labels, taints, allocatable) that the kubelet's
// admission and the scheduler's filters read, and the labels the kubelet gives its own Node
// (pkg/kubelet/kubelet_node_status.go initialNode). Plain values, shared by the kubelet's
// predicate admit handler and, later, a scheduler stand-in: both read the same Node.

/** v1.TaintEffect */
export type TaintEffect = "NoSchedule" | "PreferNoSchedule" | "NoExecute";
export const TAINT_EFFECTS: readonly TaintEffect[] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/** v1.Taint (timeAdded is not read by any filter). */
export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
}

/** v1.Toleration, as a pod spec holds it (operator "" means Equal). */
export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
}

/**
 * What a NodeInfo's Allocatable holds, in the units the filters compare: milli-cores, bytes, a
 * pod count, and the scalar resources (extended resources, hugepages) by name, as integers.
 */
export interface NodeResources {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  allowedPodNumber: number;
  scalarResources: Readonly<Record<string, number>>;
}

/** The Node as the admission and filter code reads it: metadata.name and labels, spec.taints, status.allocatable. */
export interface Node {
  name: string;
  labels: Readonly<Record<string, string>>;
  taints: readonly Taint[];
  allocatable: NodeResources;
}

/** v1.LabelHostname, v1.LabelOSStable, v1.LabelArchStable and the beta labels kubeletapis still sets. */
export const LABEL_HOSTNAME = "kubernetes.io/hostname";
export const LABEL_OS_STABLE = "kubernetes.io/os";
export const LABEL_ARCH_STABLE = "kubernetes.io/arch";
export const LABEL_OS_BETA = "beta.kubernetes.io/os";
export const LABEL_ARCH_BETA = "beta.kubernetes.io/arch";

/** runtime.GOOS and runtime.GOARCH of the simulated kubelet's binary: a kind node's. */
export const DEFAULT_NODE_OS = "linux";
export const DEFAULT_NODE_ARCH = "amd64";

/**
 * initialNode's labels: hostname, os and arch (stable and beta), as a kind node shows them. The
 * hostname label is the node name lowercased (kubelet --hostname-override defaults to it).
 */
export function kubeletNodeLabels(nodeName: string): Record<string, string> {
  return {
    [LABEL_ARCH_BETA]: DEFAULT_NODE_ARCH,
    [LABEL_OS_BETA]: DEFAULT_NODE_OS,
    [LABEL_ARCH_STABLE]: DEFAULT_NODE_ARCH,
    [LABEL_HOSTNAME]: nodeName.toLowerCase(),
    [LABEL_OS_STABLE]: DEFAULT_NODE_OS,
  };
}

/** The OS the node's kubelet runs on (runtime.GOOS): its kubernetes.io/os label. */
export function nodeOS(node: Node): string {
  return node.labels[LABEL_OS_STABLE] ?? DEFAULT_NODE_OS;
}
