// Models pkg/controller/daemon/daemon_controller.go (syncDaemonSet, manage,
// podsShouldBeOnNode, nodeShouldRunDaemonPod with its predicates) and daemon/util
// (ReplaceDaemonSetPodNodeNameNodeAffinity) in small: one pod per eligible node, each pinned to
// its node by node affinity (metadata.name In [node]) and placed by the scheduler, as since 1.12
// (ScheduleDaemonSetPods); a node is eligible when the template's nodeSelector matches it and
// every NoSchedule and NoExecute taint is tolerated (with the daemon tolerations the manifest
// expansion added), and a pod already there is kept while every NoExecute taint is (an untolerated
// NoSchedule taint stops none: shouldContinueRunning); a daemon pod that failed is deleted and made
// again, through the failed-pods backoff, and one that succeeded too since 1.26.5/1.27
// (daemonset_nodes.ts, podsShouldBeOnNode); surplus pods on a node are deleted; creations go in
// slow-start batches, with expectations. The nodes are the node
// informer's (its lister, after the watch's delivery delay), and its handlers wake the controller
// as addNode and updateNode do: a Node added where a DaemonSet should run, and a Node whose labels
// or taints changed (shouldIgnoreNodeUpdate) so that shouldRun or shouldContinueRunning flips,
// enqueue the DaemonSet. Upstream registers no DeleteFunc for Nodes: a deleted node's pods go with
// podgc, whose deletions wake the controller through its pod handlers.
//
// Simplified, as replicaset.ts: the DaemonSet lives in the controller (no object, status or
// revisions: no rolling update); the template's own required node affinity is replaced by the pin
// (the manifest expansion pins the first pod to the first node); the controller has its own node
// informer (upstream's is the controller manager's shared one: one watch, the same delays here).
import type { Proc, Sim } from "../sim/index.ts";
import { ControllerLoop, controllerKey, observedExpectation } from "./informer.ts";
import type { Pod } from "../k8s/pod.ts";
import type { Node } from "../k8s/node.ts";
import type { NodeObject } from "../k8s/node_api.ts";
import type { ObjectInformer } from "./node_informer.ts";
import type { ObjectEventType } from "../apiserver/node_registry.ts";
import { podKey } from "../k8s/podutil.ts";
import type { PodsClient, WatchEvent } from "../apiserver/index.ts";
import { generateName } from "../scenario/manifest/names.ts";
import { findMatchingUntoleratedTaint } from "../k8s/scheduling/taints.ts";
import { EXPECTATIONS_TIMEOUT_MS, BURST_REPLICAS } from "./replicaset.ts";
import { slowStartBatch } from "./controller_utils.ts";
import { Backoff } from "../kubelet/util/backoff.ts";
import type { VersionLike } from "../kubelet/version.ts";
import { FAILED_PODS_BACKOFF_INITIAL_MS, FAILED_PODS_BACKOFF_MAX_MS, podsShouldBeOnNode, type DaemonPodEvent } from "./daemonset_nodes.ts";

const COMPONENT = "daemonset-controller";

export interface DaemonSet {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** The pod the manifest expansion made (pinned to the first node), the entry's name its first pod's. */
  readonly template: Pod;
  readonly firstName: string;
}

/** What the predicates read of a Node: its name, labels and taints. */
export type DaemonNode = Pick<Node, "name" | "labels" | "taints">;

/** nodeShouldRunDaemonPod's predicates: the nodeSelector, and no untolerated NoSchedule or NoExecute taint. */
export function nodeShouldRunDaemonPod(template: Pod, node: DaemonNode): boolean {
  return nodeShouldRunAndContinue(template, node)[0];
}

/**
 * NodeShouldRunDaemonPod's two answers: shouldRun (the nodeSelector matches and every NoSchedule
 * and NoExecute taint is tolerated) and shouldContinueRunning (the nodeSelector matches and every
 * NoExecute taint is tolerated).
 */
export function nodeShouldRunAndContinue(template: Pod, node: DaemonNode): [boolean, boolean] {
  for (const [k, v] of Object.entries(template.spec.nodeSelector ?? {})) if (node.labels[k] !== v) return [false, false];
  const tolerations = template.spec.tolerations ?? [];
  if (findMatchingUntoleratedTaint(node.taints, tolerations, (t) => t.effect === "NoSchedule" || t.effect === "NoExecute") === null) return [true, true];
  return [false, findMatchingUntoleratedTaint(node.taints, tolerations, (t) => t.effect === "NoExecute") === null];
}

