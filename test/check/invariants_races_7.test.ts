// The invariants added for R17-R25 on hand-written traces and API writes: where each fires, and
// where it must not (the false alarms each rule's exemptions are there for).
import { describe, expect, it } from "vitest";
import type { TraceRecord } from "../../src/sim/index.ts";
import type { StoredEvent } from "../../src/apiserver/index.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import { ALL_INVARIANTS, INVARIANTS, resolveInvariantIds } from "../../src/check/invariants/index.ts";
import { loadScenarioText, type Scenario } from "../../src/scenario/index.ts";

type Fields = Record<string, unknown>;
type Input = { rec: Omit<TraceRecord, "seq"> } | { api: StoredEvent; t: number };
const R = (t: number, component: string, kind: string, fields: Fields = {}): Input => ({ rec: { t, component, kind, ...fields } });
const POD = "default/web";

function scenario(spec: string, restartPolicy = "Always"): Scenario {
  return loadScenarioText(`
name: monitors
kubelet: { version: "1.35" }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web }
      spec:
        restartPolicy: ${restartPolicy}
${spec}
`).scenario;
}

function violations(id: string, inputs: Input[], s: Scenario): string[] {
  const m = INVARIANTS.find((i) => i.id === id)!.make(s);
  return inputs.flatMap((x, seq) => {
    const v = "rec" in x ? m.observe({ ...x.rec, seq } as TraceRecord) : (m.observeApi?.(x.api, x.t) ?? null);
    return v === null ? [] : [`${v.t}: ${v.message}`];
  });
}

const started = (t: number, id: string, container = "app") => R(t, "runtime", "StartContainer", { pod: POD, container, id, tookMs: 100, result: "ok" });
const exited = (t: number, id: string, container = "app", exitCode = 1) => R(t, "runtime", "ContainerExited", { pod: POD, container, id, exitCode });
const kubeletStart = (t: number) => R(t, "kubelet", "KubeletStart", {});
const tick = (t: number) => R(t, "pleg", "relist", { pods: 1 });

describe("probe-before-startup-success", () => {
  const s = scenario(`        containers:
          - { name: app, image: x, startupProbe: { exec: { command: [a] } }, livenessProbe: { exec: { command: [a] } } }`);
  const run = (t: number, id: string, probeType: string) => R(t, "prober", "ProbeRun", { pod: POD, container: "app", containerID: `containerd://${id}`, probeType });
  const ok = (t: number, id: string) => R(t, "prober", "ResultSet", { containerID: `containerd://${id}`, probeType: "startup", result: "Success" });

  it("fires when a new container's liveness probe runs before its own startup success (R17)", () => {
    const trace = [kubeletStart(0), started(1_000, "c-1"), ok(20_000, "c-1"), run(21_000, "c-1", "liveness"), started(64_000, "c-2"), run(64_800, "c-2", "liveness"), run(65_800, "c-2", "liveness")];
    expect(violations("probe-before-startup-success", trace, s)).toEqual([
      "64800: liveness probe of container app (c-2, started at 64000ms) ran at 64800ms, before its startup probe had succeeded",
    ]);
  });

  it("holds for a container already running when the kubelet (re)started (KEP-4781 keeps its Started)", () => {
    const trace = [kubeletStart(0), started(1_000, "c-1"), ok(20_000, "c-1"), kubeletStart(30_000), run(31_000, "c-1", "liveness")];
    expect(violations("probe-before-startup-success", trace, s)).toEqual([]);
    expect(violations("probe-before-startup-success", [kubeletStart(0), started(1_000, "c-1"), kubeletStart(30_000), run(31_000, "c-1", "readiness")], s)).toEqual([]);
  });
});

