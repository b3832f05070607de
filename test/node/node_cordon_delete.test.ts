// The timeline steps cordon, uncordon and deleteNode (node/timeline.ts): kubectl's PATCH of
// spec.unschedulable and DELETE of a Node, and what the control plane and the node's kubelet do
// after them. Process tests: whole runs, read from their records, timed against upstream constants.
import { describe, expect, it } from "vitest";
import { simulate } from "../../src/simulate.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import type { TraceRecord } from "../../src/sim/index.ts";
import { GC_CHECK_PERIOD_MS, QUARANTINE_MS } from "../../src/controllers/podgc.ts";
import { NODE_MONITOR_PERIOD_MS } from "../../src/controllers/node_health.ts";
import { LEASE_JITTER, renewIntervalMs } from "../../src/kubelet/nodestatus/nodelease.ts";
import { ownerIsDangling, leasesOwnedBy } from "../../src/controllers/garbage_collector.ts";
import type { Lease, NodeObject } from "../../src/k8s/node_api.ts";
import { StatusError } from "../../src/apiserver/errors.ts";

function run(body: string): TraceRecord[] {
  const text = `name: cordon-delete
nodes:
  - name: node-a
  - name: node-b
    labels: { disk: ssd }
${body}`;
  return [...simulate(loadScenarioText(text, "cordon-delete.yaml").scenario).records!];
}

const pod = (name: string, spec: string) => `  - manifest: { apiVersion: v1, kind: Pod, metadata: { name: ${name} }, spec: { ${spec}containers: [{ name: c, image: nginx }] } }\n`;
const of = (recs: readonly TraceRecord[], kind: string, where: Record<string, unknown> = {}) =>
  recs.filter((r) => r.kind === kind && Object.entries(where).every(([k, v]) => r[k] === v));

describe("cordon and uncordon", () => {
  const recs = run(`until: 2m
pods:
${pod("old", "nodeName: node-b, ")}${pod("web", "")}${pod("fast", "nodeSelector: { disk: ssd }, ")}
timeline:
  - { at: 0s, create: old }
  - { at: 10s, cordon: node-b }
  - { at: 12s, cordon: { node: node-b } }
  - { at: 20s, create: web }
  - { at: 20s, create: fast }
  - { at: 60s, uncordon: node-b }
`);

  it("patches spec.unschedulable, and the node lifecycle controller adds the unschedulable NoSchedule taint", () => {
    const patch = of(recs, "NodePatch", { actor: "user", nodeName: "node-b", unschedulable: true });
    expect(patch.map((r) => r["result"])).toEqual(["ok"]);
    const taint = of(recs, "NodeUpdate", { actor: "node-lifecycle-controller", nodeName: "node-b" }).find((r) => r.t > patch[0]!.t)!;
    expect(taint["taints"]).toEqual(["node.kubernetes.io/unschedulable:NoSchedule"]);
  });

  it("a second cordon of a cordoned node writes nothing (kubectl: already cordoned)", () => {
    expect(of(recs, "StepSkipped", { step: "cordon" }).map((r) => [r.t, r["why"]])).toEqual([[12_010, "node/node-b already cordoned"]]);
    expect(of(recs, "NodePatch", { unschedulable: true })).toHaveLength(1);
  });

  it("keeps new pods off the node, and leaves the pods running there alone", () => {
    expect(of(recs, "Bind", { pod: "default/web" }).map((r) => r["nodeName"])).toEqual(["node-a"]);
    expect(of(recs, "Delete", { pod: "default/old" })).toEqual([]);
    expect(of(recs, "KillContainer", { pod: "default/old" })).toEqual([]);
    const fail = of(recs, "Event", { pod: "default/fast", reason: "FailedScheduling" })[0]!;
    // NodeUnschedulable, the first filter, refuses node-b; node-a lacks the label.
    expect(fail["message"]).toBe("0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) were unschedulable.");
  });

  it("uncordon lifts the taint and the waiting pod is placed on the node", () => {
    const unpatch = of(recs, "NodePatch", { actor: "user", unschedulable: false })[0]!;
    expect(unpatch.t).toBeGreaterThanOrEqual(60_000);
    const untaint = of(recs, "NodeUpdate", { actor: "node-lifecycle-controller", nodeName: "node-b" }).find((r) => r.t > unpatch.t)!;
    expect(untaint["taints"]).toEqual([]);
    const bind = of(recs, "Bind", { pod: "default/fast" })[0]!;
    expect(bind["nodeName"]).toBe("node-b");
    expect(bind.t).toBeGreaterThan(untaint.t);
  });
});

