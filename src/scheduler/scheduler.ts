// A stand-in for kube-scheduler (pkg/scheduler/scheduler.go, schedule_one.go, internal/queue and
// internal/cache), in small: one goroutine watches every pod, keeps the nodes' pods (the cache,
// with assumed pods), queues the pods that name no node by priority then arrival (PrioritySort),
// and runs scheduleOne on each: the filters, the LeastAllocated score, selectHost. The chosen node
// is assumed at once and bound by its own goroutine (the binding cycle), as upstream's
// `go func() { bindingCycle }`. A pod that fits nowhere gets a FailedScheduling event and its
// PodScheduled=False condition, and waits in the unschedulable pods until a bound pod goes away
// (AssignedPodDelete moves them all back) or for podMaxInUnschedulablePodsDuration (5 min,
// checked every 30 s). Ties between the best nodes are a recorded choice (selectHost's rand.Intn).
// The nodes are the apiserver's Node objects (a Node informer): their taints, including the
// not-ready and unreachable ones the node lifecycle controller adds, and spec.unschedulable
// (NodeUnschedulable) filter; a Node update moves every unschedulable pod back to the queue.
// Simplified: no backoff queue (a failed bind is retried after the initial backoff, 1 s); no preemption.
import { recvCase, select, send, sleep, type Chan, type Proc, type Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { podKey } from "../k8s/podutil.ts";
import { formatRFC3339 } from "../apiserver/time.ts";
import type { PodsClient, WatchEvent } from "../apiserver/index.ts";
import type { SimCluster } from "../node/cluster.ts";
import { bestNodes, findNodesThatFit, fitErrorMessage, leastAllocatedScore, nonZeroRequests, preFilter, type NodeInfo } from "./framework.ts";
import { ObjectInformer } from "../controllers/node_informer.ts";
import { controlPlaneSidecars } from "../controllers/manager.ts";
import type { NodeObject } from "../k8s/node_api.ts";
import type { Node } from "../k8s/node.ts";
import type { ResourceOptions } from "../k8s/scheduling/node_resources.ts";

const COMPONENT = "scheduler";
const DEFAULT_SCHEDULER_NAME = "default-scheduler";
/** podMaxInUnschedulablePodsDuration and the flush period of unschedulable pods (scheduling_queue.go). */
export const POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS = 5 * 60_000;
export const UNSCHEDULABLE_FLUSH_PERIOD_MS = 30_000;
/** DefaultPodInitialBackoffDuration: a pod whose binding failed is tried again after it. */
export const POD_INITIAL_BACKOFF_MS = 1_000;

interface Queued {
  pod: Pod;
  /** When it entered the queue (PrioritySort's tie-break). */
  sinceMs: number;
}

/** Starts the scheduler stand-in of a cluster (simulate.ts, when the scenario has `nodes:`). */
export function startClusterScheduler(sim: Sim, cluster: SimCluster): Scheduler {
  const s = new Scheduler(sim, cluster);
  sim.go("scheduler/scheduleOne", () => s.run(), { daemon: true });
  return s;
}

/**
 * One node in the cache: its pods by key, and the NodeInfo the snapshot hands the filters, built
 * again only after the node's pods changed (upstream's cache updates a NodeInfo as pods come and
 * go, and the snapshot copies only the nodes whose generation moved). The non-zero requests are
 * summed as pods come and go (NodeInfo.AddPod and RemovePod update NonZeroRequested), not summed
 * again over the node's pods at each rebuild.
 */
interface CachedNode extends NodeRequests {
  info: NodeInfo | null;
  /** The Node object `info` was built from (undefined: none seen yet, the scenario's node). */
  nodeObj?: NodeObject | undefined;
}

export class Scheduler {
  private readonly client: PodsClient;
  /** Each node's pods (the cache), in the scenario's node order. */
  private readonly nodePods: Map<string, CachedNode>;
  /** The node each cached pod is on. */
  private readonly podNode = new Map<string, string>();
  private readonly nodeList: readonly string[];
  private readonly active = new Map<string, Queued>();
  private readonly unschedulable = new Map<string, Queued>();
  /** Pods assumed on a node while their binding is in flight. */
  private readonly assumed = new Set<string>();
  private nextStartNodeIndex = 0;
  private readonly retries: Chan<Pod>;
  private readonly nodeInformer: ObjectInformer<"nodes">;
  private readonly nodeUpdates: Chan<null>;
  /** The control plane's SidecarContainers gate: restartable init containers' requests count as the pod's. */
  private readonly sidecars: boolean;
  /** Nodes whose Node object was deleted: no longer in the scheduler's cache. */
  private readonly removed = new Set<string>();

  constructor(private readonly sim: Sim, private readonly cluster: SimCluster) {
    this.client = cluster.api.client(COMPONENT);
    this.sidecars = controlPlaneSidecars(cluster.scenario);
    this.nodeList = cluster.nodes.map((n) => n.settings.nodeName);
    this.nodePods = new Map(this.nodeList.map((n) => [n, { pods: new Map(), milliCPU: 0, memory: 0, info: null }]));
    this.retries = sim.chan<Pod>("scheduler/retries", 1024);
    this.nodeInformer = new ObjectInformer(cluster.api, "nodes");
    this.nodeUpdates = sim.chan<null>("scheduler/nodeUpdates", 1);
    // NodeAdd / NodeUpdate (taints, conditions, unschedulable): the unschedulable pods may fit now.
    // NodeDelete takes the node out of the cache (kubectl delete node); a Node registered again brings it back.
    this.nodeInformer.onEvent((type, node) => {
      if (type === "DELETED") this.removed.add(node.metadata.name);
      else this.removed.delete(node.metadata.name);
      this.nodeUpdates.trySend(null);
    });
  }

  *run(): Proc<void> {
    // Bounded by the run: a closed watch is re-opened after the reflector's backoff.
    for (;;) {
      const w = yield* this.client.watchPods({});
      if (w.err !== null) {
        this.sim.emit(COMPONENT, "WatchFailed", { err: w.err.message });
        yield* sleep(POD_INITIAL_BACKOFF_MS, "scheduler watch backoff");
        continue;
      }
      this.resetCache();
      yield* this.loop(w.value.resultChan);
      yield* sleep(POD_INITIAL_BACKOFF_MS, "scheduler watch backoff");
    }
  }

  private *loop(events: Chan<WatchEvent>): Proc<void> {
    for (;;) {
      const flush = this.unschedulable.size === 0 ? null : this.sim.after("scheduler/flushUnschedulable", UNSCHEDULABLE_FLUSH_PERIOD_MS);
      const r = yield* select([recvCase(events), recvCase(this.retries), recvCase(flush), recvCase(this.nodeUpdates)]);
      if (r.index === 0) {
        if (!r.ok) return;
        this.observe(r.value as WatchEvent);
      } else if (r.index === 1) {
        const pod = r.value as Pod;
        this.assumed.delete(podKey(pod));
        this.forget(pod);
        this.enqueue(pod);
      } else if (r.index === 2) {
        this.flushUnschedulableLeftover();
      } else {
        this.moveAllToActive();
      }
      this.scheduleAll();
    }
  }

  private resetCache(): void {
    for (const n of this.nodePods.values()) {
      n.pods.clear();
      n.milliCPU = 0;
      n.memory = 0;
      n.info = null;
    }
    this.podNode.clear();
    this.active.clear();
    this.unschedulable.clear();
  }

  /** The informer's handlers: the cache for bound pods, the queue for pods to place. */
  private observe(e: WatchEvent): void {
    const pod = e.object;
    if (pod === null) return;
    const key = podKey(pod);
    const gone = e.type === "DELETED" || pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
    const bound = (pod.spec.nodeName ?? "") !== "";
    if (bound || gone) {
      this.active.delete(key);
      this.unschedulable.delete(key);
    }
    if (bound) {
      this.assumed.delete(key);
      const wasThere = this.forget(pod);
      if (!gone) this.cache(pod.spec.nodeName!, key, pod);
      // AssignedPodDelete: room may have been freed; every unschedulable pod is tried again.
      else if (wasThere) this.moveAllToActive();
      return;
    }
    if (gone || this.assumed.has(key) || pod.metadata.deletionTimestamp) return;
    if ((pod.spec.schedulerName ?? DEFAULT_SCHEDULER_NAME) !== DEFAULT_SCHEDULER_NAME) return;
    const queued = this.active.get(key) ?? this.unschedulable.get(key);
    if (queued !== undefined) queued.pod = pod;
    else this.enqueue(pod);
  }

  private enqueue(pod: Pod): void {
    this.active.set(podKey(pod), { pod, sinceMs: this.sim.nowMs });
  }

  /** Puts the pod on the node in the cache (a node the scenario does not have is ignored). */
  private cache(nodeName: string, key: string, pod: Pod): void {
    const n = this.nodePods.get(nodeName);
    if (n === undefined) return;
    addRequests(n, key, pod, { sidecars: this.sidecars });
    n.info = null;
    this.podNode.set(key, nodeName);
  }

  /** Removes the pod from whichever node holds it in the cache; whether one did. */
  private forget(pod: Pod): boolean {
    const key = podKey(pod);
    const nodeName = this.podNode.get(key);
    if (nodeName === undefined) return false;
    this.podNode.delete(key);
    const n = this.nodePods.get(nodeName)!;
    n.info = null;
    return removeRequests(n, key, { sidecars: this.sidecars });
  }

  private moveAllToActive(): void {
    for (const [key, q] of this.unschedulable) this.active.set(key, q);
    this.unschedulable.clear();
  }

  private flushUnschedulableLeftover(): void {
    for (const [key, q] of this.unschedulable) {
      if (this.sim.nowMs - q.sinceMs < POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS) continue;
      this.unschedulable.delete(key);
      this.active.set(key, q);
    }
  }

  /** Pops the queue until it is empty: highest priority first, then the longest waiting, then by key. */
  private scheduleAll(): void {
    while (this.active.size > 0) {
      let next: [string, Queued] | null = null;
      for (const e of this.active) if (next === null || before(e, next)) next = e;
      this.active.delete(next![0]);
      this.scheduleOne(next![1]);
    }
  }

  /** The nodes as the Node informer shows them (a node without its object yet: as the scenario declares it). */
  private snapshot(): NodeInfo[] {
    const nodes = this.removed.size === 0 ? this.cluster.nodes : this.cluster.nodes.filter((n) => !this.removed.has(n.settings.nodeName));
    return nodes.map((n) => {
      const c = this.nodePods.get(n.settings.nodeName)!;
      const obj = this.nodeInformer.get(n.settings.nodeName);
      // Rebuilt when the node's pods change (cache/forget clear it) or its Node object does.
      if (c.info === null || c.nodeObj !== obj) {
        const pods = [...c.pods.values()];
        c.info = { node: asSchedulerNode(n.settings.node, obj), pods, nonZeroRequested: { milliCPU: c.milliCPU, memory: c.memory }, ...(obj?.spec.unschedulable === true ? { unschedulable: true } : {}) };
        c.nodeObj = obj;
      }
      return c.info;
    });
  }

  private scheduleOne(q: Queued): void {
    const pod = q.pod;
    const key = podKey(pod);
    const nodes = this.snapshot();
    const opts = { sidecars: this.sidecars };
    // The PreFilter and PreScore plugins' state: the pod's side, computed once, read at each node.
    const state = preFilter(pod, opts);
    const fit = findNodesThatFit(pod, nodes, this.nextStartNodeIndex, opts, state);
    this.nextStartNodeIndex = fit.nextStartNodeIndex;
    if (fit.feasible.length === 0) {
      const message = fitErrorMessage(nodes.length, fit.reasons);
      this.unschedulable.set(key, { pod, sinceMs: this.sim.nowMs });
      this.sim.emit(COMPONENT, "Event", { pod: key, type: "Warning", reason: "FailedScheduling", message });
      this.sim.go(`scheduler/unschedulable/${key}`, () => this.markUnschedulable(pod, message), { daemon: true });
      return;
    }
    const scored = fit.feasible.length === 1 ? [{ info: fit.feasible[0]!, score: 0 }] : fit.feasible.map((info) => ({ info, score: leastAllocatedScore(pod, info, opts, state.nonZero) }));
    const best = bestNodes(scored);
    // selectHost: reservoir sampling among the best, one draw: here a recorded choice.
    const chosen = best[this.sim.choose(best.length)]!;
    const nodeName = chosen.node.name;
    this.sim.emit(COMPONENT, "ScheduleAttempted", {
      pod: key, node: nodeName, feasible: fit.feasible.length, tied: best.length, score: scored.find((s) => s.info === chosen)!.score,
    });
    // assume: the cache counts the pod on the node before the binding lands.
    this.assumed.add(key);
    this.cache(nodeName, key, { ...pod, spec: { ...pod.spec, nodeName } });
    this.sim.go(`scheduler/bind/${key}`, () => this.bindingCycle(pod, nodeName), { daemon: true });
  }

  private *bindingCycle(pod: Pod, nodeName: string): Proc<void> {
    const key = podKey(pod);
    const r = yield* this.client.bindPod(pod.metadata.namespace ?? "default", pod.metadata.name, nodeName, pod.metadata.uid);
    if (r.err === null) {
      this.sim.emit(COMPONENT, "Event", { pod: key, type: "Normal", reason: "Scheduled", message: `Successfully assigned ${key} to ${nodeName}` });
      return;
    }
    this.sim.emit(COMPONENT, "BindFailed", { pod: key, node: nodeName, err: r.err.message });
    // handleBindingCycleError: forget the assumed pod; try again unless it is gone or bound elsewhere.
    if (r.err.code === 404) {
      this.assumed.delete(key);
      this.forget(pod);
      return;
    }
    yield* sleep(POD_INITIAL_BACKOFF_MS, "scheduler binding backoff");
    const now = yield* this.client.getPod(pod.metadata.namespace ?? "default", pod.metadata.name);
    if (now.err !== null || (now.value.spec.nodeName ?? "") !== "" || now.value.metadata.uid !== pod.metadata.uid) {
      this.assumed.delete(key);
      this.forget(pod);
      return;
    }
    yield* send(this.retries, now.value);
  }

  /** handleSchedulingFailure's status update: PodScheduled False, reason Unschedulable. */
  private *markUnschedulable(pod: Pod, message: string): Proc<void> {
    const status = pod.status ?? {};
    const conditions = (status.conditions ?? []).filter((c) => c.type !== "PodScheduled");
    const condition = { type: "PodScheduled", status: "False" as const, lastProbeTime: null, lastTransitionTime: formatRFC3339(this.sim.nowMs), reason: "Unschedulable", message };
    yield* this.client.patchPodStatus(pod.metadata.namespace ?? "default", pod.metadata.name, { ...status, conditions: [...conditions, condition] }, pod.metadata.uid, status);
  }
}

/** A node's pods as the cache keeps them, by key, and the sums of their non-zero requests. */
export interface NodeRequests {
  readonly pods: Map<string, Pod>;
  /** NodeInfo.NonZeroRequested: the sums over `pods`. */
  milliCPU: number;
  memory: number;
}

/** Puts a pod on its node and adds its non-zero requests to the sums (NodeInfo.AddPod), replacing what it had under its key. */
export function addRequests(n: NodeRequests, key: string, pod: Pod, opts: ResourceOptions): void {
  removeRequests(n, key, opts);
  const r = nonZeroRequests(pod, opts);
  n.pods.set(key, pod);
  n.milliCPU += r.milliCPU;
  n.memory += r.memory;
}

/** Takes a pod off its node and its non-zero requests off the sums (NodeInfo.RemovePod); whether it was there. */
export function removeRequests(n: NodeRequests, key: string, opts: ResourceOptions): boolean {
  const old = n.pods.get(key);
  if (old === undefined) return false;
  const r = nonZeroRequests(old, opts);
  n.pods.delete(key);
  n.milliCPU -= r.milliCPU;
  n.memory -= r.memory;
  return true;
}

/** PrioritySort's Less: higher priority first, then earlier in the queue; the key breaks what is left. */
function before(a: [string, Queued], b: [string, Queued]): boolean {
  const pa = a[1].pod.spec.priority ?? 0;
  const pb = b[1].pod.spec.priority ?? 0;
  if (pa !== pb) return pa > pb;
  if (a[1].sinceMs !== b[1].sinceMs) return a[1].sinceMs < b[1].sinceMs;
  return a[0] < b[0];
}

/**
 * The Node the filters read: the object's labels and taints over the declared node (its
 * spec.unschedulable is NodeInfo's, which the NodeUnschedulable filter reads).
 */
export function asSchedulerNode(declared: Node, obj: NodeObject | undefined): Node {
  if (obj === undefined) return declared;
  const taints = (obj.spec.taints ?? []).map((t) => ({ key: t.key, ...(t.value === undefined ? {} : { value: t.value }), effect: t.effect }));
  return { ...declared, labels: obj.metadata.labels, taints };
}
