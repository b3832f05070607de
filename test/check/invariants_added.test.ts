// The invariants added for exploration, each on hand-written traces: one where it fires, and ones
// where it must not (the normal lags and resets the kubelet is allowed).
import { describe, expect, it } from "vitest";
import type { TraceRecord } from "../../src/sim/index.ts";
import type { StoredEvent } from "../../src/apiserver/index.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import { loadScenarioText, type Scenario } from "../../src/scenario/index.ts";
import { INVARIANTS, resolveInvariantIds, ALL_INVARIANTS } from "../../src/check/invariants/index.ts";
import { Checker } from "../../src/check/checker.ts";
import type { Sim } from "../../src/sim/index.ts";
import type { SimNode } from "../../src/node/node.ts";

type Fields = Record<string, unknown>;
const R = (t: number, component: string, kind: string, fields: Fields = {}): Omit<TraceRecord, "seq"> => ({ t, component, kind, ...fields });

/** Feeds records to a fresh monitor; the messages of the violations it reported. */
function violations(id: string, records: Omit<TraceRecord, "seq">[], scenario: Scenario = SCENARIO): string[] {
  const info = INVARIANTS.find((i) => i.id === id)!;
  const m = info.make(scenario);
  return records.flatMap((r, seq) => {
    const v = m.observe({ ...r, seq } as TraceRecord);
    return v === null ? [] : [v.message];
  });
}

const SCENARIO = loadScenarioText(`
name: invariants
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web }
      spec:
        restartPolicy: Never
        containers: [{ name: app, image: x }]
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: always }
      spec:
        containers: [{ name: app, image: x }]
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: etcd, namespace: kube-system }
      spec:
        containers: [{ name: etcd, image: x }]
    source: file
`).scenario;

const view = (t: number, pod: string, uid: string, phase = "Running", extra: Fields = {}) => R(t, "apiserver", "PodView", { pod, uid, phase, ...extra });
const started = (t: number, pod: string, id: string, container = "app") => R(t, "runtime", "ContainerStarted", { pod, container, id });
const exited = (t: number, pod: string, id: string, container = "app") => R(t, "runtime", "ContainerExited", { pod, container, id, exitCode: 0 });
/** The CRI StartContainer that succeeded: the start as the kubelet sees it. */
const startCall = (t: number, pod: string, id: string, container = "app") => R(t, "runtime", "StartContainer", { pod, container, id, result: "ok", tookMs: 100 });
const status = (t: number, kind: string, uid: string, version: number, extra: Fields = {}) => R(t, "status", kind, { pod: "default/web", uid, version, ...extra });

describe("the registry", () => {
  it("has one entry per id, each with a statement and a source", () => {
    const ids = INVARIANTS.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const i of INVARIANTS) {
      expect(i.statement.length).toBeGreaterThan(20);
      expect(i.source.length).toBeGreaterThan(10);
    }
  });

  it("expands `all` to every registered invariant but the opt-in ones, in registry order, and keeps unknown ids for makeMonitors to refuse", () => {
    const all = INVARIANTS.filter((i) => i.optIn !== true).map((i) => i.id);
    expect(resolveInvariantIds([ALL_INVARIANTS])).toEqual(all);
    expect(resolveInvariantIds(["never-policy-runs-twice", "all", "nope"])).toEqual([...all, "nope"]);
    expect(INVARIANTS.filter((i) => i.optIn === true).map((i) => i.id)).toEqual(["crash-restart-before-backoff"]);
  });
});

describe("status-version-monotonic", () => {
  const id = "status-version-monotonic";
  it.each([
    ["a version cached twice", [status(1, "SetPodStatus", "u", 1), status(2, "SetContainerReadiness", "u", 2), status(3, "SetPodStatus", "u", 2)], 1],
    ["an older version written after a newer one", [status(1, "PatchStatus", "u", 3, { result: "patched" }), status(2, "PatchStatus", "u", 2, { result: "patched" })], 1],
    ["versions that grow, a patch that lags the cache", [status(1, "SetPodStatus", "u", 1), status(2, "SetPodStatus", "u", 2), status(3, "PatchStatus", "u", 1, { result: "patched" }), status(4, "TerminatePod", "u", 3), status(5, "PatchStatus", "u", 3, { result: "unchanged" })], 0],
    ["a failed patch of an old version", [status(1, "PatchStatus", "u", 3, { result: "patched" }), status(2, "PatchStatus", "u", 2, { result: "Conflict" })], 0],
    ["a kubelet restart starts again at 1", [status(1, "SetPodStatus", "u", 4), R(2, "kubelet", "KubeletStart"), status(3, "SetPodStatus", "u", 1)], 0],
    ["a forgotten status starts again at 1", [status(1, "SetPodStatus", "u", 4), status(2, "DeletePod", "u", 4, { result: "deleted" }), status(3, "SetPodStatus", "u", 1)], 0],
    ["orphaned statuses are forgotten", [status(1, "SetPodStatus", "u", 4), R(2, "status", "RemoveOrphanedStatuses", { uids: ["u"] }), status(3, "SetPodStatus", "u", 1)], 0],
    ["two pods count apart", [status(1, "SetPodStatus", "u", 5), status(2, "SetPodStatus", "v", 1)], 0],
  ])("%s", (_name, records, fired) => {
    expect(violations(id, records)).toHaveLength(fired);
  });
});

