// The node lifecycle and taint eviction controllers as processes: a node back before its pods'
// tolerationSeconds keeps them (the evictions are cancelled), the grace period follows the release,
// and a cluster's run is the same run again for the same seed.
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import type { TraceRecord } from "../../src/sim/index.ts";
import { NODE_MONITOR_GRACE_PERIOD_1_32_MS, NODE_MONITOR_GRACE_PERIOD_MS, NODE_MONITOR_PERIOD_MS } from "../../src/controllers/node_health.ts";

function scenario(version: string, partitionFor: string, until: string): string {
  return `name: lifecycle
until: ${until}
kubelet: { version: "${version}" }
nodes:
  - name: node-a
  - name: node-b
pods:
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: web }, spec: { nodeName: node-b, containers: [{ name: c, image: nginx }] } }
timeline:
  - { at: 0s, create: web }
  - { at: 30s, partition: { node: node-b, for: ${partitionFor} } }
`;
}

function run(text: string, seed = 1): readonly TraceRecord[] {
  return simulate(loadScenarioText(text, "lifecycle.yaml").scenario, { seed }).records!;
}

const unknownAt = (recs: readonly TraceRecord[]) => recs.find((r) => r.kind === "NodeUpdateStatus" && r["ready"] === "Unknown")?.t;
const lastRenewal = (recs: readonly TraceRecord[]) => Math.max(...recs.filter((r) => r.kind === "LeaseUpdate" && r["actor"] === "kubelet@node-b" && r["result"] === "ok" && r.t < 30_000).map((r) => r.t));

describe("a node back before tolerationSeconds", () => {
  const recs = run(scenario("1.30", "3m", "6m"));

  it("is tainted, its pod's eviction scheduled, then cancelled when the taints come off", () => {
    expect(recs.some((r) => r.kind === "EvictionScheduled" && r.pod === "default/web")).toBe(true);
    const cancel = recs.filter((r) => r.kind === "Event" && r.component === "taint-eviction-controller" && String(r["message"]).startsWith("Cancelling deletion"));
    expect(cancel.map((r) => r.pod)).toEqual(["default/web"]);
    expect(cancel[0]!.t).toBeGreaterThan(30_000 + 180_000);
    expect(recs.some((r) => r.kind === "Delete" && r["actor"] === "taint-eviction-controller")).toBe(false);
  });

  it("its pod is marked not Ready while the node is Unknown", () => {
    const t = unknownAt(recs)!;
    const notReady = recs.find((r) => r.kind === "PatchStatus" && r["actor"] === "node-lifecycle-controller" && r.pod === "default/web");
    expect(notReady!.t).toBeGreaterThanOrEqual(t);
  });
});

describe("the node monitor grace period follows the control plane's release", () => {
  it.each([["1.31", NODE_MONITOR_GRACE_PERIOD_MS], ["1.32", NODE_MONITOR_GRACE_PERIOD_1_32_MS]])("%s: %i ms", (version, graceMs) => {
    const recs = run(scenario(version, "2m", "3m"));
    const t = unknownAt(recs)!;
    expect(t).toBeGreaterThan(lastRenewal(recs) + graceMs);
    expect(t).toBeLessThanOrEqual(lastRenewal(recs) + graceMs + 2 * NODE_MONITOR_PERIOD_MS + 50);
  });
});

describe("determinism", () => {
  it("the same seed gives the same records; another seed may draw other jitters", () => {
    const a = run(scenario("1.30", "8m", "9m"), 7);
    const b = run(scenario("1.30", "8m", "9m"), 7);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});
