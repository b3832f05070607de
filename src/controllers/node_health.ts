// The node lifecycle controller's decisions as plain functions (pkg/controller/nodelifecycle/
// node_lifecycle_controller.go: tryUpdateNodeHealth, processTaintBaseEviction's choice of taint,
// doNoScheduleTaintingPass's taints, ComputeZoneState), for node_lifecycle.ts and its tests.
import { formatRFC3339, parseRFC3339 } from "../apiserver/time.ts";
import {
  NODE_READY, TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE, TAINT_NODE_UNSCHEDULABLE, parseMicroTime,
  type Lease, type NodeCondition, type NodeObject, type NodeTaint,
} from "../k8s/node_api.ts";
import { atLeast, type KubeletVersion } from "../kubelet/version.ts";


/** --node-monitor-period */
export const NODE_MONITOR_PERIOD_MS = 5_000;
/** --node-startup-grace-period */
export const NODE_STARTUP_GRACE_PERIOD_MS = 60_000;
/** --node-monitor-grace-period: 40 s, 50 s since 1.32 (kubernetes/kubernetes#126287). */
export const NODE_MONITOR_GRACE_PERIOD_MS = 40_000;
export const NODE_MONITOR_GRACE_PERIOD_1_32_MS = 50_000;
export const NODE_MONITOR_GRACE_PERIOD_RAISED = "1.32.0";
/** --large-cluster-size-threshold, --unhealthy-zone-threshold, --node-eviction-rate, --secondary-node-eviction-rate */
export const LARGE_CLUSTER_THRESHOLD = 50;
export const UNHEALTHY_ZONE_THRESHOLD = 0.55;
export const EVICTION_LIMITER_QPS = 0.1;
export const SECONDARY_EVICTION_LIMITER_QPS = 0.01;
/** scheduler.NodeEvictionPeriod: how often the NoExecute tainting pass runs. */
export const NODE_EVICTION_PERIOD_MS = 100;

export function nodeMonitorGracePeriodMs(v: KubeletVersion): number {
  return atLeast(v, NODE_MONITOR_GRACE_PERIOD_RAISED) ? NODE_MONITOR_GRACE_PERIOD_1_32_MS : NODE_MONITOR_GRACE_PERIOD_MS;
}

/** UnreachableTaintTemplate, NotReadyTaintTemplate (NoExecute) and their NoSchedule twins (nodeConditionToTaintKeyStatusMap). */
export const UNREACHABLE_NO_EXECUTE: NodeTaint = { key: TAINT_NODE_UNREACHABLE, effect: "NoExecute" };
export const NOT_READY_NO_EXECUTE: NodeTaint = { key: TAINT_NODE_NOT_READY, effect: "NoExecute" };

/** nodeHealthData */
export interface NodeHealth {
  probeTimestampMs: number;
  readyTransitionTimestampMs: number;
  status: NodeObject["status"];
  lease: Lease | null;
}

export interface HealthDecision {
  health: NodeHealth;
  observedReady: NodeCondition;
  /** The Ready condition after the decision (null: the node never had one and none was made). */
  currentReady: NodeCondition | null;
  /** The status to write with UpdateStatus (conditions set to Unknown), or null. */
  update: NodeObject["status"] | null;
  gracePeriodMs: number;
}

const UNKNOWN_TYPES = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];

/**
 * tryUpdateNodeHealth: the probe time moves when the Ready condition's heartbeat or the Lease's
 * renewTime moved since last seen; past the grace period every condition turns Unknown.
 */
export function tryUpdateNodeHealth(node: NodeObject, saved: NodeHealth | undefined, lease: Lease | undefined, nowMs: number, monitorGraceMs: number): HealthDecision {
  const created = parseRFC3339(node.metadata.creationTimestamp ?? formatRFC3339(0));
  const current = node.status.conditions.find((c) => c.type === NODE_READY);
  let health = saved;
  let observedReady: NodeCondition;
  let gracePeriodMs: number;
  if (current === undefined) {
    const ts = node.metadata.creationTimestamp ?? formatRFC3339(0);
    observedReady = { type: NODE_READY, status: "Unknown", lastHeartbeatTime: ts, lastTransitionTime: ts, reason: "", message: "" };
    gracePeriodMs = NODE_STARTUP_GRACE_PERIOD_MS;
    health = health === undefined ? { status: node.status, probeTimestampMs: created, readyTransitionTimestampMs: created, lease: null } : { ...health, status: node.status };
  } else {
    observedReady = current;
    gracePeriodMs = monitorGraceMs;
  }
  const savedCond = health?.status.conditions.find((c) => c.type === NODE_READY);
  if (health === undefined) {
    health = { status: node.status, probeTimestampMs: nowMs, readyTransitionTimestampMs: nowMs, lease: null };
  } else if (savedCond === undefined && current !== undefined) {
    health = { ...health, status: node.status, probeTimestampMs: nowMs, readyTransitionTimestampMs: nowMs };
  } else if (savedCond !== undefined && current === undefined) {
    health = { ...health, status: node.status, readyTransitionTimestampMs: nowMs };
  } else if (savedCond !== undefined && current !== undefined && savedCond.lastHeartbeatTime !== current.lastHeartbeatTime) {
    const transition = savedCond.lastTransitionTime !== current.lastTransitionTime ? nowMs : health.readyTransitionTimestampMs;
    health = { ...health, status: node.status, probeTimestampMs: nowMs, readyTransitionTimestampMs: transition };
  }
  // Always update the probe time if the node lease is renewed.
  if (lease !== undefined && (health.lease === null || parseMicroTime(health.lease.spec.renewTime) < parseMicroTime(lease.spec.renewTime))) {
    health = { ...health, lease, probeTimestampMs: nowMs };
  }
  let currentReady: NodeCondition | null = current ?? null;
  let update: NodeObject["status"] | null = null;
  if (nowMs > health.probeTimestampMs + gracePeriodMs) {
    const now = formatRFC3339(nowMs);
    const conditions = node.status.conditions.map((c) => ({ ...c }));
    for (const type of UNKNOWN_TYPES) {
      const c = conditions.find((x) => x.type === type);
      if (c === undefined) {
        conditions.push({ type, status: "Unknown", reason: "NodeStatusNeverUpdated", message: "Kubelet never posted node status.", lastHeartbeatTime: node.metadata.creationTimestamp ?? formatRFC3339(0), lastTransitionTime: now });
      } else if (c.status !== "Unknown") {
        Object.assign(c, { status: "Unknown", reason: "NodeStatusUnknown", message: "Kubelet stopped posting node status.", lastTransitionTime: now });
      }
    }
    currentReady = conditions.find((c) => c.type === NODE_READY)!;
    if (JSON.stringify(currentReady) !== JSON.stringify(observedReady)) {
      update = { ...node.status, conditions };
      health = { status: update, probeTimestampMs: health.probeTimestampMs, readyTransitionTimestampMs: nowMs, lease: lease ?? null };
    }
  }
  return { health, observedReady, currentReady, update, gracePeriodMs };
}

