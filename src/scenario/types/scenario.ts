// The scenario as the schema alone parses it (schema/scenario.ts), before pods are defaulted and
// cross-checked (resolve.ts makes the Scenario the models run).
import type { Pod } from "../../k8s/pod.ts";
import type { ContainerBehaviour } from "./behaviour.ts";
import type { RangeMs } from "./common.ts";
import type { Expectation } from "./expect.ts";
import type { KubeletConfig } from "./kubelet.ts";
import type { ClusterNodeParsed, NodeParsed } from "./node.ts";
import type { RuntimeConfig } from "./runtime.ts";
import type { ScenarioStrategy, SwarmConfig } from "./strategy.ts";
import type { Step } from "./timeline.ts";

export interface ApiserverConfig {
  latency: RangeMs;
}

/** The scheduler stand-in's binding: when `whenTerminal` shows a terminal phase, `bind` is created bound to the node. */
export interface Binding {
  bind: string;
  whenTerminal: string;
  latency: RangeMs;
}

/** A pod of the scenario as written: its manifest (or the file it is in), its source and its containers' behaviour. */
export interface PodEntryParsed {
  manifest?: Pod | undefined;
  manifestFile?: string | undefined;
  source: "api" | "file";
  skipApiValidation: boolean;
  /** In a cluster, a Deployment's, ReplicaSet's or StatefulSet's replicas. */
  replicas?: number | undefined;
  /** In a cluster, what a Job's controller reads. */
  job?: JobCounts | undefined;
  behaviour: Record<string, ContainerBehaviour>;
}

/** A Job's counts, as its controller reads them. */
export interface JobCounts {
  parallelism: number;
  /** null: the first success ends the Job (a work queue). */
  completions: number | null;
  backoffLimit: number;
  /** spec.podReplacementPolicy; TerminatingOrFailed when omitted. */
  podReplacementPolicy?: "TerminatingOrFailed" | "Failed" | undefined;
}

/** The release of a cluster's apiserver, scheduler and controllers. */
export interface ControlPlaneParsed {
  version: { version: string; minor: number; patch: number };
}

export interface ParsedScenario {
  name: string;
  description: string;
  refs: string[];
  seed: number;
  untilMs: number;
  kubelet: KubeletConfig;
  node: NodeParsed;
  /** A cluster's nodes (docs/cluster.md); absent for one node. */
  nodes?: ClusterNodeParsed[] | undefined;
  /** A cluster's control plane (docs/cluster.md); absent: the first node's kubelet release. */
  controlPlane?: ControlPlaneParsed | undefined;
  runtime: RuntimeConfig;
  apiserver: ApiserverConfig;
  pods: PodEntryParsed[];
  scheduler: Binding[];
  timeline: Step[];
  expect: Expectation[];
  strategy: ScenarioStrategy;
  swarm?: SwarmConfig | undefined;
}
