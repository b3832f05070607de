// The invariants added for R04, R06, R11 and R12 on hand-written traces and API writes: where each
// fires, and where it must not. And start-after-termination-requested's false alarm: a correct static
// pod update under a fixed kubelet (the mirror pod's deletion is not a termination request).
import { describe, expect, it } from "vitest";
import type { TraceRecord } from "../../src/sim/index.ts";
import type { StoredEvent } from "../../src/apiserver/index.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import { INVARIANTS } from "../../src/check/invariants/index.ts";
import { loadScenarioText, type Scenario } from "../../src/scenario/index.ts";

type Fields = Record<string, unknown>;
type Input = { rec: Omit<TraceRecord, "seq"> } | { api: StoredEvent; t: number };
const R = (t: number, component: string, kind: string, fields: Fields = {}): Input => ({ rec: { t, component, kind, ...fields } });

function scenario(version: string, source: "file" | "api"): Scenario {
  return loadScenarioText(`
name: monitors
kubelet: { version: "${version}" }
pods:
  - ${source === "file" ? "source: file\n    " : ""}manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web }
      spec: { containers: [{ name: app, image: x }] }
`).scenario;
}

function violations(id: string, inputs: Input[], s: Scenario): string[] {
  const m = INVARIANTS.find((i) => i.id === id)!.make(s);
  return inputs.flatMap((x, seq) => {
    const v = "rec" in x ? m.observe({ ...x.rec, seq } as TraceRecord) : (m.observeApi?.(x.api, x.t) ?? null);
    return v === null ? [] : [`${v.t} ${v.pod}: ${v.message}`];
  });
}

const STATIC = "default/web-node-1";
const sync = (t: number, uid: string, pod = STATIC) => R(t, "kubelet", "SyncPod", { pod, uid, updateType: "create" });
const started = (t: number, id: string, pod = STATIC) => R(t, "runtime", "StartContainer", { pod, container: "app", id, tookMs: 100, result: "ok" });
const exited = (t: number, id: string, pod = STATIC) => R(t, "runtime", "ContainerExited", { pod, container: "app", id, exitCode: 0 });
const podView = (t: number, uid: string, pod = "default/web") => R(t, "apiserver", "PodView", { pod, uid });

describe("one-static-pod-per-full-name", () => {
  const s = scenario("1.22.4", "file");

  it("fires when the new UID's container starts while the old UID's still runs", () => {
    const got = violations("one-static-pod-per-full-name", [sync(0, "old"), started(1_000, "c-1"), sync(5_000, "new"), started(6_000, "c-2"), exited(55_000, "c-1")], s);
    expect(got).toEqual([expect.stringMatching(/^6000 default\/web-node-1: container app \(c-2\) of pod UID new started while container app \(c-1\) of UID old/)]);
  });

  it("holds when the new UID starts after the old one exited, and for restarts of one UID", () => {
    expect(violations("one-static-pod-per-full-name", [sync(0, "old"), started(1_000, "c-1"), sync(5_000, "new"), exited(55_000, "c-1"), started(57_000, "c-2")], s)).toEqual([]);
    expect(violations("one-static-pod-per-full-name", [sync(0, "u"), started(1_000, "c-1"), started(2_000, "c-2")], s)).toEqual([]);
  });

  it("leaves pods from the apiserver alone", () => {
    const api = scenario("1.22.4", "api");
    const trace = [sync(0, "old", "default/web"), started(1_000, "c-1", "default/web"), sync(5_000, "new", "default/web"), started(6_000, "c-2", "default/web")];
    expect(violations("one-static-pod-per-full-name", trace, api)).toEqual([]);
  });
});

function pod(uid: string, over: { grace?: number; phase?: "Pending" | "Running" | "Succeeded" | "Failed"; ready?: boolean } = {}): Pod {
  return {
    metadata: { name: "web", namespace: "default", uid, ...(over.grace === undefined ? {} : { deletionGracePeriodSeconds: over.grace, deletionTimestamp: "2025-01-01T00:00:00Z" }) },
    spec: { containers: [{ name: "app" }] },
    status: {
      ...(over.phase === undefined ? {} : { phase: over.phase }),
      ...(over.ready === undefined ? {} : { conditions: [{ type: "Ready", status: over.ready ? "True" : "False" }] }),
    },
  } as Pod;
}
const api = (t: number, p: Pod, type: StoredEvent["type"] = "MODIFIED"): Input => ({ t, api: { type, resourceVersion: t, object: p, prevObject: null } });