/** The Node object as the predicates read it. */
export function daemonNode(obj: NodeObject): DaemonNode {
  return { name: obj.metadata.name, labels: obj.metadata.labels, taints: obj.spec.taints ?? [] };
}

/** shouldIgnoreNodeUpdate (since kubernetes/kubernetes#121669): the labels and the taints are unchanged. */
export function shouldIgnoreNodeUpdate(old: NodeObject, cur: NodeObject): boolean {
  return sameJSON(old.metadata.labels, cur.metadata.labels) && sameJSON(old.spec.taints ?? [], cur.spec.taints ?? []);
}

function sameJSON(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: the pod pinned to `nodeName`. */
export function pinnedTo(template: Pod, nodeName: string, name: string): Pod {
  const affinity = template.spec.affinity ?? {};
  return {
    ...template,
    metadata: { ...template.metadata, name },
    spec: {
      ...template.spec,
      affinity: {
        ...affinity,
        nodeAffinity: {
          ...(affinity.nodeAffinity ?? {}),
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: [nodeName] }] }] },
        },
      },
    },
  } as Pod;
}

/** The node a daemon pod is for: its spec.nodeName once bound, else its pin. */
export function daemonPodNode(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return terms[0]?.matchFields?.find((f) => f.key === "metadata.name")?.values?.[0];
}

interface State {
  set: DaemonSet;
  created: number;
  expectAdd: number;
  expectDel: number;
  sinceMs: number;
}

export class DaemonSetController {
  private readonly sets = new Map<string, State>();
  private readonly loop: ControllerLoop;
  /** failedPodsBackoff, on the simulation's clock (upstream's GC of expired entries changes no answer: not run). */
  private readonly failedPodsBackoff: Backoff;

  /** `release`: the control plane's (controller manager's) release. */
  constructor(private readonly sim: Sim, private readonly client: PodsClient, private readonly nodeInformer: ObjectInformer<"nodes">,
    private readonly release: VersionLike, private readonly beforeCreate: (templateKey: string, podKey: string) => void = () => {}) {
    this.failedPodsBackoff = new Backoff({ nowMs: () => sim.nowMs }, FAILED_PODS_BACKOFF_INITIAL_MS, FAILED_PODS_BACKOFF_MAX_MS);
    this.loop = new ControllerLoop(sim, client, "daemonset", { observe: (e, pod, before) => this.onPod(e, pod, before), sync: (key) => this.syncDaemonSet(key) });
    nodeInformer.onEvent((type, obj, old) => this.onNode(type, obj, old));
  }

  start(): void {
    this.loop.start();
  }

  add(set: DaemonSet): void {
    const key = `${set.namespace}/${set.name}`;
    this.sets.set(key, { set, created: 0, expectAdd: 0, expectDel: 0, sinceMs: 0 });
    this.sim.emit(COMPONENT, "DaemonSetAdded", { daemonSet: key });
    this.loop.enqueue(key);
  }

  *remove(namespace: string, name: string): Proc<void> {
    const key = `${namespace}/${name}`;
    if (!this.sets.has(key)) return;
    const pods = this.ownedPods(key);
    this.sets.delete(key);
    this.sim.emit(COMPONENT, "DaemonSetDeleted", { daemonSet: key, pods: pods.length });
    for (const p of pods) yield* this.client.deletePod(namespace, p.metadata.name);
  }

  /** The node informer's handlers: AddFunc (addNode) and UpdateFunc (updateNode); no DeleteFunc, as upstream. */
  private onNode(type: ObjectEventType, obj: NodeObject, old: NodeObject | undefined): void {
    // No DaemonSet, nothing to enqueue: a cluster of Deployments pays nothing for the handlers.
    if (this.sets.size === 0) return;
    if (type === "ADDED" || (type === "MODIFIED" && old === undefined)) this.addNode(obj);
    else if (type === "MODIFIED") this.updateNode(old!, obj);
  }

  /** addNode: every DaemonSet that should run on the new node. */
  private addNode(obj: NodeObject): void {
    const node = daemonNode(obj);
    for (const [key, st] of this.sets) if (nodeShouldRunDaemonPod(st.set.template, node)) this.loop.enqueue(key);
  }

