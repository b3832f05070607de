// The node lifecycle controller's decisions (controllers/node_health.ts), table-driven.
import { describe, expect, it } from "vitest";
import {
  NODE_MONITOR_GRACE_PERIOD_1_32_MS, NODE_MONITOR_GRACE_PERIOD_MS, NODE_STARTUP_GRACE_PERIOD_MS, computeZoneState,
  noExecuteTaintFor, noScheduleTaintDiff, nodeMonitorGracePeriodMs, swapTaints, tryUpdateNodeHealth, zoneEvictionQPS,
} from "../../src/controllers/node_health.ts";
import { formatRFC3339, formatRFC3339Nano } from "../../src/apiserver/time.ts";
import type { Lease, NodeObject } from "../../src/k8s/node_api.ts";

function node(ready: "True" | "False" | "Unknown" | null, heartbeatMs = 0, extra: Partial<NodeObject["spec"]> = {}): NodeObject {
  const t = formatRFC3339(heartbeatMs);
  return {
    metadata: { name: "n", creationTimestamp: formatRFC3339(0), labels: {} },
    spec: extra,
    status: { capacity: {}, conditions: ready === null ? [] : [{ type: "Ready", status: ready, lastHeartbeatTime: t, lastTransitionTime: formatRFC3339(0), reason: "", message: "" }] },
  };
}

function lease(renewMs: number): Lease {
  return { metadata: { name: "n", namespace: "kube-node-lease" }, spec: { holderIdentity: "n", leaseDurationSeconds: 40, renewTime: formatRFC3339Nano(renewMs) } };
}

describe("nodeMonitorGracePeriodMs", () => {
  it.each([
    ["1.29", NODE_MONITOR_GRACE_PERIOD_MS], ["1.31.9", NODE_MONITOR_GRACE_PERIOD_MS], ["1.32", NODE_MONITOR_GRACE_PERIOD_1_32_MS], ["1.33.1", NODE_MONITOR_GRACE_PERIOD_1_32_MS],
  ])("%s: %i ms", (v, want) => {
    expect(nodeMonitorGracePeriodMs({ minor: Number(v.split(".")[1]), patch: Number(v.split(".")[2] ?? 0) })).toBe(want);
  });
});

describe("tryUpdateNodeHealth: the Ready condition from the Lease's age", () => {
  const grace = NODE_MONITOR_GRACE_PERIOD_MS;
  // Seen once at 0 with the lease renewed at 0: the probe time is 0.
  const first = tryUpdateNodeHealth(node("True"), undefined, lease(0), 0, grace);
  it.each([
    ["a renewal within the grace period keeps it Ready", 30_000, 25_000, "True", false],
    ["no renewal, just at the grace period: still Ready", grace, 0, "True", false],
    ["no renewal, past the grace period: Unknown", grace + 5_000, 0, "Unknown", true],
    ["a renewal 10 s before: Ready though the status is old", 100_000, 90_000, "True", false],
  ])("%s", (_what, nowMs, renewMs, want, updated) => {
    const d = tryUpdateNodeHealth(node("True"), first.health, lease(renewMs), nowMs, grace);
    expect(d.currentReady?.status).toBe(want);
    expect(d.update !== null).toBe(updated);
    if (d.update !== null) {
      const r = d.update.conditions.find((c) => c.type === "Ready")!;
      expect([r.reason, r.message]).toEqual(["NodeStatusUnknown", "Kubelet stopped posting node status."]);
      // The pressure conditions the kubelet never posted are added as Unknown.
      expect(d.update.conditions.filter((c) => c.reason === "NodeStatusNeverUpdated").map((c) => c.type)).toEqual(["MemoryPressure", "DiskPressure", "PIDPressure"]);
    }
  });

  it("a node that never posted status gets the startup grace period", () => {
    const d = tryUpdateNodeHealth(node(null), undefined, undefined, NODE_STARTUP_GRACE_PERIOD_MS - 1, grace);
    expect(d.gracePeriodMs).toBe(NODE_STARTUP_GRACE_PERIOD_MS);
    expect(d.update).toBeNull();
    const late = tryUpdateNodeHealth(node(null), undefined, undefined, NODE_STARTUP_GRACE_PERIOD_MS + 1, grace);
    expect(late.currentReady?.status).toBe("Unknown");
  });

  it("an Unknown node already written is not written again", () => {
    const d = tryUpdateNodeHealth(node("True"), first.health, lease(0), grace + 5_000, grace);
    const again = tryUpdateNodeHealth({ ...node("True"), status: d.update! }, d.health, lease(0), grace + 10_000, grace);
    expect(again.update).toBeNull();
    expect(again.observedReady.status).toBe("Unknown");
  });
});

