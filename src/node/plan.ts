// A node's compiled plan: everything a run's node is built from that depends on the scenario
// alone, computed once. An exploration runs one scenario thousands of times; each run builds its
// node's state (the kernel, the apiserver's store, the runtime's records, the kubelet) fresh from
// the plan, and nothing in the plan changes during a run: it is frozen, so a run can share it
// without another run seeing a trace of it.
import type { Pod } from "../k8s/pod.ts";
import { deepFreeze } from "../apiserver/objects.ts";
import { cloneJSON } from "../k8s/json.ts";
import { resolveRuntimeConfig, type RuntimeConfig } from "../cri/config.ts";
import type { ContainerBehaviour } from "../cri/program.ts";
import { generatePodName } from "../kubelet/config/index.ts";
import { compileBehaviour } from "../scenario/compile.ts";
import type { ClusterNode, Scenario } from "../scenario/resolve.ts";
import { kubeletSettings, type KubeletSettings } from "./settings.ts";

/** One container's scripted program, under the name the runtime knows its pod by. */
export interface PlannedBehaviour {
  readonly podKey: string;
  readonly container: string;
  readonly behaviour: ContainerBehaviour;
}

export interface NodePlan {
  /** The scenario the plan was compiled from (a run of another scenario must not use it). */
  readonly scenario: Scenario;
  readonly settings: KubeletSettings;
  readonly runtimeConfig: RuntimeConfig;
  readonly behaviours: readonly PlannedBehaviour[];
  /** The API pods the timeline creates, by scenario key: as written, bound to this node. */
  readonly manifests: ReadonlyMap<string, Pod>;
  readonly skipApiValidation: ReadonlySet<string>;
  readonly skipStaticPodValidation: ReadonlySet<string>;
  readonly hasStaticPods: boolean;
}

/**
 * A run's node plans, one a node in the scenario's order (a scenario without `nodes:` has one):
 * what SimCluster builds its nodes from. An exploration compiles the base scenario's once, and
 * each run with knobs drawn compiles its own like it (compileNodePlan's `like`, node by node).
 */
export type ClusterPlan = readonly NodePlan[];

/** Every node's plan (see ClusterPlan); node i's like `like[i]` when given. */
export function compileClusterPlan(scenario: Scenario, like?: ClusterPlan): ClusterPlan {
  const members: readonly (ClusterNode | undefined)[] = scenario.nodes ?? [undefined];
  return Object.freeze(members.map((m, i) => compileNodePlan(scenario, m, like?.[i])));
}

/**
 * Compiles the node half of a run plan (see the top of this file): of the scenario's one node, or
 * of `member`, one node of its cluster. A one-node scenario's API pods come bound to its node, as
 * a scheduler would bind them; a cluster's come as written, and the scheduler stand-in binds those
 * that name no node (scheduler/scheduler.ts).
 */
export function compileNodePlan(scenario: Scenario, member: ClusterNode | undefined = scenario.nodes?.[0], like?: NodePlan): NodePlan {
  const settings = kubeletSettings(scenario, member);
  if (like !== undefined && samePods(like, scenario, settings)) {
    return Object.freeze({
      ...podsOf(like),
      scenario,
      settings: deepFreeze(cloneJSON(settings)),
      runtimeConfig: deepFreeze(cloneJSON(resolveRuntimeConfig((member ?? scenario).runtime))),
    });
  }
  const manifests = new Map<string, Pod>();
  for (const p of scenario.pods) {
    const m = p.manifest as Pod;
    const nodeName = m.spec.nodeName ?? (scenario.nodes === undefined || p.source === "file" ? settings.nodeName : undefined);
    // Frozen, so the apiserver can take it as it is.
    manifests.set(p.key, deepFreeze(cloneJSON(nodeName === undefined ? m : { ...m, spec: { ...m.spec, nodeName } })));
  }
  return Object.freeze({
    scenario,
    settings: deepFreeze(cloneJSON(settings)),
    runtimeConfig: deepFreeze(cloneJSON(resolveRuntimeConfig((member ?? scenario).runtime))),
    behaviours: deepFreeze(plannedBehaviours(scenario, settings)),
    manifests,
    skipApiValidation: skippingValidation(scenario, "api"),
    skipStaticPodValidation: skippingValidation(scenario, "file"),
    hasStaticPods: scenario.pods.some((p) => p.source === "file"),
  });
}

/**
 * Whether a plan's pod half (manifests, behaviours, validation skips) is this scenario's too: the
 * same pod objects on a node of the same name, one node or a cluster alike. An exploration's runs
 * with swarm knobs (explore/knobs.ts applyKnobs) change latencies, faults and the timeline, never
 * the pods: each run's plan takes the base plan's frozen pods, so the apiserver's per-manifest
 * work (validation, strategy.ts) is done once, not once per run.
 */
function samePods(like: NodePlan, scenario: Scenario, settings: KubeletSettings): boolean {
  return like.scenario.pods === scenario.pods && like.settings.nodeName === settings.nodeName &&
    (like.scenario.nodes === undefined) === (scenario.nodes === undefined);
}

function podsOf(p: NodePlan): Pick<NodePlan, "behaviours" | "manifests" | "skipApiValidation" | "skipStaticPodValidation" | "hasStaticPods"> {
  return { behaviours: p.behaviours, manifests: p.manifests, skipApiValidation: p.skipApiValidation, skipStaticPodValidation: p.skipStaticPodValidation, hasStaticPods: p.hasStaticPods };
}

/** What each container does; static pods run under their node-suffixed name. */
function plannedBehaviours(scenario: Scenario, settings: KubeletSettings): PlannedBehaviour[] {
  const out: PlannedBehaviour[] = [];
  for (const p of scenario.pods) {
    const name = p.source === "file" ? generatePodName(p.name, settings.nodeName) : p.name;
    for (const [container, behaviour] of Object.entries(p.behaviour).sort(([a], [b]) => (a < b ? -1 : 1))) {
      out.push({ podKey: `${p.namespace}/${name}`, container, behaviour: compileBehaviour(behaviour) });
    }
  }
  return out;
}

/** The pods of one source that the scenario lets past validation (skipApiValidation), by key. */
function skippingValidation(scenario: Scenario, source: "api" | "file"): ReadonlySet<string> {
  return new Set(scenario.pods.filter((p) => p.source === source && p.skipApiValidation === true).map((p) => p.key));
}