describe("shortened-grace-period-honoured", () => {
  const s = scenario("1.30", "api");
  const running = [podView(0, "u1"), started(1_000, "c-1", "default/web")];
  const del = (t: number, grace: number, pod = "default/web") =>
    R(t, "apiserver", "Delete", { actor: "user", pod, uid: "u1", deleted: false, deletionGracePeriodSeconds: grace, result: "ok" });

  it("fires once the shortened deadline (plus a relist period and 2s) passes with a container still running", () => {
    const got = violations("shortened-grace-period-honoured", [
      ...running, del(5_000, 120), del(15_000, 10), podView(27_000, "u1"), podView(28_001, "u1"), podView(40_000, "u1"),
    ], s);
    expect(got).toEqual(["28001 default/web: the grace period was shortened from 120s to 10s at 15000ms, so the pod's containers had to stop by 25000ms, but app (c-1) still ran at 28001ms"]);
  });

  it("counts a grace below kuberuntime's 2s minimum as 2s (found by the fixed side's sweep: 1s asked, SIGKILL 2s after the new kill)", () => {
    const trace = (exitMs: number) => [...running, del(5_000, 120), del(18_089, 1), podView(exitMs - 1, "u1"), exited(exitMs, "c-1", "default/web"), podView(40_000, "u1")];
    expect(violations("shortened-grace-period-honoured", trace(21_111), s)).toEqual([]);
    expect(violations("shortened-grace-period-honoured", trace(23_090), s)).toEqual([]);
    expect(violations("shortened-grace-period-honoured", trace(23_091), s)).toEqual([
      "23090 default/web: the grace period was shortened from 120s to 1s at 18089ms, so the pod's containers had to stop by 20089ms, but app (c-1) still ran at 23090ms",
    ]);
  });

  it("holds when the container stops by the shortened deadline, and when the grace never shrank", () => {
    expect(violations("shortened-grace-period-honoured", [...running, del(5_000, 120), del(15_000, 10), exited(25_100, "c-1", "default/web"), podView(40_000, "u1")], s)).toEqual([]);
    expect(violations("shortened-grace-period-honoured", [...running, del(5_000, 30), del(6_000, 30), podView(60_000, "u1")], s)).toEqual([]);
  });

  it("leaves static pods alone: deleting a mirror pod does not stop its static pod", () => {
    const stat = scenario("1.30", "file");
    const trace = [sync(0, "u1"), started(1_000, "c-1"), del(5_000, 120, STATIC), del(15_000, 10, STATIC), podView(40_000, "u1", STATIC)];
    expect(violations("shortened-grace-period-honoured", trace, stat)).toEqual([]);
  });
});

describe("terminal-phase-before-containers-stopped", () => {
  const s = scenario("1.23", "api");

  it("fires when the API shows Succeeded or Failed while a container runs", () => {
    const got = violations("terminal-phase-before-containers-stopped", [podView(0, "u1"), started(1_000, "c-1", "default/web"), api(5_000, pod("u1", { phase: "Failed" }))], s);
    expect(got).toEqual(["5000 default/web: the apiserver shows phase Failed while container(s) app (c-1) still run"]);
  });

  it("holds when the phase turns terminal after the containers stopped, or for another UID under the name", () => {
    expect(violations("terminal-phase-before-containers-stopped", [podView(0, "u1"), started(1_000, "c-1", "default/web"), exited(4_000, "c-1", "default/web"), api(5_000, pod("u1", { phase: "Succeeded" }))], s)).toEqual([]);
    expect(violations("terminal-phase-before-containers-stopped", [podView(0, "u1"), started(1_000, "c-1", "default/web"), api(5_000, pod("u2", { phase: "Failed" }))], s)).toEqual([]);
  });
});

describe("ready-with-terminal-phase", () => {
  const s = scenario("1.22", "api");

  it("fires once for a terminal pod shown Ready=True", () => {
    const got = violations("ready-with-terminal-phase", [api(1, pod("u1", { phase: "Failed", ready: true })), api(2, pod("u1", { phase: "Failed", ready: true }))], s);
    expect(got).toEqual(["1 default/web: the apiserver shows phase Failed with Ready=True (the PodView at 1ms)"]);
  });

  it("holds for a running Ready pod and a terminal unready one", () => {
    expect(violations("ready-with-terminal-phase", [api(1, pod("u1", { phase: "Running", ready: true })), api(2, pod("u1", { phase: "Succeeded", ready: false }))], s)).toEqual([]);
  });
});

