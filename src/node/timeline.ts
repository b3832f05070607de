// The scenario's timeline as a process: each step happens at its virtual time, through the same
// interfaces the real world uses (kubectl against the apiserver, files in the static pod
// directory, faults of the runtime and the node).
import { sleep, type Proc, type Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { kubectl, type PodsClient } from "../apiserver/index.ts";
import { generatePodName } from "../kubelet/config/index.ts";
import type { CordonStep, Step, TaintNodeStep, UncordonStep, UntaintNodeStep } from "../scenario/types/timeline.ts";
import type { NodeTaint } from "../k8s/node_api.ts";
import type { SimNode } from "./node.ts";
import type { SimCluster } from "./cluster.ts";
import { ControllerManager } from "../controllers/manager.ts";

/**
 * Runs the timeline. Steps at 0s describe the node as the kubelet finds it when it starts (pods
 * already in the apiserver, manifests already in the static pod directory, which `--runonce`
 * needs), so the kubelet boots once they are applied; later steps happen to a running kubelet.
 */
export function startTimeline(sim: Sim, cluster: SimCluster, steps: readonly Step[]): void {
  const user = cluster.api.client("user");
  sim.go("scenario/timeline", function* () {
    let booted = false;
    for (const step of steps) {
      if (!booted && step.atMs > 0) {
        cluster.startKubelets();
        booted = true;
      }
      if (step.atMs > sim.nowMs) yield* sleep(step.atMs - sim.nowMs, "timeline");
      sim.emit("scenario", "Step", { step: step.kind, ...describe(step) });
      yield* applyStep(sim, cluster, user, step);
    }
    if (!booted) cluster.startKubelets();
  });
}

/**
 * The node a step happens to: the one it names; for a step about a pod, the node the pod is
 * bound to now (for a static pod, the node its manifest names); else the first node.
 */
function targetNode(cluster: SimCluster, step: Step): SimNode {
  if (cluster.nodes.length === 1) return cluster.first;
  const named = (step as { node?: string }).node;
  if (named !== undefined) return cluster.node(named) ?? cluster.first;
  const pod = (step as { pod?: string }).pod;
  if (pod === undefined) return cluster.first;
  const bound = cluster.first.scenario.pods.find((p) => p.key === pod)?.manifest.spec.nodeName;
  return cluster.nodeOfPod(pod) ?? (bound === undefined ? undefined : cluster.node(bound)) ?? cluster.first;
}

function describe(step: Step): Record<string, unknown> {
  const { atMs: _at, kind: _kind, ...rest } = step as Step & Record<string, unknown>;
  return rest;
}

function* applyStep(sim: Sim, cluster: SimCluster, user: PodsClient, step: Step): Proc<void> {
  switch (step.kind) {
    case "create": {
      const workload = cluster.controllers === null ? undefined : cluster.scenario.pods.find((p) => p.key === step.pod && ControllerManager.isWorkload(p));
      if (workload !== undefined) cluster.controllers!.create(workload);
      else yield* traced(sim, "create", yield* kubectl.create(user, cluster.first.manifestFor(step.pod)));
      return;
    }
    case "delete": {
      const workload = cluster.controllers === null || step.target === "pod" ? undefined : cluster.scenario.pods.find((p) => p.key === step.pod && ControllerManager.isWorkload(p));
      if (workload !== undefined) return yield* cluster.controllers!.delete(workload);
      const [ns, name] = split(step.pod);
      const opts = {
        ...(step.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: step.gracePeriodSeconds }),
        ...(step.uid === undefined ? {} : { preconditions: { uid: step.uid } }),
      };
      yield* traced(sim, "delete", yield* user.deletePod(ns, name, opts));
      return;
    }
    case "forceDelete": {
      const [ns, name] = split(step.pod);
      if (cluster.scenario.kubelet.variants.shutdownNodeBeforeForceDelete === true) shutDownNodeOf(sim, cluster, step.pod);
      yield* traced(sim, "forceDelete", yield* kubectl.forceDelete(user, ns, name));
      return;
    }
    case "setImage": {
      const [ns, name] = split(step.pod);
      yield* traced(sim, "setImage", yield* kubectl.setImage(user, ns, name, step.container, step.image));
      return;
    }
    case "setLabels":
      yield* setLabels(sim, user, step.pod, step.labels);
      return;
    case "taintNode":
    case "untaintNode":
      yield* taintStep(sim, cluster, step);
      return;
    case "cordon":
    case "uncordon":
      yield* cordonStep(sim, cluster, step);
      return;
    case "deleteNode":
      // kubectl delete node: the Node object goes; the node's kubelet, runtime and containers stay.
      yield* traced(sim, "deleteNode", yield* cluster.api.nodeClient("user").deleteNode(step.node));
      return;
    case "watchGone":
      // The apiserver's watch cache moved on: every kubelet's watch ends with 410 Gone.
      for (const node of cluster.nodes) node.api.registry.expireWatches(node.apiActor);
      return;
    default: {
      const node = targetNode(cluster, step);
      // In a cluster a node's downtime (restartKubelet, rebootNode) holds up no later step: the
      // other nodes, the controllers and the user go on meanwhile. A one-node timeline waits, as before.
      if (cluster.isCluster && (step.kind === "rebootNode" || step.kind === "restartKubelet")) {
        sim.go(`scenario/${step.kind}/${node.settings.nodeName}`, () => applyNodeStep(sim, node, step));
        return;
      }
      yield* applyNodeStep(sim, node, step);
    }
  }
}

