// Models pkg/kubelet/kubelet_node_status.go (registerWithAPIServer, syncNodeStatus,
// updateNodeStatus, tryUpdateNodeStatus, nodeStatusHasChanged) with the Ready condition setter of
// pkg/kubelet/nodestatus/setters.go (ReadyCondition): every nodeStatusUpdateFrequency (10 s,
// jittered by 0.04) the kubelet GETs its Node, sets its status, and PATCHes it when something but
// the heartbeat time changed or nodeStatusReportFrequency (5 min) has passed since the last report.
// Simplified: the status is the Ready condition and the capacity (no pressure conditions,
// addresses, images or volumes); Ready is False only while the runtime's health checks fail; no
// fastStatusUpdateOnce at start; registration does not reconcile an existing Node's labels.
import { sleep, type Proc, type Sim } from "../../sim/index.ts";
import type { NodesClient } from "../../apiserver/nodes_client.ts";
import { formatRFC3339 } from "../../apiserver/time.ts";
import { NODE_READY, type NodeCondition, type NodeObject } from "../../k8s/node_api.ts";
import type { KubeletSettings } from "../../node/settings.ts";
import { jitterUntil } from "./jitter.ts";
import { NODE_LEASE_DURATION_SECONDS } from "./nodelease.ts";

/** KubeletConfiguration defaults (v1beta1/defaults.go). */
export const NODE_STATUS_UPDATE_FREQUENCY_MS = 10_000;
export const NODE_STATUS_REPORT_FREQUENCY_MS = 5 * 60_000;
/**
 * cmd/kubelet/app/server.go: the heartbeat client (node status and Lease) times out after
 * nodeStatusUpdateFrequency, or the lease duration when that is shorter.
 */
export const HEARTBEAT_CLIENT_TIMEOUT_MS = Math.min(NODE_STATUS_UPDATE_FREQUENCY_MS, NODE_LEASE_DURATION_SECONDS * 1000);
/** nodeStatusUpdateRetry */
export const NODE_STATUS_UPDATE_RETRY = 5;
/** kubelet.go: go wait.JitterUntil(kl.syncNodeStatus, kl.nodeStatusUpdateFrequency, 0.04, true, wait.NeverStop) */
export const NODE_STATUS_JITTER = 0.04;
/** registerWithAPIServer's backoff: 100 ms, doubled, at most 7 s. */
export const REGISTER_INITIAL_STEP_MS = 100;
export const REGISTER_MAX_STEP_MS = 7_000;

/** initialNode: the Node the kubelet registers (labels, the registered taints, capacity), before any status. */
export function initialNode(settings: Pick<KubeletSettings, "node">, capacity: Readonly<Record<string, string>>): NodeObject {
  const n = settings.node;
  return {
    metadata: { name: n.name, labels: { ...n.labels } },
    spec: n.taints.length === 0 ? {} : { taints: n.taints.map((t) => ({ ...t })) },
    status: { capacity: { ...capacity }, conditions: [] },
  };
}

/** The Node's capacity as its status shows it (cpu, memory, pods). */
export function nodeCapacity(settings: Pick<KubeletSettings, "node">): Record<string, string> {
  const a = settings.node.allocatable;
  return { cpu: `${a.milliCPU}m`, memory: String(a.memory), pods: String(a.allowedPodNumber) };
}

/** setters.ReadyCondition: the new Ready condition, its transition time kept while the status holds. */
export function readyCondition(prev: NodeCondition | undefined, nowMs: number, runtimeError: string | null): NodeCondition {
  const now = formatRFC3339(nowMs);
  const ready = runtimeError === null;
  const status = ready ? "True" : "False";
  return {
    type: NODE_READY,
    status,
    lastHeartbeatTime: now,
    lastTransitionTime: prev !== undefined && prev.status === status ? prev.lastTransitionTime : now,
    reason: ready ? "KubeletReady" : "KubeletNotReady",
    message: ready ? "kubelet is posting ready status" : runtimeError,
  };
}