describe("ready-before-readiness-success", () => {
  const pod = (ready: boolean, id = "c-2"): Pod => ({
    metadata: { name: "web", namespace: "default", uid: "u1" },
    spec: { containers: [{ name: "app", image: "x", readinessProbe: { periodSeconds: 10 } }] },
    status: { containerStatuses: [{ name: "app", ready, containerID: `containerd://${id}`, restartCount: 1, image: "x", imageID: "", state: { running: {} } }] },
  }) as Pod;
  const api = (t: number, p: Pod): Input => ({ api: { type: "MODIFIED", object: p } as StoredEvent, t });
  const success = (t: number, id: string) => R(t, "prober", "ResultSet", { containerID: `containerd://${id}`, probeType: "readiness", result: "Success" });

  it("fires when a container is shown ready without a success for longer than a period + 2 s (R18)", () => {
    expect(violations("ready-before-readiness-success", [api(116_000, pod(true)), tick(120_000), tick(128_001), tick(140_000)], scenario("        containers: [{ name: app, image: x }]"))).toEqual([
      "128001: the apiserver has shown container app (c-2) ready since 116000ms, and still does at 128001ms, although no readiness probe of that container has succeeded (grace: 12000ms)",
    ]);
  });

  it("holds for the first sync's brief ready (workers not started yet), and after a real success", () => {
    const s = scenario("        containers: [{ name: app, image: x }]");
    expect(violations("ready-before-readiness-success", [api(116_000, pod(true)), api(116_020, pod(false)), tick(140_000)], s)).toEqual([]);
    expect(violations("ready-before-readiness-success", [success(60_000, "c-2"), api(60_010, pod(true)), tick(140_000)], s)).toEqual([]);
  });
});

describe("exited-container-not-restarted", () => {
  const s = scenario("        containers: [{ name: app, image: x }, { name: side, image: x }]");
  const died = (t: number, id: string, exitCode = 1) => R(t, "pleg", "ContainerDied", { pod: POD, uid: "u1", containerID: id, exitCode });
  const actions = (t: number, start: string, extra = "KillPod: false, CreateSandbox: false") =>
    R(t, "kuberuntime", "computePodActions", { pod: POD, actions: `${extra}, Attempt: 0, InitContainersToStart: [], ContainersToStart: [${start}], EphemeralContainersToStart: [], ContainersToKill: map[]` });
  // 1.5 x 60 s + 2 x 1 s.
  const BOUND = 92_000;

  it("fires when no sync takes the dead container up within the bound (R19)", () => {
    const got = violations("exited-container-not-restarted", [started(1_000, "c-1"), died(40_000, "c-1"), actions(40_100, ""), tick(40_000 + BOUND + 1)], s);
    expect(got).toEqual([expect.stringMatching(/^132001: container app \(c-1\) died at 40000ms/)]);
  });

  it("holds once a computePodActions lists it (back-off may delay the start), or the sandbox is recreated", () => {
    expect(violations("exited-container-not-restarted", [started(1_000, "c-1"), died(40_000, "c-1"), actions(40_100, "0"), tick(300_000)], s)).toEqual([]);
    expect(violations("exited-container-not-restarted", [started(1_000, "c-1"), died(40_000, "c-1"), actions(40_100, "", "KillPod: true, CreateSandbox: true"), tick(300_000)], s)).toEqual([]);
  });

  it("owes nothing under restartPolicy Never, nor to a pod being terminated", () => {
    const never = scenario("        containers: [{ name: app, image: x }]", "Never");
    expect(violations("exited-container-not-restarted", [started(1_000, "c-1"), died(40_000, "c-1"), tick(300_000)], never)).toEqual([]);
    const kill = R(40_500, "podworker", "UpdatePod", { pod: POD, uid: "u1", updateType: "kill" });
    expect(violations("exited-container-not-restarted", [started(1_000, "c-1"), died(40_000, "c-1"), kill, tick(300_000)], s)).toEqual([]);
  });
});

describe("sidecar-termination-stalled", () => {
  const s = scenario(`        initContainers:
          - { name: proxy, image: x, restartPolicy: Always }
          - { name: agent, image: x, restartPolicy: Always }
        containers: [{ name: app, image: x }]`);
  const terminating = (t: number) => R(t, "podworker", "SyncBegin", { pod: POD, uid: "u1", mode: "terminating" });
  const stop = (t: number, id: string, container: string, tookMs = 10) => R(t, "runtime", "StopContainer", { pod: POD, container, id, tookMs, result: "ok" });
  const signal = (t: number, id: string, container: string) => R(t, "runtime", "Signal", { pod: POD, container, id, signal: "SIGTERM" });

  it("fires when a sidecar that waits for nothing running gets no stop (R23: agent never started)", () => {
    expect(violations("sidecar-termination-stalled", [started(1_000, "c-1", "proxy"), terminating(30_000), tick(32_001), stop(630_010, "c-1", "proxy")], s)).toEqual([
      "32001: container proxy (c-1) could be stopped from 30000ms (every container it waits for had exited or was not running), but had no stop signal by 32001ms",
    ]);
  });

  it("holds for the ordered termination: app first, agent after it, proxy last", () => {
    const trace = [
      started(1_000, "c-1", "proxy"), started(2_000, "c-2", "agent"), started(3_000, "c-3", "app"), terminating(30_000),
      signal(30_010, "c-3", "app"), exited(35_000, "c-3", "app", 0), stop(35_000, "c-3", "app", 5_000),
      signal(35_100, "c-2", "agent"), exited(35_500, "c-2", "agent", 0), stop(35_500, "c-2", "agent", 400),
      signal(35_600, "c-1", "proxy"), exited(36_000, "c-1", "proxy", 0), stop(36_000, "c-1", "proxy", 400), tick(60_000),
    ];
    expect(violations("sidecar-termination-stalled", trace, s)).toEqual([]);
  });
});

