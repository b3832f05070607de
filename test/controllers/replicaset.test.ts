// The ReplicaSet controller in a cluster: a Deployment's replicas spread by the scheduler, a pod
// force-deleted is replaced, the workload's delete takes its pods; and the deletion ranking.
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
import { checkScenarioText, formatIssue, loadScenarioText } from "../../src/scenario/index.ts";
import { activePodsWithRanksLess } from "../../src/controllers/controller_utils.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import type { TraceRecord } from "../../src/sim/index.ts";

const deployment = (replicas: unknown, extra = "") => `
name: deploy
until: 40s
nodes: [{ name: node-a }, { name: node-b }, { name: node-c }]
pods:
  - manifest:
      apiVersion: apps/v1
      kind: Deployment
      metadata: { name: web }
      spec:
        replicas: ${String(replicas)}
        selector: { matchLabels: { app: web } }
        template:
          metadata: { labels: { app: web } }
          spec: { containers: [{ name: c, image: "nginx:1.25" }] }
    behaviour: { c: { exitAfter: 1h } }
timeline:
  - { at: 0s, create: web }
${extra}`;

/** Each pod's last view (by name): its node and status, and whether it is gone. */
function lastViews(records: readonly TraceRecord[]): Map<string, TraceRecord> {
  const out = new Map<string, TraceRecord>();
  for (const r of records) if (r.kind === "PodView") out.set(String(r.pod), r);
  return out;
}

describe("ReplicaSet controller (a Deployment's)", () => {
  it("runs replicas 3 as 3 pods, one per node, the first under the scenario's name", () => {
    const { scenario } = loadScenarioText(deployment(3), "deploy.yaml");
    const records = simulate(scenario).records!;
    const views = lastViews(records);
    expect(views.size).toBe(3);
    expect(new Set([...views.values()].map((v) => v["node"]))).toEqual(new Set(["node-a", "node-b", "node-c"]));
    expect([...views.values()].every((v) => v["status"] === "Running")).toBe(true);
    expect(views.has(scenario.pods[0]!.key)).toBe(true);
    // slowStartBatch: a batch of 1, then of 2.
    expect(records.filter((r) => r.kind === "TooFewReplicas").map((r) => r["creating"])).toEqual([3]);
  });

  it("replaces a force-deleted pod and deletes every pod with the workload", () => {
    const { scenario } = loadScenarioText(deployment(3, "  - { at: 10s, forceDelete: web }\n  - { at: 30s, delete: web }"), "deploy.yaml");
    const records = simulate(scenario).records!;
    const created = records.filter((r) => r.component === "apiserver" && r.kind === "Create" && r.result === "ok");
    expect(created.length).toBe(4);
    const running = (t: number) => {
      const at = new Map<string, TraceRecord>();
      for (const r of records) if (r.kind === "PodView" && r.t <= t) at.set(String(r.pod), r);
      return [...at.values()].filter((v) => v["status"] === "Running" && v["deleted"] !== true).length;
    };
    expect(running(25_000)).toBe(3);
    const views = lastViews(records);
    expect([...views.values()].every((v) => v["deleted"] === true || v["status"] === "Terminating")).toBe(true);
  });

  it("scales 0 to no pod", () => {
    const { scenario } = loadScenarioText(deployment(0), "deploy.yaml");
    expect(simulate(scenario).records!.filter((r) => r.kind === "PodView")).toEqual([]);
  });

  it("refuses replicas the apiserver would refuse, located", () => {
    const r = checkScenarioText(deployment(-1), "deploy.yaml");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map(formatIssue)).toContain("deploy.yaml:11:19: pods[0].manifest.spec.replicas: the apiserver would reject this Deployment with 422 Invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0");
  });

  it("refuses replicas: in a one-node scenario", () => {
    const r = checkScenarioText(deployment(2).replace("nodes: [{ name: node-a }, { name: node-b }, { name: node-c }]", "").replace("    behaviour:", "    replicas: 2\n    behaviour:"), "deploy.yaml");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map(formatIssue).join("\n")).toMatch(/pods\[0\]\.replicas: expected nodes: for replicas/);
  });
});

describe("ActivePodsWithRanks", () => {
  const pod = (name: string, nodeName: string | undefined, phase: string, ready: boolean, restarts = 0, created = "2024-01-01T00:00:00Z"): Pod => ({
    apiVersion: "v1", kind: "Pod",
    metadata: { name, namespace: "default", creationTimestamp: created },
    spec: { containers: [{ name: "c", image: "i" }], ...(nodeName === undefined ? {} : { nodeName }) },
    status: { phase, conditions: [{ type: "Ready", status: ready ? "True" : "False", lastTransitionTime: created }], containerStatuses: [{ name: "c", restartCount: restarts }] },
  }) as unknown as Pod;

  it.each([
    ["unassigned before assigned", pod("a", undefined, "Pending", false), pod("b", "n1", "Pending", false)],
    ["pending before running", pod("a", "n1", "Pending", false), pod("b", "n2", "Running", false)],
    ["not ready before ready", pod("a", "n1", "Running", false), pod("b", "n2", "Running", true)],
    ["more restarts first", pod("a", "n1", "Running", false, 5), pod("b", "n2", "Running", false, 1)],
    ["newer before older", pod("a", "n1", "Running", false, 0, "2024-01-02T00:00:00Z"), pod("b", "n2", "Running", false, 0, "2024-01-01T00:00:00Z")],
  ])("%s", (_what, first, second) => {
    const less = activePodsWithRanksLess([first, second]);
    expect(less(first, second)).toBe(-1);
    expect(less(second, first)).toBe(1);
  });

  it("deletes from the node with more of the set first (doubled up)", () => {
    const a = pod("a", "n1", "Running", true);
    const b = pod("b", "n1", "Running", true);
    const c = pod("c", "n2", "Running", true);
    expect([c, a, b].sort(activePodsWithRanksLess([a, b, c])).map((p) => p.metadata.name)).toEqual(["a", "b", "c"]);
  });
});
