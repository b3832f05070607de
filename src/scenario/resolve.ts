// From the schema's output to the scenario the simulator runs: pods defaulted as the apiserver
// would, every container given a behaviour, every pod reference spelled "namespace/name", and the
// timeline in time order.
import { defaultPod, type Pod } from "../k8s/index.ts";
import { defaultBehaviour, type ContainerBehaviour } from "./types/behaviour.ts";
import type { ParsedScenario } from "./types/scenario.ts";
import type { Condition, Expectation } from "./types/expect.ts";
import { resolveNode, type ScenarioNode } from "./resolve_node.ts";

export interface ScenarioPod {
  /** "namespace/name": how every step, fault and expectation refers to this pod. */
  key: string;
  name: string;
  namespace: string;
  source: "api" | "file";
  /** The manifest with apiserver defaults applied. */
  manifest: Pod;
  /** A behaviour for every container of the manifest (init containers and sidecars included). */
  behaviour: Record<string, ContainerBehaviour>;
  /** Stored and run even though the apiserver (or the kubelet's static pod check) would refuse it. */
  skipApiValidation: boolean;
  /** In a cluster, a Deployment's or ReplicaSet's pod: how many its ReplicaSet controller keeps. */
  replicas?: number;
  /** In a cluster, a Job's pod: what its Job controller reads. */
  job?: { parallelism: number; completions: number | null; backoffLimit: number; podReplacementPolicy?: "TerminatingOrFailed" | "Failed" | undefined };
}

/**
 * The scenario as the simulator reads it. The node has one name, in node.name and kubelet.nodeName
 * alike; kubelet.allocatable (the older spelling of node.capacity's cpu and memory) is folded into
 * node.capacity and gone.
 */
export type Scenario = Omit<ParsedScenario, "pods" | "node" | "nodes" | "kubelet"> & {
  pods: ScenarioPod[];
  node: ScenarioNode;
  kubelet: Omit<ParsedScenario["kubelet"], "allocatable">;
  /**
   * A cluster's nodes (`nodes:`), each with its kubelet and runtime; absent for a one-node
   * scenario. When present, `node` and `kubelet` are the first node's.
   */
  nodes?: ClusterNode[];
};

/** One node of a cluster: the node, its kubelet (nodeName = the node's name) and its runtime. */
export interface ClusterNode {
  node: ScenarioNode;
  kubelet: Omit<ParsedScenario["kubelet"], "allocatable">;
  runtime: ParsedScenario["runtime"];
  /** The node has a `runtime:` of its own (else it has the top-level one, which swarm knobs edit). */
  ownRuntime?: boolean;
}

function resolvePod(entry: ParsedScenario["pods"][number], sidecars: boolean): ScenarioPod {
  // The loader reads every manifestFile in before the schema runs, so a valid entry has its manifest.
  if (entry.manifest === undefined) throw new Error("resolveScenario: a pod entry without its manifest (manifestFile not read in)");
  const manifest = defaultPod(entry.manifest);
  const namespace = manifest.metadata.namespace ?? "default";
  const behaviour: Record<string, ContainerBehaviour> = {};
  for (const c of manifest.spec.initContainers ?? []) {
    const kind = sidecars && c.restartPolicy === "Always" ? "sidecar" : "init";
    behaviour[c.name] = entry.behaviour[c.name] ?? defaultBehaviour(kind);
  }
  for (const c of manifest.spec.containers) behaviour[c.name] = entry.behaviour[c.name] ?? defaultBehaviour("regular");
  return {
    key: `${namespace}/${manifest.metadata.name}`,
    name: manifest.metadata.name,
    namespace,
    source: entry.source,
    manifest,
    behaviour,
    skipApiValidation: entry.skipApiValidation,
    ...(entry.replicas === undefined ? {} : { replicas: entry.replicas }),
    ...(entry.job === undefined ? {} : { job: entry.job }),
  };
}

/** Spells a pod reference as "namespace/name"; cross-checks made sure it names exactly one pod. */
function canonical(pods: readonly ScenarioPod[], ref: string): string {
  if (ref.includes("/")) return ref;
  return pods.find((p) => p.name === ref)?.key ?? ref;
}

function withPod<T extends object>(pods: readonly ScenarioPod[], value: T): T {
  const pod = (value as { pod?: unknown }).pod;
  return typeof pod === "string" ? { ...value, pod: canonical(pods, pod) } : value;
}

export function resolveScenario(parsed: ParsedScenario): Scenario {
  const sidecars = parsed.kubelet.featureGates.SidecarContainers;
  const pods = parsed.pods.map((p) => resolvePod(p, sidecars));
  const condition = (c: Condition): Condition => withPod(pods, c);
  const timeline = parsed.timeline
    .map((step, seq) => ({ step: withPod(pods, step), seq }))
    // Stable: steps at the same instant keep file order.
    .sort((a, b) => a.step.atMs - b.step.atMs || a.seq - b.seq)
    .map((s) => s.step);
  const expect = parsed.expect.map((e): Expectation => ({ ...e, condition: condition(e.condition) }));
  const faults = parsed.runtime.faults.map((f) => withPod(pods, f));
  const scheduler = parsed.scheduler.map((b) => ({ ...b, bind: canonical(pods, b.bind), whenTerminal: canonical(pods, b.whenTerminal) }));
  const swarm = parsed.swarm && {
    ...parsed.swarm,
    faults: parsed.swarm.faults.map((f) => ({ ...f, fault: withPod(pods, f.fault) })),
  };
  const { nodes: written, ...rest } = parsed;
  const nodes = written?.map((n) => resolveClusterNode(parsed, n, (f) => withPod(pods, f)));
  const node = nodes?.[0]?.node ?? resolveNode(parsed);
  const { allocatable: _folded, ...topKubelet } = parsed.kubelet;
  const kubelet = nodes?.[0]?.kubelet ?? topKubelet;
  return {
    ...rest, kubelet: { ...kubelet, nodeName: node.name }, node, pods, timeline, expect, scheduler, runtime: { ...parsed.runtime, faults }, swarm,
    ...(nodes === undefined ? {} : { nodes }),
  };
}

/** A `nodes:` entry resolved as `node:` is, with its own kubelet and runtime or the top-level ones. */
function resolveClusterNode(parsed: ParsedScenario, n: NonNullable<ParsedScenario["nodes"]>[number],
  canonicalFault: <T extends object>(f: T) => T): ClusterNode {
  const own = n.kubelet ?? parsed.kubelet;
  const node = resolveNode({ node: { name: n.name, labels: n.labels, taints: n.taints, capacity: n.capacity }, kubelet: own });
  const { allocatable: _folded, ...kubelet } = own;
  const runtime = n.runtime ?? parsed.runtime;
  return {
    node, kubelet: { ...kubelet, nodeName: node.name }, runtime: { ...runtime, faults: runtime.faults.map(canonicalFault) },
    ...(n.runtime === undefined ? {} : { ownRuntime: true }),
  };
}
