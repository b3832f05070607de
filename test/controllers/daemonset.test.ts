// The DaemonSet controller in a cluster: one pod per eligible node (nodeSelector, taints), each
// pinned to its node; a force-deleted daemon pod made again on its node; the node event handlers
// (addNode, updateNode) that wake it; and the predicates.
import { describe, expect, it } from "vitest";
import { simulate, startSimulation } from "../../src/simulate.ts";
import type { TraceRecord } from "../../src/sim/index.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import { daemonPodNode, nodeShouldRunDaemonPod, pinnedTo } from "../../src/controllers/daemonset.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import type { Node } from "../../src/k8s/node.ts";

const SCENARIO = (selector: string, extra = "") => `
name: ds
until: 30s
nodes:
  - name: node-a
    labels: { disk: ssd }
  - name: node-b
  - name: node-c
    taints: [{ key: dedicated, value: gpu, effect: NoSchedule }]
pods:
  - manifest:
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent }
      spec:
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec: { ${selector}containers: [{ name: c, image: "fluentd:1" }] }
timeline:
  - { at: 0s, create: agent }
${extra}`;

function running(text: string): Map<string, string> {
  const records = simulate(loadScenarioText(text, "ds.yaml").scenario).records!;
  const last = new Map<string, { status: unknown; node: unknown }>();
  for (const r of records) if (r.kind === "PodView") last.set(String(r.pod), { status: r["status"], node: r["node"] });
  return new Map([...last].filter(([, v]) => v.status === "Running").map(([k, v]) => [k, String(v.node)]));
}