describe("terminal-phase-never-changes", () => {
  const id = "terminal-phase-never-changes";
  it.each([
    ["Succeeded, then Running", [view(1, "default/web", "u", "Succeeded"), view(2, "default/web", "u", "Running")], 1],
    ["Failed, then Succeeded (#58711)", [view(1, "default/web", "u", "Failed"), view(2, "default/web", "u", "Succeeded")], 1],
    ["Running, Succeeded, Succeeded as it is deleted", [view(1, "default/web", "u"), view(2, "default/web", "u", "Succeeded"), view(3, "default/web", "u", "Succeeded", { deleted: true })], 0],
    ["a new pod under the same name starts Pending", [view(1, "default/web", "u", "Failed"), view(2, "default/web", "u2", "Pending")], 0],
  ])("%s", (_name, records, fired) => {
    expect(violations(id, records)).toHaveLength(fired);
  });
});

describe("at-most-one-running-container", () => {
  const id = "at-most-one-running-container";
  it.each([
    ["a second app while the first runs (#121003)", [view(0, "default/always", "u"), startCall(1, "default/always", "c-1"), startCall(2, "default/always", "c-2")], 1],
    ["a restart after the exit", [view(0, "default/always", "u"), startCall(1, "default/always", "c-1"), exited(2, "default/always", "c-1"), startCall(3, "default/always", "c-2")], 0],
    ["two containers of different names", [view(0, "default/always", "u"), startCall(1, "default/always", "c-1"), startCall(2, "default/always", "c-2", "sidecar")], 0],
    ["a recreated pod (new UID) while the old one's container runs", [view(0, "default/always", "u"), startCall(1, "default/always", "c-1"), view(2, "default/always", "u2", "Pending"), startCall(3, "default/always", "c-2")], 0],
  ])("%s", (_name, records, fired) => {
    expect(violations(id, records)).toHaveLength(fired);
  });
});

describe("never-policy-runs-twice", () => {
  const id = "never-policy-runs-twice";
  // Its starts are the CRI StartContainer calls that succeeded (the record the default timeline shows).
  const startCall = (t: number, pod: string, id: string) => R(t, "runtime", "StartContainer", { pod, container: "app", id, tookMs: 1, result: "ok" });
  it.each([
    ["a Never container started again after it exited (#51142)", [view(0, "default/web", "u"), startCall(1, "default/web", "c-1"), exited(2, "default/web", "c-1"), startCall(3, "default/web", "c-2")], 1],
    ["an Always container restarted", [view(0, "default/always", "u"), startCall(1, "default/always", "c-1"), exited(2, "default/always", "c-1"), startCall(3, "default/always", "c-2")], 0],
    ["a Never pod recreated under the same name", [view(0, "default/web", "u"), startCall(1, "default/web", "c-1"), exited(2, "default/web", "c-1"), view(3, "default/web", "u2", "Pending"), startCall(4, "default/web", "c-2")], 0],
  ])("%s", (_name, records, fired) => {
    expect(violations(id, records)).toHaveLength(fired);
  });
});

describe("api-delete-before-containers-stopped", () => {
  const id = "api-delete-before-containers-stopped";
  const kubeletDelete = (t: number, pod: string, uid: string, actor = "kubelet") =>
    R(t, "apiserver", "Delete", { actor, pod, gracePeriodSeconds: 0, uid, deleted: true, result: "ok" });
  it.each([
    ["the kubelet deletes the object while app runs (R02)", [view(0, "default/web", "u"), started(1, "default/web", "c-1"), kubeletDelete(2, "default/web", "u")], 1],
    ["the status manager's DeletePod while app runs", [view(0, "default/web", "u"), started(1, "default/web", "c-1"), status(2, "DeletePod", "u", 3, { result: "deleted" })], 1],
    ["the delete after the exit", [view(0, "default/web", "u"), started(1, "default/web", "c-1"), exited(2, "default/web", "c-1"), kubeletDelete(3, "default/web", "u")], 0],
    ["a user's force delete is the user's business", [view(0, "default/web", "u"), started(1, "default/web", "c-1"), kubeletDelete(2, "default/web", "u", "user")], 0],
    ["a mirror pod replaced while its static pod runs", [view(0, "kube-system/etcd-node-1", "m"), started(1, "kube-system/etcd-node-1", "c-1", "etcd"), kubeletDelete(2, "kube-system/etcd-node-1", "m")], 0],
    ["a delete of another pod (another UID) under the same name", [view(0, "default/web", "u"), started(1, "default/web", "c-1"), kubeletDelete(2, "default/web", "old")], 0],
  ])("%s", (_name, records, fired) => {
    expect(violations(id, records)).toHaveLength(fired);
  });
});