/** nodeStatusHasChanged: any difference but the conditions' lastHeartbeatTime. */
export function nodeStatusHasChanged(a: NodeObject["status"], b: NodeObject["status"]): boolean {
  const strip = (s: NodeObject["status"]) => JSON.stringify({ ...s, conditions: s.conditions.map((c) => ({ ...c, lastHeartbeatTime: "" })) });
  return strip(a) !== strip(b);
}

export class NodeStatusReporter {
  private registrationCompleted = false;
  /** lastStatusReportTime */
  private lastStatusReportMs = -Infinity;

  constructor(private readonly sim: Sim, private readonly client: NodesClient, private readonly settings: KubeletSettings,
    private readonly runtimeError: () => string | null) {}

  /** kubelet.Run: the status loop, a kubelet goroutine (it dies with the kubelet). */
  start(): void {
    const rng = this.sim.rng("kubelet/node-status");
    this.sim.go("kubelet/syncNodeStatus", () => jitterUntil(() => this.syncNodeStatus(), NODE_STATUS_UPDATE_FREQUENCY_MS, NODE_STATUS_JITTER, rng, "nodeStatusUpdateFrequency"),
      { group: "kubelet", daemon: true });
  }

  *syncNodeStatus(): Proc<void> {
    if (!this.registrationCompleted) yield* this.registerWithAPIServer();
    yield* this.updateNodeStatus();
  }

  /** registerWithAPIServer: until it lands, sleep then try, the step doubling to 7 s (bounded by the partition). */
  private *registerWithAPIServer(): Proc<void> {
    let stepMs = REGISTER_INITIAL_STEP_MS;
    for (;;) {
      yield* sleep(stepMs, "registerWithAPIServer backoff");
      stepMs = Math.min(stepMs * 2, REGISTER_MAX_STEP_MS);
      const r = yield* this.client.createNode(initialNode(this.settings, nodeCapacity(this.settings)));
      // tryRegisterWithAPIServer: an existing Node of this name is this kubelet's (reconciled upstream).
      if (r.err === null || r.err.reason === "AlreadyExists") {
        this.sim.emit("kubelet", "NodeRegistered", { existed: r.err !== null });
        this.registrationCompleted = true;
        return;
      }
    }
  }

  /** updateNodeStatus: tryUpdateNodeStatus up to nodeStatusUpdateRetry times. */
  private *updateNodeStatus(): Proc<void> {
    for (let i = 0; i < NODE_STATUS_UPDATE_RETRY; i++) {
      const err = yield* this.tryUpdateNodeStatus();
      if (err === null) return;
    }
    this.sim.emit("kubelet", "NodeStatusUpdateFailed", { err: "update node status exceeds retry count" });
  }

  private *tryUpdateNodeStatus(): Proc<string | null> {
    const got = yield* this.client.getNode(this.settings.nodeName);
    if (got.err !== null) return got.err.message;
    const original = got.value;
    const prev = original.status.conditions.find((c) => c.type === NODE_READY);
    const ready = readyCondition(prev, this.sim.nowMs, this.runtimeError());
    const status = { capacity: nodeCapacity(this.settings), conditions: [...original.status.conditions.filter((c) => c.type !== NODE_READY), ready] };
    const changed = nodeStatusHasChanged(original.status, status);
    if (!changed && this.sim.nowMs - this.lastStatusReportMs < NODE_STATUS_REPORT_FREQUENCY_MS) return null;
    if (prev?.status !== ready.status) this.sim.emit("kubelet", "Event", { object: `node/${this.settings.nodeName}`, type: "Normal", reason: ready.status === "True" ? "NodeReady" : "NodeNotReady", message: `Node ${this.settings.nodeName} status is now: ${ready.status === "True" ? "NodeReady" : "NodeNotReady"}` });
    const r = yield* this.client.patchNodeStatus(this.settings.nodeName, status);
    if (r.err !== null) return r.err.message;
    this.lastStatusReportMs = this.sim.nowMs;
    return null;
  }
}
