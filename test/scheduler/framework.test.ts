// The scheduling cycle's pure decisions, table-driven: filters in upstream's order, the
// LeastAllocated score, numFeasibleNodesToFind and the FitError message.
import { describe, expect, it } from "vitest";
import type { Pod } from "../../src/k8s/pod.ts";
import type { Node } from "../../src/k8s/node.ts";
import {
  bestNodes, filterNode, findNodesThatFit, fitErrorMessage, leastAllocatedScore, leastRequestedScore, nonZeroRequestedBy, numFeasibleNodesToFind, preFilter,
} from "../../src/scheduler/framework.ts";
import { addRequests, removeRequests, type NodeRequests } from "../../src/scheduler/scheduler.ts";

const GiB = 1024 ** 3;
const opts = { sidecars: true };

function node(name: string, extra: Partial<Node> = {}): Node {
  return {
    name, labels: { "kubernetes.io/hostname": name, disk: name === "b" ? "ssd" : "hdd" }, taints: [],
    allocatable: { milliCPU: 2000, memory: 4 * GiB, ephemeralStorage: 100 * GiB, allowedPodNumber: 110, scalarResources: {} },
    ...extra,
  };
}

function pod(name: string, spec: Partial<Pod["spec"]> = {}, cpu?: string): Pod {
  return {
    apiVersion: "v1", kind: "Pod", metadata: { name, namespace: "default" },
    spec: { containers: [{ name: "c", image: "nginx", ...(cpu === undefined ? {} : { resources: { requests: { cpu } } }) }], ...spec },
  } as Pod;
}

describe("filterNode", () => {
  it.each([
    ["fits an empty node", pod("p"), node("a"), null],
    ["a pod bound elsewhere", pod("p", { nodeName: "b" }), node("a"), "node(s) didn't match the requested node name"],
    ["an untolerated NoSchedule taint", pod("p"), node("a", { taints: [{ key: "k", value: "v", effect: "NoSchedule" }] }), "node(s) had untolerated taint {k: v}"],
    ["a tolerated taint", pod("p", { tolerations: [{ key: "k", operator: "Exists" }] }), node("a", { taints: [{ key: "k", value: "v", effect: "NoSchedule" }] }), null],
    ["PreferNoSchedule does not filter", pod("p"), node("a", { taints: [{ key: "k", effect: "PreferNoSchedule" }] }), null],
    ["a node selector that does not match", pod("p", { nodeSelector: { disk: "ssd" } }), node("a"), "node(s) didn't match Pod's node affinity/selector"],
    ["a node selector that matches", pod("p", { nodeSelector: { disk: "ssd" } }), node("b"), null],
    ["too much cpu", pod("p", {}, "3"), node("a"), "Insufficient cpu"],
  ] as const)("%s", (_what, p, n, reason) => {
    const r = filterNode(p, { node: n, pods: [] }, opts);
    expect(r.fits ? null : r.reason).toBe(reason);
  });

  it.each([
    ["a cordoned node", pod("p"), "node(s) were unschedulable"],
    ["a cordoned node, for a pod that tolerates the unschedulable taint (a DaemonSet's)", pod("p", { tolerations: [{ key: "node.kubernetes.io/unschedulable", operator: "Exists", effect: "NoSchedule" }] }), null],
    ["a cordoned node is refused before a failing node name (NodeUnschedulable is the first filter)", pod("p", { nodeName: "b" }), "node(s) were unschedulable"],
  ] as const)("NodeUnschedulable: %s", (_what, p, reason) => {
    const r = filterNode(p, { node: node("a"), pods: [], unschedulable: true }, opts);
    expect(r.fits ? null : r.reason).toBe(reason);
  });

  it("counts the node's pods: the second 1.5-cpu pod does not fit", () => {
    const r = filterNode(pod("q", {}, "1500m"), { node: node("a"), pods: [pod("p", { nodeName: "a" }, "1500m")] }, opts);
    expect(r).toEqual({ fits: false, reason: "Insufficient cpu" });
  });

  it("a host port in use does not fit", () => {
    const withPort = (name: string) => pod(name, { containers: [{ name: "c", image: "nginx", ports: [{ containerPort: 80, hostPort: 8080 }] }] } as Partial<Pod["spec"]>);
    expect(filterNode(withPort("q"), { node: node("a"), pods: [withPort("p")] }, opts)).toEqual({ fits: false, reason: "node(s) didn't have free ports for the requested pod ports" });
  });
});

