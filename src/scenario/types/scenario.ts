// The scenario as the schema alone parses it (schema/scenario.ts), before pods are defaulted and
// cross-checked (resolve.ts makes the Scenario the models run).
import type { Pod } from "../../k8s/pod.ts";
import type { ContainerBehaviour } from "./behaviour.ts";
import type { RangeMs } from "./common.ts";
import type { Expectation } from "./expect.ts";
import type { KubeletConfig } from "./kubelet.ts";
import type { NodeParsed } from "./node.ts";
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
  behaviour: Record<string, ContainerBehaviour>;
}

export interface ParsedScenario {
  name: string;
  description: string;
  refs: string[];
  seed: number;
  untilMs: number;
  kubelet: KubeletConfig;
  node: NodeParsed;
  runtime: RuntimeConfig;
  apiserver: ApiserverConfig;
  pods: PodEntryParsed[];
  scheduler: Binding[];
  timeline: Step[];
  expect: Expectation[];
  strategy: ScenarioStrategy;
  swarm?: SwarmConfig | undefined;
}