describe("start-after-termination-requested: a static pod update is not a termination of the new pod", () => {
  const trace = (mirrorDeleted: Input) => [
    sync(0, "old"),
    R(1_636, "runtime", "CreateContainer", { pod: STATIC, container: "app", tookMs: 100, result: "ok" }),
    R(5_000, "podworker", "TerminationRequested", { pod: STATIC, uid: "old", why: "killed" }),
    mirrorDeleted,
    sync(56_004, "new"),
    R(57_646, "runtime", "CreateContainer", { pod: STATIC, container: "app", tookMs: 100, result: "ok" }),
  ];

  it("1.23: the old UID's termination and the mirror pod's deletion do not count against the new UID", () => {
    const s = scenario("1.23", "file");
    expect(violations("start-after-termination-requested", trace(R(56_024, "kubelet", "SyncLoopDELETE", { source: "api", pods: [STATIC] })), s)).toEqual([]);
  });

  it("still fires for the old UID if it starts a container after its own termination request", () => {
    const s = scenario("1.23", "file");
    const late = [sync(0, "old"), R(5_000, "podworker", "TerminationRequested", { pod: STATIC, uid: "old", why: "killed" }), R(6_100, "runtime", "StartContainer", { pod: STATIC, container: "app", tookMs: 100, result: "ok" })];
    expect(violations("start-after-termination-requested", late, s)).toEqual([expect.stringMatching(/^6100 .*StartContainer of container app of pod UID old began at 6000ms, after its termination was requested at 5000ms \(killed\)/)]);
  });

  it("1.21: a static pod update REMOVEs the old UID; the new UID's containers are not judged by it (R04 under 1.21)", () => {
    const legacyFile = scenario("1.21", "file");
    const update = [sync(0, "old"), R(5_000, "kubelet", "SyncLoopREMOVE", { source: "file", pods: [STATIC] }), sync(5_004, "new"), R(6_542, "runtime", "CreateContainer", { pod: STATIC, container: "app", tookMs: 100, result: "ok" })];
    expect(violations("start-after-termination-requested", update, legacyFile)).toEqual([]);
    // The old UID starting a container after its own REMOVE is still judged, and named.
    const late = [sync(0, "old"), R(5_000, "kubelet", "SyncLoopREMOVE", { source: "file", pods: [STATIC] }), R(6_100, "runtime", "StartContainer", { pod: STATIC, container: "app", tookMs: 100, result: "ok" })];
    expect(violations("start-after-termination-requested", late, legacyFile)).toEqual([expect.stringMatching(/of pod UID old began at 6000ms, after its termination was requested at 5000ms \(SyncLoopREMOVE\)$/)]);
  });

  it("1.21: a deletion before any UID was seen under the name is a request by name", () => {
    const legacyApi = scenario("1.21", "api");
    const early = [R(1_000, "kubelet", "SyncLoopDELETE", { source: "api", pods: ["default/web"] }), sync(1_500, "u1", "default/web"), R(2_100, "runtime", "CreateContainer", { pod: "default/web", container: "app", tookMs: 100, result: "ok" })];
    expect(violations("start-after-termination-requested", early, legacyApi)).toEqual([expect.stringMatching(/CreateContainer of container app began at 2000ms, after its termination was requested at 1000ms \(SyncLoopDELETE\)$/)]);
  });

  it("1.21: an API deletion of a pod from the apiserver is a request, a mirror pod's is not", () => {
    const legacyApi = scenario("1.21", "api");
    const apiTrace = [sync(0, "u1", "default/web"), R(1_000, "kubelet", "SyncLoopDELETE", { source: "api", pods: ["default/web"] }), R(2_100, "runtime", "CreateContainer", { pod: "default/web", container: "app", tookMs: 100, result: "ok" })];
    expect(violations("start-after-termination-requested", apiTrace, legacyApi)).toHaveLength(1);
    expect(violations("start-after-termination-requested", trace(R(56_024, "kubelet", "SyncLoopDELETE", { source: "api", pods: [STATIC] })).filter((x) => !("rec" in x && x.rec.kind === "TerminationRequested")), scenario("1.21", "file"))).toEqual([]);
  });
});