describe("terminating-sync-not-retried", () => {
  const s = scenario("        containers: [{ name: app, image: x }]");
  const pw = (t: number, kind: string, fields: Fields = {}) => R(t, "podworker", kind, { pod: POD, uid: "u1", ...fields });
  // 1.5 x 10 s + 2 x 2 s + 1 s.
  const BOUND = 20_000;

  it("fires when a failed terminating sync is never tried again (R24)", () => {
    const got = violations("terminating-sync-not-retried", [pw(10_000, "SyncBegin", { mode: "terminating" }), pw(10_100, "SyncEnd", { mode: "terminating", err: "rpc error" }), tick(10_100 + BOUND + 1)], s);
    expect(got).toEqual([expect.stringMatching(/^30101: the terminating sync of the pod failed at 10100ms \(rpc error\)/)]);
  });

  it("holds when the sync is retried, or the kubelet stops", () => {
    const retried = [pw(10_000, "SyncBegin", { mode: "terminating" }), pw(10_100, "SyncEnd", { mode: "terminating", err: "rpc error" }), pw(12_000, "SyncBegin", { mode: "terminating" }), tick(60_000)];
    expect(violations("terminating-sync-not-retried", retried, s)).toEqual([]);
    const stopped = [pw(10_100, "SyncEnd", { mode: "terminating", err: "rpc error" }), R(11_000, "kubelet", "KubeletStop"), tick(60_000)];
    expect(violations("terminating-sync-not-retried", stopped, s)).toEqual([]);
  });
});

describe("crash-restart-before-backoff", () => {
  const s = scenario("        containers: [{ name: app, image: x }]");
  const stop = (t: number, id: string) => R(t, "runtime", "StopContainer", { pod: POD, container: "app", id, tookMs: 10, result: "ok" });

  it("fires for the immediate restart after the first crash (R25), and for each step behind", () => {
    const trace = [kubeletStart(0), started(1_700, "c-1"), exited(2_200, "c-1"), started(3_200, "c-2"), exited(3_700, "c-2"), started(16_200, "c-3")];
    expect(violations("crash-restart-before-backoff", trace, s)).toEqual([
      "3200: container app restarted 1000ms after its exit #1 at 2200ms; its back-off was 10000ms",
      "16200: container app restarted 12500ms after its exit #2 at 3700ms; its back-off was 20000ms",
    ]);
  });

  it("does not count a kill by the kubelet (a liveness restart), nor instances of an earlier kubelet process", () => {
    expect(violations("crash-restart-before-backoff", [kubeletStart(0), started(1_700, "c-1"), exited(8_000, "c-1"), stop(8_000, "c-1"), started(8_200, "c-2")], s)).toEqual([]);
    expect(violations("crash-restart-before-backoff", [kubeletStart(0), started(1_700, "c-1"), kubeletStart(5_000), exited(8_000, "c-1"), started(8_500, "c-2")], s)).toEqual([]);
  });

  it("is opt-in: `all` leaves it out", () => {
    expect(resolveInvariantIds([ALL_INVARIANTS])).not.toContain("crash-restart-before-backoff");
    expect(resolveInvariantIds([ALL_INVARIANTS])).toContain("exited-container-not-restarted");
    expect(resolveInvariantIds(["crash-restart-before-backoff"])).toEqual(["crash-restart-before-backoff"]);
  });
});
