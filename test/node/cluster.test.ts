// A cluster: several kubelets on one apiserver, the scheduler stand-in placing the pods that name no
// node, each node's records named after it, and the views' NODE column.
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import { renderPods } from "../../src/report/pods.ts";
import { renderText } from "../../src/report/text.ts";
import type { StrategySpec, TraceRecord } from "../../src/sim/index.ts";

const SCENARIO = `
name: three-nodes
until: 30s
nodes:
  - name: node-a
    capacity: { cpu: "2", memory: 4Gi }
  - name: node-b
    capacity: { cpu: "2", memory: 4Gi }
  - name: node-c
    capacity: { cpu: "2", memory: 4Gi }
    taints: [{ key: dedicated, value: gpu, effect: NoSchedule }]
    kubelet: { version: "1.29" }
pods:
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: web-1 }, spec: { containers: [{ name: c, image: nginx, resources: { requests: { cpu: "1500m" } } }] } }
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: web-2 }, spec: { containers: [{ name: c, image: nginx, resources: { requests: { cpu: "1500m" } } }] } }
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: web-3 }, spec: { containers: [{ name: c, image: nginx, resources: { requests: { cpu: "1500m" } } }] } }
  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: pinned }, spec: { nodeName: node-c, containers: [{ name: c, image: nginx }] } }
timeline:
  - { at: 0s, create: web-1 }
  - { at: 0s, create: web-2 }
  - { at: 0s, create: web-3 }
  - { at: 0s, create: pinned }
  - { at: 10s, restartKubelet: { node: node-b } }
  - { at: 20s, delete: web-1 }
`;

function run(seed = 1, strategy?: StrategySpec) {
  const { scenario } = loadScenarioText(SCENARIO, "three-nodes.yaml");
  return simulate(scenario, { seed, ...(strategy === undefined ? {} : { strategy }) });
}

function lastNodeOf(records: readonly TraceRecord[], pod: string): string | undefined {
  return records.filter((r) => r.kind === "PodView" && r.pod === pod).at(-1)?.["node"] as string | undefined;
}

describe("a three-node cluster", () => {
  const result = run();
  const records = result.records!;

  it("starts one kubelet per node, each at its own version", () => {
    const starts = records.filter((r) => r.kind === "KubeletStart");
    expect(new Set(starts.map((r) => r["node"]))).toEqual(new Set(["node-a", "node-b", "node-c"]));
    expect(starts.find((r) => r["node"] === "node-c")!["version"]).toBe("1.29");
  });

  it("places the pods as the filters allow: one 1.5-cpu pod per untainted node, the third unschedulable until room frees", () => {
    const a = lastNodeOf(records, "default/web-1");
    const b = lastNodeOf(records, "default/web-2");
    expect(new Set([a, b])).toEqual(new Set(["node-a", "node-b"]));
    const failed = records.find((r) => r.kind === "Event" && r.reason === "FailedScheduling" && r.pod === "default/web-3");
    expect(failed?.["message"]).toBe("0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu.");
    // web-1 deleted at 20s: web-3 takes its node.
    expect(lastNodeOf(records, "default/web-3")).toBe(a);
    expect(lastNodeOf(records, "default/pinned")).toBe("node-c");
  });

  it("binds through pods/binding with the PodScheduled condition", () => {
    const binds = records.filter((r) => r.component === "apiserver" && r.kind === "Bind" && r.result === "ok");
    expect(binds.map((r) => r.pod).sort()).toEqual(["default/web-1", "default/web-2", "default/web-3"]);
  });

  it("restarts only the named node's kubelet", () => {
    const stops = records.filter((r) => r.kind === "KubeletStop");
    expect(stops.map((r) => r["node"])).toEqual(["node-b"]);
    expect(stops[0]!["processes"]).toBeGreaterThan(0);
  });

  it("runs every pod on its node, and each kubelet sees only its own", () => {
    const running = records.filter((r) => r.kind === "PodView" && r["status"] === "Running");
    expect(new Set(running.map((r) => r.pod))).toEqual(new Set(["default/web-1", "default/web-2", "default/web-3", "default/pinned"]));
    for (const r of records.filter((x) => x.component === "kubelet" && x.kind === "SyncPod" && typeof x.pod === "string")) {
      const bound = records.filter((v) => v.kind === "PodView" && v.pod === r.pod && v.t <= r.t).at(-1)?.["node"];
      expect(r["node"]).toBe(bound);
    }
  });

  it("shows a NODE column in get pods -w and the timeline", () => {
    const pods = renderPods(records);
    expect(pods.split("\n")[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+NODE$/);
    expect(pods).toMatch(/web-3\s+0\/1\s+Pending\s+0\s+\S+\s+<none>/);
    const text = renderText(records);
    expect(text).toMatch(/ kubelet\s+node-b\s+/);
    expect(text).toMatch(/ scheduler\s+-\s+default\/web-3/);
  });

  it("is the same run for the same seed, and a recorded choice decides ties (random strategy: by the seed)", () => {
    expect(run().run.traceHash).toBe(result.run.traceHash);
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8].map((s) => lastNodeOf(run(s, { name: "random" }).records!, "default/web-1"));
    expect(new Set(seeds)).toEqual(new Set(["node-a", "node-b"]));
  });
});
