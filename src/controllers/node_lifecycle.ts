// Models pkg/controller/nodelifecycle/node_lifecycle_controller.go with TaintBasedEvictions (the
// only mode since 1.27): monitorNodeHealth every nodeMonitorPeriod (5 s) decides each node's health
// from its Ready condition's heartbeat and its Lease's renewals (node_health.ts tryUpdateNodeHealth),
// turns its conditions Unknown past the grace period, marks its pods not Ready, and queues it for the
// NoExecute tainting pass (unreachable for Unknown, not-ready for False), rate limited per zone and
// stopped in a zone's disruption (handleDisruption); a node Ready again loses those taints. Node
// updates drive doNoScheduleTaintingPass (the NoSchedule condition taints the scheduler reads).
// Simplified: the tainting pass runs every 100 ms only while a node waits in its queue (upstream's
// wait.Until runs always); one try of tryUpdateNodeHealth per pass (upstream retries five times);
// the controllers run the first node's release (the control plane's version).
import { recv, sleep, type Chan, type Proc, type Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { podKey } from "../k8s/podutil.ts";
import type { ApiServer, PodsClient } from "../apiserver/index.ts";
import type { NodesClient } from "../apiserver/nodes_client.ts";
import { formatRFC3339 } from "../apiserver/time.ts";
import { NODE_READY, taintExists, type NodeObject } from "../k8s/node_api.ts";
import type { KubeletVersion } from "../kubelet/version.ts";
import type { ObjectInformer } from "./node_informer.ts";
import {
  NODE_EVICTION_PERIOD_MS, NODE_MONITOR_PERIOD_MS, NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE,
  computeZoneState, noExecuteTaintFor, noScheduleTaintDiff, nodeMonitorGracePeriodMs, nodeZone, tryUpdateNodeHealth, zoneEvictionQPS,
  type NodeHealth, type ZoneState,
} from "./node_health.ts";
import { swapNodeControllerTaint } from "./node_taints.ts";

const COMPONENT = "node-lifecycle-controller";

/** A zone's RateLimitedTimedQueue of nodes to taint, with its token bucket (burst 1). */
interface ZoneTainter {
  queue: string[];
  /** The UniqueQueue's set: a node stays in it after tainting, until it is reachable again. */
  marked: Set<string>;
  qps: number;
  nextTokenAtMs: number;
}

export class NodeLifecycleController {
  private readonly health = new Map<string, NodeHealth>();
  private readonly known = new Set<string>();
  private readonly tainters = new Map<string, ZoneTainter>();
  private readonly zoneStates = new Map<string, ZoneState>();
  private readonly nodesToRetry = new Set<string>();
  private readonly nodes: NodesClient;
  private readonly podsClient: PodsClient;
  private readonly graceMs: number;
  private readonly taintWake: Chan<null>;
  private readonly noScheduleQueue: string[] = [];
  private readonly noScheduleWake: Chan<null>;

  constructor(private readonly sim: Sim, api: ApiServer, private readonly nodeInformer: ObjectInformer<"nodes">,
    private readonly leaseInformer: ObjectInformer<"leases">, private readonly pods: () => Iterable<Pod>, version: KubeletVersion) {
    this.nodes = api.nodeClient(COMPONENT);
    this.podsClient = api.client(COMPONENT);
    this.graceMs = nodeMonitorGracePeriodMs(version);
    this.taintWake = sim.chan<null>(`${COMPONENT}/taintWake`, 1);
    this.noScheduleWake = sim.chan<null>(`${COMPONENT}/nodeUpdateQueue`, 1);
  }

  get nodeMonitorGracePeriodMs(): number {
    return this.graceMs;
  }

  start(): void {
    this.nodeInformer.onEvent((type, node) => {
      if (type === "DELETED" || this.noScheduleQueue.includes(node.metadata.name)) return;
      this.noScheduleQueue.push(node.metadata.name);
      this.noScheduleWake.trySend(null);
    });
    this.sim.go(`${COMPONENT}/monitorNodeHealth`, () => this.monitorLoop(), { daemon: true });
    this.sim.go(`${COMPONENT}/doNoExecuteTaintingPass`, () => this.taintingLoop(), { daemon: true });
    this.sim.go(`${COMPONENT}/doNodeProcessingPassWorker`, () => this.noScheduleLoop(), { daemon: true });
  }

  /** wait.UntilWithContext(monitorNodeHealth, nodeMonitorPeriod): bounded by the run. */
  private *monitorLoop(): Proc<void> {
    for (;;) {
      yield* this.monitorNodeHealth();
      yield* sleep(NODE_MONITOR_PERIOD_MS, "nodeMonitorPeriod");
    }
  }

  private *monitorNodeHealth(): Proc<void> {
    const nodes = this.nodeInformer.list();
    // classifyNodes' deleted: a known node no longer listed leaves the controller (kubectl delete node).
    const deleted: string[] = [];
    for (const name of this.known) if (this.nodeInformer.get(name) === undefined) deleted.push(name);
    for (const name of deleted.sort()) {
      this.known.delete(name);
      this.sim.emit(COMPONENT, "Event", { object: `node/${name}`, type: "Normal", reason: "RemovingNode", message: `Node ${name} event: Removing Node ${name} from Controller` });
    }
    for (const node of nodes) {
      if (this.known.has(node.metadata.name)) continue;
      this.known.add(node.metadata.name);
      this.sim.emit(COMPONENT, "Event", { object: `node/${node.metadata.name}`, type: "Normal", reason: "RegisteredNode", message: `Node ${node.metadata.name} event: Registered Node ${node.metadata.name} in Controller` });
      this.tainterOf(node);
      yield* this.markNodeAsReachable(node);
    }
    const zoneReady = new Map<string, (string | null)[]>();
    for (const node of nodes) {
      const name = node.metadata.name;
      const d = tryUpdateNodeHealth(node, this.health.get(name), this.leaseInformer.get(name), this.sim.nowMs, this.graceMs);
      let current = node;
      if (d.update !== null) {
        this.sim.emit(COMPONENT, "NodeHealthUnknown", { nodeName: name, sinceProbeMs: this.sim.nowMs - d.health.probeTimestampMs, gracePeriodMs: d.gracePeriodMs });
        const r = yield* this.nodes.updateNodeStatus({ ...node, status: d.update });
        if (r.err !== null) continue;
        current = r.value;
      }
      this.health.set(name, d.health);
      const zone = nodeZone(node);
      zoneReady.set(zone, [...(zoneReady.get(zone) ?? []), d.currentReady?.status ?? null]);
      if (d.currentReady === null) continue;
      yield* this.processTaintBaseEviction(current, d.observedReady.status);
      const becameNotReady = d.currentReady.status !== "True" && d.observedReady.status === "True";
      if (becameNotReady) this.sim.emit(COMPONENT, "Event", { object: `node/${name}`, type: "Normal", reason: "NodeNotReady", message: `Node ${name} status is now: NodeNotReady` });
      if (becameNotReady || (this.nodesToRetry.has(name) && d.currentReady.status !== "True")) {
        if (!(yield* this.markPodsNotReady(name))) {
          this.nodesToRetry.add(name);
          continue;
        }
      }
      this.nodesToRetry.delete(name);
    }
    yield* this.handleDisruption(zoneReady, nodes);
  }

  /** processTaintBaseEviction, on the Ready status observed before this pass's update. */
  private *processTaintBaseEviction(node: NodeObject, observed: string): Proc<void> {
    const want = noExecuteTaintFor(observed);
    if (want === null) {
      if (observed === "True") yield* this.markNodeAsReachable(node);
      return;
    }
    // A node tainted with the opposite taint has it swapped at once.
    if (taintExists(node.spec.taints, want.remove)) {
      yield* swapNodeControllerTaint(this.nodes, node.metadata.name, [want.add], [want.remove], () => this.sim.nowMs);
      return;
    }
    const t = this.tainterOf(node);
    if (t.marked.has(node.metadata.name)) return;
    t.marked.add(node.metadata.name);
    t.queue.push(node.metadata.name);
    this.sim.emit(COMPONENT, "NodeQueuedForTainting", { nodeName: node.metadata.name, ready: observed });
    this.taintWake.trySend(null);
  }

  /** markNodeAsReachable: off with the NoExecute taints, out of the tainting queue. */
  private *markNodeAsReachable(node: NodeObject): Proc<void> {
    const t = this.tainterOf(node);
    t.marked.delete(node.metadata.name);
    t.queue = t.queue.filter((n) => n !== node.metadata.name);
    const tainted = taintExists(node.spec.taints, UNREACHABLE_NO_EXECUTE) || taintExists(node.spec.taints, NOT_READY_NO_EXECUTE);
    if (tainted) yield* swapNodeControllerTaint(this.nodes, node.metadata.name, [], [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE], () => this.sim.nowMs);
  }

  private tainterOf(node: NodeObject): ZoneTainter {
    const zone = nodeZone(node);
    let t = this.tainters.get(zone);
    if (t === undefined) {
      t = { queue: [], marked: new Set(), qps: zoneEvictionQPS("Normal", 0), nextTokenAtMs: -Infinity };
      this.tainters.set(zone, t);
    }
    return t;
  }

  /** doNoExecuteTaintingPass every NodeEvictionPeriod while a node waits: each zone's queue, as its rate allows. */
  private *taintingLoop(): Proc<void> {
    for (;;) {
      if (![...this.tainters.values()].some((t) => t.queue.length > 0)) yield* recv(this.taintWake);
      yield* sleep(NODE_EVICTION_PERIOD_MS, "NodeEvictionPeriod");
      for (const t of this.tainters.values()) {
        while (t.queue.length > 0 && t.qps > 0 && this.sim.nowMs >= t.nextTokenAtMs) {
          t.nextTokenAtMs = Math.max(this.sim.nowMs, t.nextTokenAtMs) + 1000 / t.qps;
          const name = t.queue.shift()!;
          const node = this.nodeInformer.get(name);
          const ready = node?.status.conditions.find((c) => c.type === NODE_READY)?.status;
          const want = ready === undefined ? null : noExecuteTaintFor(ready);
          // The node is Ready again (or gone): no taint.
          if (want === null) continue;
          const ok = yield* swapNodeControllerTaint(this.nodes, name, [want.add], [want.remove], () => this.sim.nowMs);
          if (ok) this.sim.emit(COMPONENT, "NodeTainted", { nodeName: name, taint: `${want.add.key}:${want.add.effect}` });
          else t.queue.push(name);
        }
      }
    }
  }

  private *noScheduleLoop(): Proc<void> {
    for (;;) {
      if (this.noScheduleQueue.length === 0) yield* recv(this.noScheduleWake);
      const name = this.noScheduleQueue.shift();
      const node = name === undefined ? undefined : this.nodeInformer.get(name);
      if (node === undefined) continue;
      const { add, del } = noScheduleTaintDiff(node);
      if (add.length > 0 || del.length > 0) yield* swapNodeControllerTaint(this.nodes, name!, add, del, () => this.sim.nowMs);
    }
  }

  /** controllerutil.MarkPodsNotReady: every pod of the node gets Ready False; whether all updates landed. */
  private *markPodsNotReady(nodeName: string): Proc<boolean> {
    let ok = true;
    const mine = [...this.pods()].filter((p) => p.spec.nodeName === nodeName).sort((a, b) => (podKey(a) < podKey(b) ? -1 : 1));
    for (const pod of mine) {
      const status = pod.status ?? {};
      const conditions = status.conditions ?? [];
      if (!conditions.some((c) => c.type === "Ready" && c.status === "True")) continue;
      const now = formatRFC3339(this.sim.nowMs);
      const next = conditions.map((c) => (c.type === "Ready" ? { ...c, status: "False" as const, lastTransitionTime: now } : c));
      this.sim.emit(COMPONENT, "Event", { pod: podKey(pod), type: "Warning", reason: "NodeNotReady", message: "Node is not ready" });
      const r = yield* this.podsClient.patchPodStatus(pod.metadata.namespace ?? "default", pod.metadata.name, { ...status, conditions: next }, pod.metadata.uid, status);
      if (r.err !== null && r.err.reason !== "NotFound") ok = false;
    }
    return ok;
  }

  /**
   * handleDisruption: with every zone fully disrupted (the control plane is likely the one cut off),
   * tainting stops and the NoExecute taints come off; otherwise each zone's rate follows its state.
   */
  private *handleDisruption(zoneReady: ReadonlyMap<string, readonly (string | null)[]>, nodes: readonly NodeObject[]): Proc<void> {
    const states = new Map<string, ZoneState>();
    for (const [zone, ready] of zoneReady) states.set(zone, computeZoneState(ready).state);
    const allFull = states.size > 0 && [...states.values()].every((s) => s === "FullDisruption");
    const wasAllFull = this.zoneStates.size > 0 && [...this.zoneStates.values()].every((s) => s === "FullDisruption");
    if (allFull) {
      if (!wasAllFull) {
        this.sim.emit(COMPONENT, "EnteringMasterDisruptionMode", { nodes: nodes.length });
        for (const n of nodes) yield* this.markNodeAsReachable(n);
      }
      for (const t of this.tainters.values()) t.qps = 0;
    } else {
      if (wasAllFull) {
        this.sim.emit(COMPONENT, "ExitingMasterDisruptionMode", {});
        // Every node gets a fresh grace period: its silence was the control plane's.
        for (const h of this.health.values()) {
          h.probeTimestampMs = this.sim.nowMs;
          h.readyTransitionTimestampMs = this.sim.nowMs;
        }
      }
      for (const [zone, state] of states) {
        const t = this.tainters.get(zone);
        if (t !== undefined) t.qps = zoneEvictionQPS(state, zoneReady.get(zone)!.length);
      }
    }
    for (const [zone, state] of states) this.zoneStates.set(zone, state);
  }
}