describe("a DaemonSet's pods tolerate a cordon", () => {
  const recs = run(`until: 40s
pods:
  - manifest:
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: { name: agent }
      spec:
        selector: { matchLabels: { app: agent } }
        template:
          metadata: { labels: { app: agent } }
          spec: { containers: [{ name: a, image: "fluentd:v1.16" }] }
timeline:
  - { at: 5s, cordon: node-b }
  - { at: 10s, create: agent }
`);

  it("places a daemon pod on the cordoned node too (AddOrUpdateDaemonPodTolerations' unschedulable toleration)", () => {
    const binds = recs.filter((r) => r.kind === "Bind" && String(r["pod"]).startsWith("default/agent"));
    expect(binds.map((r) => r["nodeName"]).sort()).toEqual(["node-a", "node-b"]);
    expect(binds.every((r) => r["result"] === "ok")).toBe(true);
  });
});

describe("deleteNode", () => {
  const recs = run(`until: 5m
pods:
${pod("db", "nodeName: node-b, ")}
timeline:
  - { at: 0s, create: db }
  - { at: 30s, deleteNode: node-b }
  - { at: 3m, restartKubelet: { node: node-b } }
`);
  const deleted = of(recs, "NodeDelete", { actor: "user", nodeName: "node-b" })[0]!;
  const restartMs = 180_000;

  it("deletes the Node, and the garbage collector deletes the Lease it owned", () => {
    expect(deleted["result"]).toBe("ok");
    const lease = of(recs, "LeaseDelete", { actor: "generic-garbage-collector", lease: "kube-node-lease/node-b" });
    expect(lease.map((r) => r["result"])).toEqual(["ok"]);
    expect(lease[0]!.t).toBeGreaterThan(deleted.t);
    expect(lease[0]!.t - deleted.t).toBeLessThan(1000);
  });

  it("the node lifecycle controller removes the node at its next pass", () => {
    const ev = of(recs, "Event", { reason: "RemovingNode", object: "node/node-b" });
    expect(ev).toHaveLength(1);
    expect(ev[0]!.t - deleted.t).toBeLessThanOrEqual(NODE_MONITOR_PERIOD_MS);
  });

  it("podgc force-deletes the orphaned pod at its first pass after the 40 s quarantine, and the kubelet stops it", () => {
    const gc = of(recs, "PodGCForceDelete", { pod: "default/db" });
    expect(gc.map((r) => r["reason"])).toEqual(["orphaned"]);
    // The quarantine starts at the first pass that sees the node missing, and ends at a later pass.
    const firstPass = Math.ceil(deleted.t / GC_CHECK_PERIOD_MS) * GC_CHECK_PERIOD_MS;
    expect(gc[0]!.t).toBe(firstPass + Math.ceil(QUARANTINE_MS / GC_CHECK_PERIOD_MS) * GC_CHECK_PERIOD_MS);
    const del = of(recs, "Delete", { actor: "pod-garbage-collector", pod: "default/db" })[0]!;
    expect([del["gracePeriodSeconds"], del["deleted"]]).toEqual([0, true]);
    const kill = of(recs, "KillContainer", { pod: "default/db", node: "node-b" });
    expect(kill).toHaveLength(1);
    expect(kill[0]!.t).toBeGreaterThan(del.t);
  });

  it("the kubelet keeps running: its status updates fail and it renews no Lease (it cannot own one) until it restarts", () => {
    const between = (r: TraceRecord) => r.t > deleted.t && r.t < restartMs;
    expect(of(recs, "NodeStatusUpdateFailed", { node: "node-b" }).filter(between).length).toBeGreaterThanOrEqual(10);
    expect(of(recs, "NodePatchStatus", { actor: "kubelet@node-b", result: "ok" }).filter(between)).toEqual([]);
    expect(of(recs, "LeaseUpdate", { actor: "kubelet@node-b", result: "ok" }).filter(between)).toEqual([]);
    expect(of(recs, "LeaseCreate", { actor: "kubelet@node-b" }).filter(between)).toEqual([]);
    // Every renew interval it asks again: the Lease's GET, then the Node's GET for the owner reference.
    const tries = of(recs, "LeaseOwnerUnset", { node: "node-b" }).map((r) => r.t).filter((t) => t < restartMs);
    for (let i = 1; i < tries.length; i++) expect(tries[i]! - tries[i - 1]!).toBeLessThanOrEqual(renewIntervalMs() * (1 + LEASE_JITTER) + 200);
    expect(of(recs, "NodeCreate", { actor: "kubelet@node-b" }).filter(between)).toEqual([]);
  });

  it("a restarted kubelet registers the Node again and creates its Lease, owned by the new Node", () => {
    // At its first start it found its Node there (registered with the cluster); after the restart it makes a new one.
    expect(of(recs, "NodeCreate", { actor: "kubelet@node-b" }).filter((r) => r.t < deleted.t).map((r) => r["result"])).toEqual(["AlreadyExists"]);
    const created = of(recs, "NodeCreate", { actor: "kubelet@node-b" }).filter((r) => r.t > restartMs);
    expect(created.map((r) => r["result"])).toEqual(["ok"]);
    expect(of(recs, "NodeRegistered", { node: "node-b" }).map((r) => r["existed"])).toEqual([true, false]);
    const lease = of(recs, "LeaseCreate", { actor: "kubelet@node-b", result: "ok" });
    expect(lease).toHaveLength(1);
    expect(lease[0]!.t).toBeGreaterThan(created[0]!.t);
    expect(of(recs, "Event", { reason: "RegisteredNode", object: "node/node-b" }).filter((r) => r.t > restartMs)).toHaveLength(1);
  });

  it("a deleted node gets no new pods", () => {
    const r2 = run(`until: 1m
pods:
${pod("fast", "nodeSelector: { disk: ssd }, ")}
timeline:
  - { at: 10s, deleteNode: node-b }
  - { at: 20s, create: fast }
`);
    expect(of(r2, "Bind", { pod: "default/fast" })).toEqual([]);
    expect(String(of(r2, "Event", { pod: "default/fast", reason: "FailedScheduling" })[0]!["message"])).toMatch(/^0\/1 nodes are available/);
  });

  it("deleting a node twice is a failed step", () => {
    const r2 = run(`until: 30s
timeline:
  - { at: 10s, deleteNode: node-b }
  - { at: 20s, deleteNode: node-b }
`);
    expect(of(r2, "StepFailed", { step: "deleteNode" }).map((r) => r["err"])).toEqual(['nodes "node-b" not found']);
  });
});

