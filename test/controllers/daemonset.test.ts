// The DaemonSet controller in a cluster: one pod per eligible node (nodeSelector, taints), each
// pinned to its node; a force-deleted daemon pod made again on its node; and the predicates.
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
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
