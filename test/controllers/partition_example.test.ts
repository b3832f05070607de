// examples/cluster/partition.yaml: node-c cut off from the apiserver from 60s for 8 minutes. The
// times of its NotReady, its taint and its pods' evictions follow upstream's defaults, computed
// here from the models' constants (no pasted numbers).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import type { TraceRecord } from "../../src/sim/index.ts";
import { NODE_EVICTION_PERIOD_MS, NODE_MONITOR_PERIOD_MS, nodeMonitorGracePeriodMs } from "../../src/controllers/node_health.ts";
import { DEFAULT_UNREACHABLE_TOLERATION_SECONDS } from "../../src/apiserver/admission/default_toleration_seconds.ts";
import { kubeletVersion } from "../../src/kubelet/version.ts";

const FILE = join(import.meta.dirname, "..", "..", "examples", "cluster", "partition.yaml");
const PARTITION_FROM_MS = 60_000;
const PARTITION_TO_MS = PARTITION_FROM_MS + 8 * 60_000;
/** The apiserver's round trip in the example (10 ms) and a watch delivery (5 ms), as slack for a request or two. */
const SLACK_MS = 50;

describe("examples/cluster/partition.yaml", () => {
  const loaded = loadScenarioFile(FILE).scenario;
  const result = simulate(loaded);
  const recs = result.records!;
  const graceMs = nodeMonitorGracePeriodMs(kubeletVersion(loaded.nodes![0]!.kubelet.version));
  const find = (f: (r: TraceRecord) => boolean) => recs.filter(f);
  const lastRenewal = Math.max(...find((r) => r.kind === "LeaseUpdate" && r["actor"] === "kubelet@node-c" && r["result"] === "ok" && r.t < PARTITION_FROM_MS).map((r) => r.t));
  const unknown = find((r) => r.kind === "NodeUpdateStatus" && r["nodeName"] === "node-c" && r["ready"] === "Unknown");
  const noExecute = find((r) => r.kind === "NodeUpdate" && r["nodeName"] === "node-c" && (r["taints"] as string[]).includes("node.kubernetes.io/unreachable:NoExecute"));
  const marked = find((r) => r.component === "taint-eviction-controller" && r.kind === "Event" && String(r["message"]).startsWith("Marking for deletion"));
  const evictions = find((r) => r.kind === "Delete" && r["actor"] === "taint-eviction-controller");
  const boundTo = new Map<string, string>();
  for (const r of recs) if (r.kind === "Bind" && r["result"] === "ok") boundTo.set(r.pod!, String(r["nodeName"]));

  it("passes its expectations", () => {
    expect(result.ok).toBe(true);
  });

  it("renews node-c's Lease until the partition, then fails to", () => {
    expect(lastRenewal).toBeGreaterThan(PARTITION_FROM_MS - 2 * 10_000);
    expect(find((r) => r.kind === "LeaseUpdate" && r["actor"] === "kubelet@node-c" && r["result"] === "ok" && r.t >= PARTITION_FROM_MS && r.t < PARTITION_TO_MS)).toEqual([]);
    expect(find((r) => r.kind === "LeaseUpdateFailed" && r["node"] === "node-c").length).toBeGreaterThan(0);
  });

  it("marks node-c Unknown once its Lease is older than the grace period, at a monitor pass", () => {
    expect(unknown.length).toBe(1);
    const t = unknown[0]!.t;
    // The controller notes the renewal at its next pass (within one period) and turns the node
    // Unknown at the first pass past that plus the grace period.
    expect(t).toBeGreaterThan(lastRenewal + graceMs);
    expect(t).toBeLessThanOrEqual(lastRenewal + graceMs + 2 * NODE_MONITOR_PERIOD_MS + SLACK_MS);
  });

  it("taints node-c unreachable:NoExecute at the next monitor pass's tainting", () => {
    expect(noExecute.length).toBeGreaterThan(0);
    const t = noExecute[0]!.t;
    const tUnknown = unknown[0]!.t;
    expect(t).toBeGreaterThanOrEqual(tUnknown + NODE_MONITOR_PERIOD_MS - SLACK_MS);
    expect(t).toBeLessThanOrEqual(tUnknown + NODE_MONITOR_PERIOD_MS + NODE_EVICTION_PERIOD_MS + SLACK_MS);
  });

  it("evicts node-c's two pods tolerationSeconds (DefaultTolerationSeconds) after the taint, and no other", () => {
    const tTaint = noExecute[0]!.t;
    expect(marked.length).toBe(2);
    for (const m of marked) {
      expect(boundTo.get(m.pod!)).toBe("node-c");
      expect(m.t - tTaint).toBeGreaterThanOrEqual(DEFAULT_UNREACHABLE_TOLERATION_SECONDS * 1000);
      expect(m.t - tTaint).toBeLessThanOrEqual(DEFAULT_UNREACHABLE_TOLERATION_SECONDS * 1000 + SLACK_MS);
    }
    // Graceful: the pods stay (Terminating) while their kubelet cannot confirm.
    expect(evictions.map((e) => e["deleted"])).toEqual([false, false]);
  });

  it("replaces the evicted pods on the other nodes", () => {
    const tEvict = evictions[0]!.t;
    const created = find((r) => r.kind === "Create" && r["actor"] === "replicaset-controller" && r.t >= tEvict);
    expect(created.length).toBe(2);
    for (const c of created) expect(["node-a", "node-b"]).toContain(boundTo.get(c.pod!));
  });

  it("after the partition, node-c's kubelet kills the evicted pods' containers, confirms the deletions and reports Ready; the taints come off", () => {
    for (const m of marked) {
      const confirm = find((r) => r.kind === "Delete" && r["actor"] === "kubelet@node-c" && r.pod === m.pod);
      expect(confirm.length).toBe(1);
      expect(confirm[0]!.t).toBeGreaterThanOrEqual(PARTITION_TO_MS);
      expect(confirm[0]!["deleted"]).toBe(true);
    }
    const ready = find((r) => r.kind === "NodePatchStatus" && r["nodeName"] === "node-c" && r["ready"] === "True" && r.t >= PARTITION_TO_MS);
    expect(ready.length).toBeGreaterThan(0);
    const lastTaints = find((r) => r.kind === "NodeUpdate" && r["nodeName"] === "node-c").at(-1)!;
    expect(lastTaints["taints"]).toEqual([]);
    expect(lastTaints.t).toBeGreaterThan(ready[0]!.t);
  });
});