describe("DaemonSet controller", () => {
  it("runs one pod on each node whose taints it tolerates", () => {
    expect([...running(SCENARIO("")).values()].sort()).toEqual(["node-a", "node-b"]);
  });

  it("keeps to the nodes its nodeSelector matches", () => {
    expect([...running(SCENARIO("nodeSelector: { disk: ssd }, ")).values()]).toEqual(["node-a"]);
  });

  it("makes a force-deleted daemon pod again on its node", () => {
    const pods = running(SCENARIO("", "  - { at: 15s, forceDelete: agent }\n"));
    expect([...pods.values()].sort()).toEqual(["node-a", "node-b"]);
    expect(pods.has("default/" + loadScenarioText(SCENARIO(""), "ds.yaml").scenario.pods[0]!.name)).toBe(false);
  });

  const binds = (recs: readonly TraceRecord[], nodeName: string) =>
    recs.filter((r) => r.kind === "Bind" && r["nodeName"] === nodeName && r["result"] === "ok" && String(r["pod"]).startsWith("default/agent"));

  it("places the daemon pod on a node that registers again, when its Node is added (addNode), not at a later sync", () => {
    const text = SCENARIO("", "  - { at: 20s, deleteNode: node-b }\n  - { at: 3m, restartKubelet: { node: node-b } }\n").replace("until: 30s", "until: 5m");
    const recs = simulate(loadScenarioText(text, "ds.yaml").scenario).records!;
    const created = recs.filter((r) => r.kind === "NodeCreate" && r["nodeName"] === "node-b" && r["result"] === "ok").at(-1)!;
    expect(created.t).toBeGreaterThan(180_000);
    const after = binds(recs, "node-b").filter((r) => r.t > created.t);
    expect(after).toHaveLength(1);
    // The Node's ADDED event after the watch delay, the sync, the create and the scheduler's bind: seconds at most.
    expect(after[0]!.t - created.t).toBeLessThan(5_000);
  });

  it("places a daemon pod on a node whose new label makes it eligible (updateNode: shouldRun flips)", () => {
    // node-b is declared with disk=ssd (so its kubelet, which admits against its declared labels,
    // admits the pod); the label is taken off its Node before the DaemonSet exists and put back at 20s.
    const text = SCENARIO("nodeSelector: { disk: ssd }, ").replace("until: 30s", "until: 60s").replace("  - name: node-b\n", "  - name: node-b\n    labels: { disk: ssd }\n").replace("at: 0s, create", "at: 10s, create");
    const h = startSimulation(loadScenarioText(text, "ds.yaml").scenario);
    const api = h.cluster.api.nodes;
    // kubectl label nodes node-b disk- / disk=ssd: a PUT of the Node with its labels changed.
    const relabel = (disk: string | undefined) => {
      const cur = api.get("nodes", "node-b").value!;
      const { disk: _old, ...rest } = cur.metadata.labels;
      expect(api.update("nodes", { ...cur, metadata: { ...cur.metadata, labels: disk === undefined ? rest : { ...rest, disk } } }).err).toBeNull();
    };
    h.sim.runUntil(5_000);
    relabel(undefined);
    h.sim.runUntil(20_000);
    relabel("ssd");
    const recs = h.finish().records!;
    expect(binds(recs, "node-a")).toHaveLength(1);
    // The controller reads the Node's labels (not the scenario's): no pod for node-b until the label is back.
    const creating = recs.filter((r) => r.kind === "Manage" && (r["creating"] as string[]).includes("node-b"));
    expect(creating).toHaveLength(1);
    expect(creating[0]!.t).toBeGreaterThan(20_000);
    const placed = binds(recs, "node-b");
    expect(placed).toHaveLength(1);
    expect(placed[0]!.t).toBeGreaterThan(20_000);
    expect(placed[0]!.t - 20_000).toBeLessThan(5_000);
    const running = recs.filter((r) => r.kind === "PodView" && r["node"] === "node-b" && r["status"] === "Running");
    expect(running.length).toBeGreaterThan(0);
  });

  it("places a daemon pod on a node whose untolerated taint is removed (updateNode)", () => {
    const recs = simulate(loadScenarioText(SCENARIO("", "  - { at: 20s, untaintNode: { node: node-c, key: dedicated } }\n").replace("until: 30s", "until: 60s"), "ds.yaml").scenario).records!;
    const placed = binds(recs, "node-c");
    expect(placed).toHaveLength(1);
    expect(placed[0]!.t - 20_000).toBeLessThan(5_000);
  });

  it.each([
    ["NoSchedule", "keeps the pod running (shouldContinueRunning)", 1],
    ["NoExecute", "deletes the pod", 0],
  ])("an untolerated %s taint on a node with a daemon pod %s", (effect, _what, kept) => {
    const step = `  - { at: 15s, taintNode: { node: node-a, key: maintenance, value: "true", effect: ${effect} } }\n`;
    const recs = simulate(loadScenarioText(SCENARIO("", step).replace("until: 30s", "until: 60s"), "ds.yaml").scenario).records!;
    const deletes = recs.filter((r) => r.kind === "Delete" && r["actor"] === "daemonset-controller");
    expect(deletes).toHaveLength(1 - kept);
    expect(binds(recs, "node-a")).toHaveLength(1);
  });

  it("deletes a failed daemon pod with a FailedDaemonPod event and makes it again on its node", () => {
    const recs = simulate(loadScenarioText(SCENARIO("", "  - { at: 15s, evict: agent }\n").replace("until: 30s", "until: 60s"), "ds.yaml").scenario).records!;
    const events = recs.filter((r) => r.kind === "Event" && r["reason"] === "FailedDaemonPod");
    expect(events).toHaveLength(1);
    expect(String(events[0]!.message)).toMatch(/^Found failed daemon pod default\/agent-\w+ on node node-\w, will try to kill it$/);
    const node = String(events[0]!.message).split(" on node ")[1]!.split(",")[0]!;
    const deletes = recs.filter((r) => r.kind === "Delete" && r["actor"] === "daemonset-controller");
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.t).toBeGreaterThan(15_000);
    // The replacement: a second bind on that node after the deletion.
    expect(binds(recs, node).filter((r) => r.t > deletes[0]!.t)).toHaveLength(1);
  });

  const node = (taints: Node["taints"], labels: Record<string, string> = {}): Node => ({
    name: "n", labels, taints, allocatable: { milliCPU: 1000, memory: 1, ephemeralStorage: 1, allowedPodNumber: 110, scalarResources: {} },
  });
  const pod = (spec: Partial<Pod["spec"]>) => ({ metadata: { name: "p" }, spec: { containers: [], ...spec } }) as unknown as Pod;

  it.each([
    ["no taints", node([]), pod({}), true],
    ["an untolerated NoExecute taint", node([{ key: "k", effect: "NoExecute" }]), pod({}), false],
    ["a tolerated taint", node([{ key: "node.kubernetes.io/unreachable", effect: "NoExecute" }]), pod({ tolerations: [{ key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute" }] }), true],
    ["PreferNoSchedule is no bar", node([{ key: "k", effect: "PreferNoSchedule" }]), pod({}), true],
    ["a nodeSelector that does not match", node([], { a: "b" }), pod({ nodeSelector: { a: "c" } }), false],
  ])("nodeShouldRunDaemonPod: %s", (_what, n, p, want) => {
    expect(nodeShouldRunDaemonPod(p, n)).toBe(want);
  });

  it("pins a pod to a node, and reads the pin back", () => {
    const p = pinnedTo(pod({}), "node-x", "agent-abcde");
    expect(p.metadata.name).toBe("agent-abcde");
    expect(daemonPodNode(p)).toBe("node-x");
    expect(daemonPodNode({ ...p, spec: { ...p.spec, nodeName: "node-y" } })).toBe("node-y");
  });
});