describe("ready-while-container-not-running (reads the apiserver's objects)", () => {
  const id = "ready-while-container-not-running";
  const pod = (ready: string, state: Fields | null, phase = "Running"): Pod => ({
    apiVersion: "v1", kind: "Pod", metadata: { name: "always", namespace: "default", uid: "u" },
    spec: { containers: [{ name: "app", image: "x" }] },
    status: { phase, conditions: [{ type: "Ready", status: ready }], containerStatuses: state === null ? [] : [{ name: "app", ready: ready === "True", restartCount: 0, image: "x", imageID: "", state }] },
  } as unknown as Pod);
  const write = (p: Pod): StoredEvent => ({ type: "MODIFIED", resourceVersion: 2, object: p, prevObject: null });
  const fire = (p: Pod) => INVARIANTS.find((i) => i.id === id)!.make(SCENARIO).observeApi!(write(p), 1000);

  it.each([
    ["Ready=True with app terminated (R12, #108594)", pod("True", { terminated: { exitCode: 0 } }, "Succeeded"), true],
    ["Ready=True with app waiting", pod("True", { waiting: { reason: "CrashLoopBackOff" } }), true],
    ["Ready=True with no status for app", pod("True", null), true],
    ["Ready=True with app running", pod("True", { running: {} }), false],
    ["Ready=False with app terminated", pod("False", { terminated: { exitCode: 1 } }), false],
  ])("%s", (_name, p, fired) => {
    expect(fire(p) !== null).toBe(fired);
  });

  it("is reported by the Checker from the apiserver writes it observes", () => {
    const scenario = { ...SCENARIO, expect: [{ kind: "never" as const, condition: { invariant: id } }] };
    const checker = new Checker(scenario);
    const observers: ((e: StoredEvent) => void)[] = [];
    const sim = { nowMs: 1000, emit: () => undefined } as unknown as Sim;
    checker.attach(sim, { apiObservers: observers } as unknown as SimNode);
    observers[0]!(write(pod("True", { terminated: { exitCode: 0 } }, "Succeeded")));
    expect(checker.report().violations.map((v) => v.invariant)).toEqual([id]);
  });

  it("decides the invariants' expectations at the violation, in the scenario's order, beside the pods' ones", () => {
    // The Checker looks at an invariant's expectation only when a violation is reported (checker.ts
    // `watched`): each must still be decided when, and in the order, it would be if looked at always.
    const scenario = {
      ...SCENARIO,
      expect: [
        { kind: "eventually" as const, condition: { pod: "default/always", phase: "Succeeded" as const }, byMs: null },
        { kind: "eventually" as const, condition: { invariant: id }, byMs: 5000 },
        { kind: "never" as const, condition: { invariant: "lost-wakeup" } },
        { kind: "never" as const, condition: { invariant: id } },
        { kind: "eventually" as const, condition: { invariant: id }, byMs: 500 },
        { kind: "at" as const, atMs: 2000, condition: { invariant: id } },
      ],
    };
    const checker = new Checker(scenario);
    const observers: ((e: StoredEvent) => void)[] = [];
    const decided: string[] = [];
    const sim = { nowMs: 0, emit: (_c: string, kind: string, f: Fields) => void (kind === "Expectation" && decided.push(`${sim.nowMs} #${String(f.index)} ${String(f.ok)}`)) };
    checker.attach(sim as unknown as Sim, { apiObservers: observers } as unknown as SimNode);
    sim.nowMs = 100;
    observers[0]!(write(pod("True", { running: {} })));
    sim.nowMs = 1000;
    observers[0]!(write(pod("True", { terminated: { exitCode: 0 } }, "Succeeded")));
    sim.nowMs = 3000;
    checker.write({ t: 3000, seq: 0, component: "kubelet", kind: "Tick" } as TraceRecord);
    checker.finish(sim as unknown as Sim);
    expect(decided).toEqual(["1000 #0 true", "1000 #1 true", "1000 #3 false", "3000 #5 true", "3000 #2 true", "3000 #4 false"]);
    expect(checker.report().expectations.map((r) => [r.ok, r.atMs])).toEqual([
      [true, 1000], [true, 1000], [true, null], [false, 1000], [false, null], [true, 2000],
    ]);
  });
});