describe("taints to add", () => {
  it.each([
    ["False", "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"],
    ["Unknown", "node.kubernetes.io/unreachable", "node.kubernetes.io/not-ready"],
  ])("Ready %s: NoExecute %s, off with %s", (status, add, remove) => {
    expect(noExecuteTaintFor(status)).toEqual({ add: { key: add, effect: "NoExecute" }, remove: { key: remove, effect: "NoExecute" } });
  });
  it("Ready True: none", () => expect(noExecuteTaintFor("True")).toBeNull());

  it.each([
    ["Unknown", [], ["node.kubernetes.io/unreachable"], []],
    ["False", [{ key: "node.kubernetes.io/unreachable", effect: "NoSchedule" as const }], ["node.kubernetes.io/not-ready"], ["node.kubernetes.io/unreachable"]],
    ["True", [{ key: "node.kubernetes.io/unreachable", effect: "NoSchedule" as const }, { key: "dedicated", effect: "NoSchedule" as const }], [], ["node.kubernetes.io/unreachable"]],
  ])("NoSchedule for Ready %s", (status, taints, add, del) => {
    const d = noScheduleTaintDiff(node(status as "True", 0, { taints }));
    expect(d.add.map((t) => t.key)).toEqual(add);
    expect(d.del.map((t) => t.key)).toEqual(del);
  });

  it("spec.unschedulable maps to the unschedulable taint", () => {
    expect(noScheduleTaintDiff(node("True", 0, { unschedulable: true })).add).toEqual([{ key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" }]);
  });

  it("swapTaints stamps timeAdded on what it adds and keeps the user's taints", () => {
    const out = swapTaints([{ key: "dedicated", effect: "NoSchedule" }, { key: "node.kubernetes.io/not-ready", effect: "NoExecute" }],
      [{ key: "node.kubernetes.io/unreachable", effect: "NoExecute" }], [{ key: "node.kubernetes.io/not-ready", effect: "NoExecute" }], 61_000);
    expect(out).toEqual([{ key: "dedicated", effect: "NoSchedule" }, { key: "node.kubernetes.io/unreachable", effect: "NoExecute", timeAdded: formatRFC3339(61_000) }]);
  });
});

describe("zones", () => {
  it.each([
    [["True", "True", "Unknown"], "Normal"],
    [["Unknown", "Unknown"], "FullDisruption"],
    [["True", "Unknown", "Unknown"], "Normal"],
    [["True", "Unknown", "Unknown", "False"], "PartialDisruption"],
    [[null, null, null, "True", "True"], "PartialDisruption"],
  ])("%j: %s", (ready, state) => {
    expect(computeZoneState(ready as (string | null)[]).state).toBe(state);
  });
  it.each([
    ["Normal", 3, 0.1], ["FullDisruption", 3, 0.1], ["PartialDisruption", 50, 0], ["PartialDisruption", 51, 0.01],
  ] as const)("%s with %i nodes taints at %f/s", (state, size, qps) => {
    expect(zoneEvictionQPS(state, size)).toBe(qps);
  });
});
