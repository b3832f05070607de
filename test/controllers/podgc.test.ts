// podgc's choices (gc_controller.go gc): which pods it force-deletes, and why.
import { describe, expect, it } from "vitest";
import { couldBeCollected, podsToCollect, QUARANTINE_MS } from "../../src/controllers/podgc.ts";
import { formatRFC3339 } from "../../src/apiserver/time.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import type { NodeObject } from "../../src/k8s/node_api.ts";

function pod(name: string, o: { node?: string; phase?: string; deleting?: boolean; createdMs?: number } = {}): Pod {
  return {
    metadata: { name, namespace: "default", creationTimestamp: formatRFC3339(o.createdMs ?? 0), ...(o.deleting ? { deletionTimestamp: formatRFC3339(1000) } : {}) },
    spec: { containers: [], ...(o.node === undefined ? {} : { nodeName: o.node }) },
    status: { phase: o.phase ?? "Running" },
  } as unknown as Pod;
}

function node(name: string, ready: boolean, taints: NodeObject["spec"]["taints"] = []): NodeObject {
  return { metadata: { name, labels: {} }, spec: { taints }, status: { capacity: {}, conditions: [{ type: "Ready", status: ready ? "True" : "Unknown", lastHeartbeatTime: "", lastTransitionTime: "", reason: "", message: "" }] } };
}

const oos = [{ key: "node.kubernetes.io/out-of-service", value: "nodeshutdown", effect: "NoExecute" as const }];

describe("podsToCollect", () => {
  const nodes = new Map([["a", node("a", true)], ["down", node("down", false, oos)], ["notready", node("notready", false)]]);
  it.each<[string, Pod[], ReadonlyMap<string, number>, boolean, string[]]>([
    ["a running pod on a Ready node: kept", [pod("p", { node: "a" })], new Map(), true, []],
    ["terminating on a NotReady out-of-service node: collected", [pod("p", { node: "down", deleting: true })], new Map(), true, ["p:outOfService"]],
    ["the same before the gate's release: kept", [pod("p", { node: "down", deleting: true })], new Map(), false, []],
    ["terminating on a NotReady node without the taint: kept", [pod("p", { node: "notready", deleting: true })], new Map(), true, []],
    ["running (not terminating) on the out-of-service node: kept", [pod("p", { node: "down" })], new Map(), true, []],
    ["on a vanished node, inside the quarantine: kept", [pod("p", { node: "gone" })], new Map([["gone", 0]]), true, []],
    ["on a vanished node, past the quarantine: orphaned", [pod("p", { node: "gone" })], new Map([["gone", -QUARANTINE_MS]]), true, ["p:orphaned"]],
    ["terminating and never scheduled: collected", [pod("p", { deleting: true })], new Map(), true, ["p:unscheduledTerminating"]],
  ])("%s", (_what, pods, missing, outOfService, want) => {
    expect(podsToCollect({ pods, nodes, missingSinceMs: missing, nowMs: 0, outOfService }).map((v) => `${v.pod.metadata.name}:${v.reason}`)).toEqual(want);
  });

  it("terminated pods beyond the threshold go oldest first", () => {
    const pods = [pod("new", { node: "a", phase: "Succeeded", createdMs: 3000 }), pod("old", { node: "a", phase: "Failed", createdMs: 1000 }), pod("mid", { node: "a", phase: "Succeeded", createdMs: 2000 })];
    expect(podsToCollect({ pods, nodes, missingSinceMs: new Map(), nowMs: 0, outOfService: true, threshold: 1 }).map((v) => v.pod.metadata.name)).toEqual(["old", "mid"]);
    expect(podsToCollect({ pods, nodes, missingSinceMs: new Map(), nowMs: 0, outOfService: true, threshold: 3 })).toEqual([]);
  });
});

describe("couldBeCollected", () => {
  // The controller skips a pass when no pod passes it, so it must hold for every pod podsToCollect
  // names, in every category: tried over every node, phase and deletion of the table's pods.
  const nodes = new Map([["a", node("a", true)], ["down", node("down", false, oos)], ["notready", node("notready", false)]]);
  const combos: Pod[] = [];
  for (const n of [undefined, "a", "down", "notready", "gone"]) {
    for (const phase of ["Running", "Succeeded", "Failed"]) {
      for (const deleting of [false, true]) combos.push(pod(`${n ?? "none"}-${phase}-${deleting}`, { ...(n === undefined ? {} : { node: n }), phase, deleting }));
    }
  }

  it("holds for every pod podsToCollect names", () => {
    const victims = podsToCollect({ pods: combos, nodes, missingSinceMs: new Map([["gone", -QUARANTINE_MS]]), nowMs: 0, outOfService: true, threshold: 1 });
    expect(new Set(victims.map((v) => v.reason))).toEqual(new Set(["terminated", "outOfService", "orphaned", "unscheduledTerminating"]));
    for (const v of victims) expect(couldBeCollected(v.pod, nodes), v.pod.metadata.name).toBe(true);
  });

  it("is false for a running pod on a node that is there", () => {
    expect(couldBeCollected(pod("p", { node: "a" }), nodes)).toBe(false);
    expect(couldBeCollected(pod("p", { node: "notready" }), nodes)).toBe(false);
  });
});