/** processTaintBaseEviction's choice: the NoExecute taint a node with this observed Ready status should carry (null: none). */
export function noExecuteTaintFor(readyStatus: string): { add: NodeTaint; remove: NodeTaint } | null {
  if (readyStatus === "False") return { add: NOT_READY_NO_EXECUTE, remove: UNREACHABLE_NO_EXECUTE };
  if (readyStatus === "Unknown") return { add: UNREACHABLE_NO_EXECUTE, remove: NOT_READY_NO_EXECUTE };
  return null;
}

/** nodeConditionToTaintKeyStatusMap: the NoSchedule taint each condition status maps to. */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NODE_NOT_READY, Unknown: TAINT_NODE_UNREACHABLE },
  MemoryPressure: { True: "node.kubernetes.io/memory-pressure" },
  DiskPressure: { True: "node.kubernetes.io/disk-pressure" },
  NetworkUnavailable: { True: "node.kubernetes.io/network-unavailable" },
  PIDPressure: { True: "node.kubernetes.io/pid-pressure" },
};
const CONDITION_TAINT_KEYS = new Set(Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)));

/**
 * doNoScheduleTaintingPass: the NoSchedule taints to add and to delete so that the node's
 * condition taints (and the unschedulable one) follow its conditions and spec.unschedulable.
 */
export function noScheduleTaintDiff(node: NodeObject): { add: NodeTaint[]; del: NodeTaint[] } {
  const want: NodeTaint[] = [];
  for (const c of node.status.conditions) {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    if (key !== undefined) want.push({ key, effect: "NoSchedule" });
  }
  if (node.spec.unschedulable === true) want.push({ key: TAINT_NODE_UNSCHEDULABLE, effect: "NoSchedule" });
  const have = (node.spec.taints ?? []).filter((t) => t.effect === "NoSchedule" && (t.key === TAINT_NODE_UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key)));
  const same = (a: NodeTaint, b: NodeTaint) => a.key === b.key && a.effect === b.effect;
  return { add: want.filter((w) => !have.some((h) => same(h, w))), del: have.filter((h) => !want.some((w) => same(h, w))) };
}

/** The taints after swapping in `add` and out `remove` (controllerutil.SwapNodeControllerTaint), timeAdded now. */
export function swapTaints(taints: readonly NodeTaint[] | undefined, add: readonly NodeTaint[], remove: readonly NodeTaint[], nowMs: number): NodeTaint[] {
  const gone = (t: NodeTaint) => remove.some((r) => r.key === t.key && r.effect === t.effect);
  const out = (taints ?? []).filter((t) => !gone(t));
  for (const a of add) if (!out.some((t) => t.key === a.key && t.effect === a.effect)) out.push({ ...a, timeAdded: formatRFC3339(nowMs) });
  return out;
}

export type ZoneState = "Normal" | "PartialDisruption" | "FullDisruption";

/** ComputeZoneState: how many nodes of the zone are not Ready, and the zone's state. */
export function computeZoneState(readyStatuses: readonly (string | null)[], unhealthyZoneThreshold = UNHEALTHY_ZONE_THRESHOLD): { notReady: number; state: ZoneState } {
  let ready = 0;
  let notReady = 0;
  for (const s of readyStatuses) if (s === "True") ready++; else notReady++;
  if (ready === 0 && notReady > 0) return { notReady, state: "FullDisruption" };
  if (notReady > 2 && notReady / (notReady + ready) >= unhealthyZoneThreshold) return { notReady, state: "PartialDisruption" };
  return { notReady, state: "Normal" };
}

/** setLimiterInZone: the tainting rate of a zone in this state (ReducedQPSFunc for a partial disruption). */
export function zoneEvictionQPS(state: ZoneState, zoneSize: number): number {
  if (state === "PartialDisruption") return zoneSize <= LARGE_CLUSTER_THRESHOLD ? 0 : SECONDARY_EVICTION_LIMITER_QPS;
  return EVICTION_LIMITER_QPS;
}

/** nodeTopologyKey: the zone of a node, region and zone labels joined. */
export function nodeZone(node: NodeObject): string {
  const l = node.metadata.labels;
  const region = l["topology.kubernetes.io/region"] ?? l["failure-domain.beta.kubernetes.io/region"] ?? "";
  const zone = l["topology.kubernetes.io/zone"] ?? l["failure-domain.beta.kubernetes.io/zone"] ?? "";
  return region === "" && zone === "" ? "" : `${region}:\x00:${zone}`;
}
