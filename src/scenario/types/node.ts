// The scenario's `node:` section as the schema parses it (schema/node.ts): the node the kubelet
// runs as, with the labels, taints and capacity its admission checks pods against.
import type { Taint } from "../../k8s/node.ts";
import type { KubeletConfig } from "./kubelet.ts";
import type { RuntimeConfig } from "./runtime.ts";

/** The capacity, in the units admission compares: milli-cores, bytes, and whole units of the rest. */
export interface NodeCapacity {
  cpuMilli: number;
  memoryBytes: number;
  ephemeralStorageBytes: number;
  /** Extended resources and hugepages by name (example.com/gpu: 2). */
  scalar: Record<string, number>;
}

export interface NodeParsed {
  /** The node's name; the same as kubelet.nodeName (one of them is given). */
  name?: string | undefined;
  labels: Record<string, string>;
  taints: Taint[];
  capacity: NodeCapacity;
}

/** One `nodes:` entry as parsed: a node's fields, and optionally its own kubelet and runtime sections. */
export interface ClusterNodeParsed {
  name: string;
  labels: Record<string, string>;
  taints: Taint[];
  capacity: NodeCapacity;
  kubelet?: KubeletConfig | undefined;
  runtime?: RuntimeConfig | undefined;
}
