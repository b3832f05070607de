// examples/cluster/drain.yaml: node-c cordoned at 30s, its one-off pod deleted at 40s, its Node
// deleted at 1m. What follows is timed from the models' constants (podgc's check period and
// quarantine, the node monitor period), not from pasted numbers.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import type { TraceRecord } from "../../src/sim/index.ts";
import { GC_CHECK_PERIOD_MS, QUARANTINE_MS } from "../../src/controllers/podgc.ts";
import { NODE_MONITOR_PERIOD_MS } from "../../src/controllers/node_health.ts";

const FILE = join(import.meta.dirname, "..", "..", "examples", "cluster", "drain.yaml");
const CORDON_MS = 30_000;
const DELETE_NODE_MS = 60_000;

describe("examples/cluster/drain.yaml", () => {
  const result = simulate(loadScenarioFile(FILE).scenario);
  const recs = result.records!;
  const find = (f: (r: TraceRecord) => boolean) => recs.filter(f);
  const boundTo = new Map<string, string>();
  for (const r of recs) if (r.kind === "Bind" && r["result"] === "ok") boundTo.set(r.pod!, String(r["nodeName"]));
  const onC = (t: number) => [...boundTo].filter(([p, n]) => n === "node-c" && find((r) => r.kind === "Bind" && r.pod === p)[0]!.t < t).map(([p]) => p);
  const deleted = find((r) => r.kind === "NodeDelete" && r["actor"] === "user")[0]!;

  it("runs two web pods and a daemon pod on each node before the cordon", () => {
    const before = onC(CORDON_MS);
    expect(before.filter((p) => p.startsWith("default/web-"))).toHaveLength(2);
    expect(before.filter((p) => p.startsWith("default/log-agent-"))).toHaveLength(1);
  });

  it("cordons node-c at 30s: spec.unschedulable, then the unschedulable NoSchedule taint; no pod is deleted for it", () => {
    const patch = find((r) => r.kind === "NodePatch" && r["nodeName"] === "node-c" && r["unschedulable"] === true);
    expect(patch.map((r) => r["result"])).toEqual(["ok"]);
    expect(patch[0]!.t).toBeGreaterThanOrEqual(CORDON_MS);
    const taint = find((r) => r.kind === "NodeUpdate" && r["actor"] === "node-lifecycle-controller" && r["nodeName"] === "node-c" && r.t > patch[0]!.t);
    expect(taint[0]!["taints"]).toEqual(["node.kubernetes.io/unschedulable:NoSchedule"]);
    const deletes = find((r) => r.kind === "Delete" && r.t >= CORDON_MS && r.t < DELETE_NODE_MS);
    expect([...new Set(deletes.map((r) => r.pod))]).toEqual(["default/one-off"]);
  });

  it("deletes node-c at 1m; its Lease goes with it and the node lifecycle controller forgets it within a monitor period", () => {
    expect(deleted.t).toBeGreaterThanOrEqual(DELETE_NODE_MS);
    expect(deleted["result"]).toBe("ok");
    const lease = find((r) => r.kind === "LeaseDelete" && r["lease"] === "kube-node-lease/node-c");
    expect(lease.map((r) => r["actor"])).toEqual(["generic-garbage-collector"]);
    const removing = find((r) => r.kind === "Event" && r["reason"] === "RemovingNode");
    expect(removing.map((r) => r["object"])).toEqual(["node/node-c"]);
    expect(removing[0]!.t - deleted.t).toBeLessThanOrEqual(NODE_MONITOR_PERIOD_MS);
  });

  it("podgc force-deletes node-c's pods at its first pass once the node was gone for the quarantine", () => {
    const gc = find((r) => r.kind === "PodGCForceDelete");
    const expected = onC(DELETE_NODE_MS).filter((p) => p !== "default/one-off").sort();
    expect(gc.map((r) => r.pod).sort()).toEqual(expected);
    expect(new Set(gc.map((r) => r["reason"]))).toEqual(new Set(["orphaned"]));
    // The quarantine begins at the first pass to see node-c missing and ends at the first pass QUARANTINE_MS later.
    const seenMissing = Math.ceil(deleted.t / GC_CHECK_PERIOD_MS) * GC_CHECK_PERIOD_MS;
    const due = seenMissing + Math.ceil(QUARANTINE_MS / GC_CHECK_PERIOD_MS) * GC_CHECK_PERIOD_MS;
    expect(gc[0]!.t).toBe(due);
    // One pass deletes them all, one request after another.
    for (const r of gc) expect(r.t).toBeLessThan(due + GC_CHECK_PERIOD_MS);
  });

  it("replaces the two web pods on node-a and node-b; no daemon pod is made for node-c again", () => {
    const gcAt = find((r) => r.kind === "PodGCForceDelete")[0]!.t;
    const later = [...boundTo].filter(([p]) => find((r) => r.kind === "Bind" && r.pod === p)[0]!.t > gcAt);
    expect(later.map(([p]) => p.replace(/-[a-z0-9]+-[a-z0-9]+$|-[a-z0-9]{5}$/, "")).sort()).toEqual(["default/web", "default/web"]);
    expect(later.map(([, n]) => n).sort()).toEqual(["node-a", "node-b"]);
    expect(find((r) => r.kind === "Bind" && r["nodeName"] === "node-c" && r.t > deleted.t)).toEqual([]);
  });

  it("node-c's kubelet, still running, stops the collected pods' containers and fails its status updates", () => {
    const gcAt = find((r) => r.kind === "PodGCForceDelete")[0]!.t;
    const killed = new Set(find((r) => r.kind === "KillContainer" && r["node"] === "node-c" && r.t > gcAt).map((r) => r.pod));
    expect([...killed].sort()).toEqual(onC(DELETE_NODE_MS).filter((p) => p !== "default/one-off").sort());
    expect(find((r) => r.kind === "NodeStatusUpdateFailed" && r["node"] === "node-c" && r.t > deleted.t).length).toBeGreaterThan(5);
  });
});