function* applyNodeStep(sim: Sim, node: SimNode, step: Step): Proc<void> {
  switch (step.kind) {
    case "staticAdd":
      writeStatic(node, step.pod, (m) => m);
      return;
    case "staticUpdate":
      writeStatic(node, step.pod, (m) => withImage(m, step.container, step.image));
      return;
    case "staticRemove":
      node.manifestDir!.remove(staticFileName(step.pod));
      return;
    case "restartKubelet":
      yield* node.restartKubelet(step.downtimeMs);
      return;
    case "rebootNode":
      yield* node.rebootNode(step.downtimeMs);
      return;
    case "restartRuntime":
      node.runtime.restartRuntime({ downMs: step.downtimeMs, containersSurvive: true });
      return;
    case "removeSandbox": {
      // As crictl rmp -f does: the CRI RemovePodSandbox call, which force-removes the containers first.
      const sb = node.runtime.newestSandboxOf(runtimeKey(node, step.pod));
      if (sb !== undefined) yield* node.runtime.RemovePodSandbox(sb.id);
      return;
    }
    default:
      applyFault(sim, node, step);
  }
}

function applyFault(sim: Sim, node: SimNode, step: Step): void {
  const now = sim.nowMs;
  switch (step.kind) {
    case "partition":
      node.api.addPartition({ fromMs: now, toMs: now + step.forMs, mode: step.mode === "fail" ? "refuse" : "hang", actors: [node.apiActor] });
      return;
    case "watchDelay": {
      node.api.registry.delayWatches(step.delay.maxMs, node.apiActor);
      sim.schedule(now + step.forMs, () => void node.api.registry.delayWatches(0, node.apiActor));
      return;
    }
    case "watchDrop":
      // Simplified: the watch connection drops (its events are lost); the reflector notices and re-lists.
      node.api.registry.dropWatches(node.apiActor);
      return;
    case "killSandbox": {
      const sb = node.runtime.newestSandboxOf(runtimeKey(node, step.pod));
      if (sb !== undefined) node.runtime.sandboxDies(sb.id);
      return;
    }
    case "removeContainer": {
      const c = node.runtime.newestContainerOf(runtimeKey(node, step.pod), step.container);
      if (c !== undefined) node.runtime.removeContainerBehindKubelet(c.id);
      return;
    }
    case "oomKill": {
      const c = node.runtime.newestContainerOf(runtimeKey(node, step.pod), step.container);
      if (c !== undefined) node.runtime.endContainerNow(c.id, 137, "OOMKilled");
      return;
    }
    case "exitContainer": {
      const c = node.runtime.newestContainerOf(runtimeKey(node, step.pod), step.container);
      if (c !== undefined) node.runtime.endContainerNow(c.id, step.exitCode);
      return;
    }
    case "evict": {
      const pod = node.kubelet?.core.podManager.GetPods().find((p) => podKey(p) === runtimeKey(node, step.pod));
      if (pod !== undefined) node.kubelet!.evict(pod, step.gracePeriodSeconds, step.reason, step.message);
      else sim.emit("scenario", "StepSkipped", { step: "evict", pod: step.pod, why: "the kubelet does not know the pod" });
      return;
    }
    default:
      throw new Error(`timeline step ${(step as Step).kind} has no model`);
  }
}

/**
 * Variant shutdownNodeBeforeForceDelete (race R26's documented procedure): the node the pod is bound
 * to is shut down before the force delete, so no container of the pod can still run there. It stays
 * down (KEP-2268: the node is brought back only once its pods are gone and the taint removed).
 */
