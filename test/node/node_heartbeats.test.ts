// A cluster's kubelets post their node status and renew their Leases (kubelet/nodestatus/); a
// partition makes the renewals fail and the kubelet retry; a node that is down renews nothing;
// the non-graceful node shutdown procedure (the out-of-service taint) lets podgc force-delete its
// terminating pods. Process tests: whole runs, read from their records.
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import type { TraceRecord } from "../../src/sim/index.ts";
import { LEASE_JITTER, MAX_BACKOFF_MS, MAX_UPDATE_RETRIES, renewIntervalMs } from "../../src/kubelet/nodestatus/nodelease.ts";
import { HEARTBEAT_CLIENT_TIMEOUT_MS, NODE_STATUS_REPORT_FREQUENCY_MS } from "../../src/kubelet/nodestatus/node_status.ts";
import { GC_CHECK_PERIOD_MS } from "../../src/controllers/podgc.ts";
import { NODE_MONITOR_PERIOD_MS, nodeMonitorGracePeriodMs } from "../../src/controllers/node_health.ts";

function run(body: string) {
  const text = `name: heartbeats
nodes:
  - name: node-a
  - name: node-b
${body}`;
  return simulate(loadScenarioText(text, "heartbeats.yaml").scenario).records!;
}

const renewals = (recs: readonly TraceRecord[], node: string) =>
  recs.filter((r) => r.kind === "LeaseUpdate" && r["actor"] === `kubelet@${node}` && r["result"] === "ok").map((r) => r.t);

describe("lease heartbeats", () => {
  const recs = run(`until: 12m
timeline:
  - { at: 60s, partition: { node: node-b, for: 30s } }
  - { at: 5m, rebootNode: { node: node-a, downtime: 2m } }
`);

  it("renews every renew interval (0.25 of 40 s) plus at most its jitter", () => {
    const ts = renewals(recs, "node-b").filter((t) => t < 60_000);
    expect(ts.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < ts.length; i++) {
      const gap = ts[i]! - ts[i - 1]!;
      expect(gap).toBeGreaterThanOrEqual(renewIntervalMs());
      // The jitter, plus the request's round trip.
      expect(gap).toBeLessThanOrEqual(renewIntervalMs() * (1 + LEASE_JITTER) + 20);
    }
  });

  it("in a partition, tries the update five times, then falls back to GET with a backoff capped at 7 s, and renews once it ends", () => {
    const failed = recs.filter((r) => r.kind === "LeaseUpdate" && r["actor"] === "kubelet@node-b" && r["result"] !== "ok");
    expect(failed.length).toBe(MAX_UPDATE_RETRIES);
    const retries = recs.filter((r) => r.kind === "LeaseEnsureFailed" && r["node"] === "node-b").map((r) => r["retryInMs"] as number);
    expect(retries.slice(0, 3)).toEqual([200, 400, 800]);
    expect(Math.max(...retries)).toBe(MAX_BACKOFF_MS);
    const after = renewals(recs, "node-b").filter((t) => t >= 90_000);
    expect(after[0]!).toBeLessThanOrEqual(90_000 + MAX_BACKOFF_MS + 100);
  });

  it("a partition shorter than the grace period leaves the node Ready", () => {
    expect(recs.filter((r) => r.kind === "NodeUpdateStatus" && r["nodeName"] === "node-b")).toEqual([]);
  });

  it("renews nothing while the node is down, and the controller marks it Unknown", () => {
    expect(renewals(recs, "node-a").filter((t) => t >= 300_000 && t < 420_000)).toEqual([]);
    const unknown = recs.filter((r) => r.kind === "NodeUpdateStatus" && r["nodeName"] === "node-a" && r["ready"] === "Unknown");
    expect(unknown.length).toBe(1);
    const grace = nodeMonitorGracePeriodMs({ minor: 30, patch: 0 });
    expect(unknown[0]!.t).toBeGreaterThan(300_000 - renewIntervalMs() * (1 + LEASE_JITTER) + grace);
    expect(unknown[0]!.t).toBeLessThanOrEqual(300_000 + grace + 2 * NODE_MONITOR_PERIOD_MS);
    // Back: renewing, and Ready again.
    expect(renewals(recs, "node-a").some((t) => t >= 420_000)).toBe(true);
    expect(recs.some((r) => r.kind === "NodePatchStatus" && r["nodeName"] === "node-a" && r["ready"] === "True" && r.t >= 420_000)).toBe(true);
  });

  it("posts the node status only when it changed or every nodeStatusReportFrequency", () => {
    const patches = recs.filter((r) => r.kind === "NodePatchStatus" && r["actor"] === "kubelet@node-b").map((r) => r.t);
    for (let i = 1; i < patches.length; i++) expect(patches[i]! - patches[i - 1]!).toBeGreaterThanOrEqual(NODE_STATUS_REPORT_FREQUENCY_MS);
  });
});

describe("non-graceful node shutdown: the out-of-service taint", () => {
  const recs = run(`until: 4m
pods:
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: db }, spec: { nodeName: node-b, containers: [{ name: c, image: postgres }] } }
timeline:
  - { at: 0s, create: db }
  - { at: 30s, rebootNode: { node: node-b, downtime: 10m } }
  - { at: 2m, taintNode: { node: node-b, key: node.kubernetes.io/out-of-service, value: nodeshutdown, effect: NoExecute } }
`);

  it("evicts the pod at once (it does not tolerate the taint), and podgc force-deletes it at its next pass", () => {
    const taint = recs.find((r) => r.kind === "NodeUpdate" && r["actor"] === "user")!;
    expect(taint["taints"]).toContain("node.kubernetes.io/out-of-service=nodeshutdown:NoExecute");
    const evict = recs.find((r) => r.kind === "Delete" && r["actor"] === "taint-eviction-controller")!;
    expect(evict.t - taint.t).toBeLessThan(100);
    expect(evict["deleted"]).toBe(false);
    const gc = recs.find((r) => r.kind === "PodGCForceDelete")!;
    expect(gc["reason"]).toBe("outOfService");
    expect(gc.t - evict.t).toBeLessThanOrEqual(GC_CHECK_PERIOD_MS);
    const gone = recs.find((r) => r.kind === "Delete" && r["actor"] === "pod-garbage-collector")!;
    expect([gone["gracePeriodSeconds"], gone["deleted"]]).toEqual([0, true]);
  });

  it("untaintNode of a taint the node lacks is a failed step", () => {
    const r = run(`until: 20s
timeline:
  - { at: 10s, untaintNode: { node: node-a, key: example.com/none } }
`);
    expect(r.find((x) => x.kind === "StepFailed")?.["err"]).toBe('taint "example.com/none" not found');
  });
});

describe("the heartbeat client's timeout", () => {
  const recs = run(`until: 2m
timeline:
  - { at: 30s, partition: { node: node-b, for: 40s, mode: timeout } }
`);

  it("a Lease update in a timeout partition fails after the heartbeat client's timeout, not the 60 s of other requests", () => {
    const failed = recs.filter((r) => r.kind === "LeaseUpdate" && r["actor"] === "kubelet@node-b" && r["result"] !== "ok").map((r) => r.t);
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(failed[1]! - failed[0]!).toBe(HEARTBEAT_CLIENT_TIMEOUT_MS);
  });
});
