// node/kubelet_node_lister.ts: a cluster's kubelet admits pods against its Node object as its node
// informer saw it (getNodeAnyWay), so a label taken off the Node at run time makes the kubelet
// reject a pod whose nodeSelector wants it; a change made while the kubelet is cut off from the
// apiserver is seen once the partition ends (the re-list), not before.
import { describe, expect, it } from "vitest";
import { startSimulation } from "../../src/simulate.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import type { TraceRecord } from "../../src/sim/index.ts";

const SCENARIO = (createAt: string, extra = "") => `
name: lister
until: 60s
nodes:
  - name: node-a
    labels: { disk: ssd }
  - name: node-b
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web }
      spec: { nodeName: node-a, nodeSelector: { disk: ssd }, containers: [{ name: c, image: "nginx:1" }] }
timeline:
  - { at: ${createAt}, create: web }
${extra}`;

function run(text: string, unlabelAtMs: number): TraceRecord[] {
  const h = startSimulation(loadScenarioText(text, "lister.yaml").scenario);
  h.sim.runUntil(unlabelAtMs);
  // kubectl label nodes node-a disk-: a PUT of the Node without the label.
  const api = h.cluster.api.nodes;
  const cur = api.get("nodes", "node-a").value!;
  const { disk: _gone, ...rest } = cur.metadata.labels;
  expect(api.update("nodes", { ...cur, metadata: { ...cur.metadata, labels: rest } }).err).toBeNull();
  return h.finish().records!;
}

const rejected = (recs: readonly TraceRecord[]) => recs.filter((r) => r.kind === "Event" && r["reason"] === "NodeAffinity");
const running = (recs: readonly TraceRecord[]) => recs.some((r) => r.kind === "PodView" && r["status"] === "Running");

describe("a cluster kubelet's admission reads its Node object (getNodeAnyWay)", () => {
  it("admits a pod whose nodeSelector its Node's labels match", () => {
    const h = startSimulation(loadScenarioText(SCENARIO("10s"), "lister.yaml").scenario);
    const recs = h.finish().records!;
    expect(rejected(recs)).toEqual([]);
    expect(running(recs)).toBe(true);
  });

  it("rejects it once the label is taken off the Node, though the scenario declared it", () => {
    const recs = run(SCENARIO("10s"), 5_000);
    expect(rejected(recs)).toHaveLength(1);
    expect(running(recs)).toBe(false);
  });

  it("sees a label taken off during a partition only once the partition ends", () => {
    // Cut off from 2s to 30s; the label goes at 5s; the pod is created at 8s and reaches the
    // kubelet when its pod watch is back, after 30s: the kubelet's node lister re-lists and rejects it.
    const recs = run(SCENARIO("8s", "  - { at: 2s, partition: { node: node-a, for: 28s } }\n"), 5_000);
    const r = rejected(recs);
    expect(r).toHaveLength(1);
    expect(r[0]!.t).toBeGreaterThanOrEqual(30_000);
  });

  it("keeps the Node as it last saw it while cut off: a static pod admitted in the partition still matches", () => {
    // A static pod (the file source needs no apiserver) created at 8s, inside the partition: the
    // label went at 5s, but the kubelet's informer lost that delivery, so it still admits the pod.
    const text = SCENARIO("8s", "  - { at: 2s, partition: { node: node-a, for: 28s } }\n").replace("  - manifest:", "  - source: file\n    manifest:").replace("create: web", "staticAdd: web");
    const recs = run(text, 5_000);
    expect(rejected(recs).filter((r) => r.t < 30_000)).toEqual([]);
    expect(recs.some((r) => r.kind === "StartContainer" && r["result"] === "ok" && r.t < 30_000)).toBe(true);
  });
});