function shutDownNodeOf(sim: Sim, cluster: SimCluster, pod: string): void {
  const node = cluster.nodeOfPod(pod);
  if (node === undefined || cluster.nodes.length === 1) return;
  sim.emit("scenario", "NodeShutdown", { node: node.settings.nodeName, pod, why: "shutdownNodeBeforeForceDelete" });
  node.stopKubelet();
  node.runtime.nodeReboot({ downMs: 0, keepRecords: true });
}

function* setLabels(sim: Sim, user: PodsClient, key: string, labels: Record<string, string | null>): Proc<void> {
  const [ns, name] = split(key);
  const got = yield* user.getPod(ns, name);
  if (got.err !== null) return yield* traced(sim, "setLabels", got);
  const merged: Record<string, string> = { ...(got.value.metadata.labels ?? {}) };
  for (const [k, v] of Object.entries(labels)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  yield* traced(sim, "setLabels", yield* user.updatePod({ ...got.value, metadata: { ...got.value.metadata, labels: merged } }));
}

/** kubectl taint nodes: GET the Node, change its taints, PUT it back (a conflict is the step's failure, as kubectl's). */
function* taintStep(sim: Sim, cluster: SimCluster, step: TaintNodeStep | UntaintNodeStep): Proc<void> {
  const client = cluster.api.nodeClient("user");
  const got = yield* client.getNode(step.node);
  if (got.err !== null) return yield* traced(sim, step.kind, got);
  const node = got.value;
  const same = (t: NodeTaint) => t.key === step.key && (step.effect === undefined || t.effect === step.effect);
  const kept = (node.spec.taints ?? []).filter((t) => !same(t));
  const taints = step.kind === "taintNode" ? [...kept, { key: step.key, ...(step.value === undefined ? {} : { value: step.value }), effect: step.effect }] : kept;
  if (step.kind === "untaintNode" && kept.length === (node.spec.taints ?? []).length) {
    sim.emit("scenario", "StepFailed", { step: step.kind, err: `taint "${step.key}${step.effect === undefined ? "" : `:${step.effect}`}" not found` });
    return;
  }
  yield* traced(sim, step.kind, yield* client.updateNode({ ...node, spec: { ...node.spec, taints } }));
}

/**
 * kubectl cordon / uncordon (pkg/drain CordonHelper): GET the Node; when spec.unschedulable is
 * already as asked, nothing is written ("already cordoned"); else PATCH spec.unschedulable.
 */
function* cordonStep(sim: Sim, cluster: SimCluster, step: CordonStep | UncordonStep): Proc<void> {
  const client = cluster.api.nodeClient("user");
  const got = yield* client.getNode(step.node);
  if (got.err !== null) return yield* traced(sim, step.kind, got);
  const desired = step.kind === "cordon";
  if ((got.value.spec.unschedulable === true) === desired) {
    sim.emit("scenario", "StepSkipped", { step: step.kind, node: step.node, why: `node/${step.node} already ${desired ? "cordoned" : "uncordoned"}` });
    return;
  }
  yield* traced(sim, step.kind, yield* client.patchNodeUnschedulable(step.node, desired));
}

function* traced(sim: Sim, what: string, r: { err: { message: string } | null }): Proc<void> {
  if (r.err !== null) sim.emit("scenario", "StepFailed", { step: what, err: r.err.message });
}

function writeStatic(node: SimNode, key: string, edit: (m: Pod) => Pod): void {
  node.manifestDir!.write(staticFileName(key), edit(node.manifestFor(key)));
}

function withImage(m: Pod, container: string, image: string): Pod {
  const swap = (cs: Pod["spec"]["containers"] | undefined) => cs?.map((c) => (c.name === container ? { ...c, image } : c));
  return { ...m, spec: { ...m.spec, containers: swap(m.spec.containers)!, initContainers: swap(m.spec.initContainers) } };
}

function staticFileName(key: string): string {
  return `${key.replace("/", "_")}.yaml`;
}

/** How the runtime names the pod: static pods carry the node name as a suffix. */
function runtimeKey(node: SimNode, key: string): string {
  const p = node.scenario.pods.find((x) => x.key === key);
  if (p?.source !== "file") return key;
  return `${p.namespace}/${generatePodName(p.name, node.settings.nodeName)}`;
}

function podKey(p: Pod): string {
  return `${p.metadata.namespace ?? "default"}/${p.metadata.name}`;
}

function split(key: string): [string, string] {
  const i = key.indexOf("/");
  return [key.slice(0, i), key.slice(i + 1)];
}