describe("the garbage collector's decisions", () => {
  const node = (uid: string) => ({ metadata: { name: "node-b", uid, labels: {} }, spec: {}, status: { capacity: {}, conditions: [] } }) as NodeObject;
  const lease = (name: string, uid?: string): Lease => ({
    metadata: { name, namespace: "kube-node-lease", ...(uid === undefined ? {} : { ownerReferences: [{ apiVersion: "v1", kind: "Node", name, uid }] }) },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: "" },
  });

  it.each([
    ["the owner's GET is NotFound", { err: new StatusError(404, "NotFound", "gone"), value: null }, true],
    ["a Node of that name with another UID (registered again)", { err: null, value: node("u2") }, true],
    ["the owner is still there", { err: null, value: node("u1") }, false],
    ["the GET failed otherwise (unknown: no deletion)", { err: new StatusError(0, "", "connection refused"), value: null }, null],
  ] as const)("isDangling: %s", (_what, got, want) => {
    expect(ownerIsDangling(got, "u1")).toBe(want);
  });

  it("a deleted Node's dependents are the Leases whose owner reference names its UID", () => {
    const leases = [lease("node-a", "ua"), lease("node-b", "u1"), lease("node-b2"), lease("node-c", "u1-other")];
    expect(leasesOwnedBy(leases, node("u1")).map((l) => l.metadata.name)).toEqual(["node-b"]);
  });
});