  /** updateNode: every DaemonSet whose shouldRun or shouldContinueRunning the change flips. */
  private updateNode(old: NodeObject, cur: NodeObject): void {
    if (shouldIgnoreNodeUpdate(old, cur)) return;
    const [was, now] = [daemonNode(old), daemonNode(cur)];
    for (const [key, st] of this.sets) {
      const [oldRun, oldContinue] = nodeShouldRunAndContinue(st.set.template, was);
      const [curRun, curContinue] = nodeShouldRunAndContinue(st.set.template, now);
      if (oldRun !== curRun || oldContinue !== curContinue) this.loop.enqueue(key);
    }
  }

  private ownerOf(pod: Pod): string | undefined {
    return controllerKey(pod, "DaemonSet", (key) => this.sets.get(key)?.set.uid);
  }

  private ownedPods(key: string): Pod[] {
    return [...this.loop.pods.values()].filter((p) => this.ownerOf(p) === key);
  }

  private onPod(e: WatchEvent, pod: Pod, before: Pod | undefined): void {
    const owner = this.ownerOf(pod);
    if (owner === undefined) return;
    const st = this.sets.get(owner)!;
    const seen = observedExpectation(e, pod, before);
    if (seen === "add") st.expectAdd--;
    else if (seen === "del") st.expectDel--;
    this.loop.enqueue(owner);
  }

  /** manage: podsShouldBeOnNode for every node, then the deletions and the creations. */
  private *syncDaemonSet(key: string): Proc<void> {
    const st = this.sets.get(key);
    if (st === undefined) return;
    const satisfied = (st.expectAdd <= 0 && st.expectDel <= 0) || this.sim.nowMs - st.sinceMs > EXPECTATIONS_TIMEOUT_MS;
    if (!satisfied) return;
    const byNode = new Map<string, Pod[]>();
    for (const p of this.ownedPods(key)) {
      const n = daemonPodNode(p);
      if (n !== undefined) byNode.set(n, [...(byNode.get(n) ?? []), p]);
    }
    const create: string[] = [];
    const remove: Pod[] = [];
    for (const node of this.nodeInformer.list().map(daemonNode)) {
      const [shouldRun, shouldContinueRunning] = nodeShouldRunAndContinue(st.set.template, node);
      const input = { nodeName: node.name, shouldRun, shouldContinueRunning, daemonPods: byNode.get(node.name) ?? [], dsUID: st.set.uid };
      const d = podsShouldBeOnNode(input, this.failedPodsBackoff, this.sim.nowMs, this.release);
      if (d.create) create.push(node.name);
      remove.push(...d.remove);
      for (const e of d.events) this.recordEvent(e);
      if (d.requeueAfterMs !== undefined) this.loop.enqueueAfter(key, d.requeueAfterMs);
    }
    const toCreate = create.slice(0, BURST_REPLICAS);
    const toRemove = remove.slice(0, BURST_REPLICAS);
    st.expectAdd = toCreate.length;
    st.expectDel = toRemove.length;
    st.sinceMs = this.sim.nowMs;
    if (toCreate.length > 0 || toRemove.length > 0) this.sim.emit(COMPONENT, "Manage", { daemonSet: key, creating: toCreate, deleting: toRemove.map(podKey) });
    // syncNodes: the creations (slow-start batches), then the deletions.
    const ok = yield* slowStartBatch(this.sim, "daemonset", toCreate.length, (i) => this.createPod(st, toCreate[i]!));
    st.expectAdd -= toCreate.length - ok;
    for (const p of toRemove) {
      const r = yield* this.client.deletePod(st.set.namespace, p.metadata.name);
      if (r.err !== null) st.expectDel--;
    }
  }

  /** The event upstream records on the DaemonSet, shown on the pod it names. */
  private recordEvent(e: DaemonPodEvent): void {
    this.sim.emit(COMPONENT, "Event", { pod: podKey(e.pod), type: e.type, reason: e.reason, message: e.message });
  }

  private *createPod(st: State, nodeName: string): Proc<boolean> {
    const { set } = st;
    const key = `${set.namespace}/${set.name}`;
    const n = st.created++;
    const name = n === 0 ? set.firstName : generateName(`${set.name}-`, `${key}#${n}`);
    this.beforeCreate(`${set.namespace}/${set.firstName}`, `${set.namespace}/${name}`);
    const r = yield* this.client.createPod(pinnedTo(set.template, nodeName, name));
    if (r.err === null) return true;
    this.sim.emit(COMPONENT, "Event", { pod: `${set.namespace}/${name}`, type: "Warning", reason: "FailedCreate", message: `Error creating: ${r.err.message}` });
    return false;
  }
}