describe("LeastAllocated", () => {
  it.each([[0, 100, 100], [50, 100, 50], [100, 100, 0], [101, 100, 0], [1, 0, 0], [333, 1000, 66]])("leastRequestedScore(%i, %i) = %i", (req, cap, want) => {
    expect(leastRequestedScore(req, cap)).toBe(want);
  });

  it("scores the emptier node higher, a pod without requests counting 100m and 200Mi", () => {
    const busy = { node: node("a"), pods: [pod("p", {}, "1")] };
    const empty = { node: node("b"), pods: [] };
    // empty: cpu (2000-100)/2000 = 95, memory (4Gi-200Mi)/4Gi = 95 -> 95; busy: cpu 45, memory 90 -> 67.
    expect(leastAllocatedScore(pod("q"), empty, opts)).toBe(95);
    expect(leastAllocatedScore(pod("q"), busy, opts)).toBe(67);
  });

  it("keeps every node of the best score (selectHost draws among them)", () => {
    const a = { node: node("a"), pods: [] };
    const b = { node: node("b"), pods: [] };
    const c = { node: node("c"), pods: [] };
    expect(bestNodes([{ info: a, score: 5 }, { info: b, score: 9 }, { info: c, score: 9 }])).toEqual([b, c]);
  });
});

describe("numFeasibleNodesToFind and the fit error", () => {
  it.each([[3, 3], [99, 99], [100, 100], [1000, 420], [5000, 500], [20000, 1000]])("%i nodes: %i", (n, want) => {
    expect(numFeasibleNodesToFind(n)).toBe(want);
  });

  it("counts each node under its first failing filter, sorted", () => {
    const nodes = [node("a", { taints: [{ key: "k", value: "v", effect: "NoSchedule" }] }), node("b"), node("c")].map((n) => ({ node: n, pods: [] }));
    const r = findNodesThatFit(pod("p", {}, "3"), nodes, 0, opts);
    expect(r.feasible).toEqual([]);
    expect(fitErrorMessage(3, r.reasons)).toBe("0/3 nodes are available: 1 node(s) had untolerated taint {k: v}, 2 Insufficient cpu.");
  });
});

describe("the cycle's state and the cache's sums (computed once, the same values)", () => {
  const withPort = (name: string, hostPort: number, cpu?: string): Pod => {
    const p = pod(name, {}, cpu);
    return { ...p, spec: { ...p.spec, containers: [{ ...p.spec.containers[0]!, ports: [{ containerPort: 80, hostPort }] }] } } as Pod;
  };
  const nodes = [
    { node: node("a"), pods: [pod("x", { nodeName: "a" }, "1500m")] },
    { node: node("b"), pods: [withPort("y", 8080)] },
    { node: node("c"), pods: [] },
  ];
  it.each([pod("p"), pod("q", {}, "600m"), withPort("r", 8080, "100m"), withPort("s", 9090)])("preFilter's state filters and scores %# as each node computing it would", (p) => {
    const state = preFilter(p, opts);
    for (const info of nodes) {
      expect(filterNode(p, info, opts, state)).toEqual(filterNode(p, info, opts));
      expect(leastAllocatedScore(p, info, opts, state.nonZero)).toBe(leastAllocatedScore(p, info, opts));
    }
    expect(findNodesThatFit(p, nodes, 1, opts, state)).toEqual(findNodesThatFit(p, nodes, 1, opts));
  });

  it("keeps a node's non-zero sums equal to the sum over its pods as pods come, change and go", () => {
    const n: NodeRequests = { pods: new Map(), milliCPU: 0, memory: 0 };
    const put = (p: Pod) => addRequests(n, p.metadata.name, p, opts);
    const drop = (name: string) => removeRequests(n, name, opts);
    const check = () => expect({ milliCPU: n.milliCPU, memory: n.memory }).toEqual(nonZeroRequestedBy([...n.pods.values()], opts));
    put(pod("a", {}, "250m"));
    put(pod("b"));
    check();
    put(pod("a", {}, "1"));
    check();
    expect(drop("b")).toBe(true);
    expect(drop("b")).toBe(false);
    check();
    drop("a");
    expect({ milliCPU: n.milliCPU, memory: n.memory, size: n.pods.size }).toEqual({ milliCPU: 0, memory: 0, size: 0 });
  });
});
