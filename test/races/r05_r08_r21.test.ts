// Races R05 (kill pinning), R08 (PLEG missed exit + removal) and R21 (init rerun after GC): what
// each side of the catalog entry shows beyond the invariant (test/docs/races.test.ts checks that),
// and the three monitors on hand-written traces, where they fire and where they must not.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import type { TraceRecord } from "../../src/sim/index.ts";
import { simulate, type SimulationResult } from "../../src/simulate.ts";
import { INVARIANTS } from "../../src/check/invariants/index.ts";
import { loadScenarioFile, loadScenarioText, type Scenario } from "../../src/scenario/index.ts";
import { withKubeletVersion } from "../../src/scenario/variants.ts";

const RACES_DIR = join(import.meta.dirname, "..", "..", "scenarios", "races");

/** A race scenario as one side runs it (the same sides as the catalog entries). */
function side(file: string, version: string, variants: Record<string, boolean> = {}): Scenario {
  const s = withKubeletVersion(loadScenarioFile(join(RACES_DIR, file)).scenario, version);
  return { ...s, kubelet: { ...s.kubelet, variants: { ...s.kubelet.variants, ...variants } } };
}
const records = (r: SimulationResult, component: string, kind: string) => r.records!.filter((x) => x.component === component && x.kind === kind);
const ok = (r: SimulationResult) => r.checks.expectations.map((e) => [e.description, e.ok]);

describe("R05: a pinned kill drops the PLEG's update (kubelet 1.20)", () => {
  const buggy = simulate(side("r05-pw-kill-pinning.yaml", "1.20"));
  const v121 = simulate(side("r05-pw-kill-pinning.yaml", "1.21"));
  const fixed = simulate(side("r05-pw-kill-pinning.yaml", "1.22"));

  it("1.20 drops the update the PLEG sent for b's exit, because the parked eviction is a kill", () => {
    const dropped = records(buggy, "podworker", "UpdateDropped");
    expect(dropped.map((x) => [x.t, x.updateType, x.pinnedBy])).toEqual([[8_071, "sync", "kill"]]);
    // The parked kill runs after the first kill, and no sync of the pod begins after it.
    const begins = records(buggy, "podworker", "SyncBegin").filter((x) => x.t > 5_000);
    expect(begins.map((x) => x.updateType)).toEqual(["update", "kill"]);
    expect(records(buggy, "kubelet", "DispatchIgnored").length).toBeGreaterThan(0);
  });

  it("1.20 never reports b's exit and never deletes the pod: it stays Terminating", () => {
    expect(ok(buggy)).toEqual([
      ["never invariant lost-wakeup violated", false],
      [expect.stringContaining("container b"), false],
      ["eventually default/web: gone by 120000ms", false],
    ]);
    const last = records(buggy, "apiserver", "PodView").at(-1)!;
    expect([last.phase, last.status, last.ready, last.deleted]).toEqual(["Failed", "Evicted", "2/2", undefined]);
  });

  it("1.21 (PR #98742) still drops it, but dispatchWork passes the next PLEG event on: the pod is deleted at 40s", () => {
    expect(records(v121, "podworker", "UpdateDropped").map((x) => x.t)).toEqual([8_071]);
    expect(records(v121, "kubelet", "DispatchIgnored").filter((x) => x.t < 40_000)).toEqual([]);
    expect(v121.checks.violations.map((v) => v.invariant)).not.toContain("lost-wakeup");
    expect(records(v121, "apiserver", "PodView").find((x) => x.deleted === true)?.t).toBe(40_025);
  });

  it("1.22 queues both updates, reports b's exit and deletes the pod once its worker terminated it", () => {
    expect(records(fixed, "podworker", "UpdateDropped")).toEqual([]);
    expect(ok(fixed).every(([, v]) => v === true)).toBe(true);
    const terminated = records(fixed, "podworker", "Terminated")[0]!;
    const deleted = records(fixed, "apiserver", "PodView").find((x) => x.deleted === true)!;
    expect(terminated.t).toBeLessThanOrEqual(deleted.t);
    expect(deleted.t).toBeLessThan(40_000);
  });
});

describe("R08: exit and removal between two relists (kubelet 1.21 PLEG with and without the v1.2 bug)", () => {
  const buggy = simulate(side("r08-pleg-missed-exit-and-remove.yaml", "1.21", { plegSetCurrentKeepsMissingPods: true }));
  const fixed = simulate(side("r08-pleg-missed-exit-and-remove.yaml", "1.21", { plegSetCurrentKeepsMissingPods: false }));
  const plegAfter = (r: SimulationResult, t: number) =>
    r.records!.filter((x) => x.component === "pleg" && x.kind.startsWith("Container") && x.t > t).map((x) => `${x.kind} ${String(x.containerID)}`);

  it("the pod vanishes from GetPods between the relists at 10.07s and 11.07s", () => {
    const relists = records(fixed, "pleg", "relist").filter((x) => x.t > 10_000 && x.t < 11_100);
    expect(relists.map((x) => [x.t, x.pods])).toEqual([[10_065, 1], [11_069, 0]]);
    expect(records(fixed, "runtime", "RemovePodSandbox").map((x) => x.t)).toEqual([10_550]);
  });

  it("the fixed PLEG reports Died and Removed for the container and the sandbox, and the pod is deleted", () => {
    expect(plegAfter(fixed, 9_000)).toEqual(["ContainerDied c-1", "ContainerRemoved c-1", "ContainerDied s-1", "ContainerRemoved s-1"]);
    expect(records(fixed, "cache", "Delete").map((x) => x.t)).toEqual([11_069]);
    expect(fixed.ok).toBe(true);
  });

  it("the buggy PLEG reports nothing; the cache keeps 'running' and the resync kills a container that is gone", () => {
    expect(plegAfter(buggy, 9_000)).toEqual([]);
    expect(ok(buggy)).toEqual([
      ["never invariant pleg-missed-container-change violated", false],
      ["eventually default/web: gone by 60000ms", false],
    ]);
    const stop = records(buggy, "runtime", "StopContainer").filter((x) => x.t > 60_000);
    expect(stop.length).toBeGreaterThan(0);
    expect(String(stop[0]!.error)).toMatch(/NotFound/);
  });
});

describe("R21: init runs again after its record is garbage-collected (kubelet 1.20)", () => {
  const buggy = simulate(side("r21-init-rerun-while-app-running.yaml", "1.20"));
  const fixed = simulate(side("r21-init-rerun-while-app-running.yaml", "1.21"));
  const starts = (r: SimulationResult, name: string) => records(r, "runtime", "StartContainer").filter((x) => x.container === name).map((x) => x.t);

  it("1.20 starts init a second time at the periodic resync, next to the running app, which is never stopped", () => {
    expect(starts(buggy, "init")).toEqual([1_742, 75_211]);
    expect(starts(buggy, "app")).toEqual([4_244]);
    expect(records(buggy, "runtime", "StopContainer")).toEqual([]);
    // While init runs again the pod reads as initializing: phase Pending, not Ready.
    expect(records(buggy, "apiserver", "PodView").some((x) => x.t > 75_000 && x.status === "Init:0/1")).toBe(true);
  });

  it("1.21.0 (PR #96572) leaves init alone: a running main container proves initialization done", () => {
    expect(starts(fixed, "init")).toEqual([1_742]);
    expect(fixed.ok).toBe(true);
  });
});

// ---- the monitors on hand-written traces ------------------------------------------------------

type Fields = Record<string, unknown>;
const R = (t: number, component: string, kind: string, fields: Fields = {}): Omit<TraceRecord, "seq"> => ({ t, component, kind, ...fields });

const SCENARIO = loadScenarioText(`
name: monitors
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web }
      spec:
        initContainers: [{ name: init, image: x }, { name: side, image: x, restartPolicy: Always }]
        containers: [{ name: app, image: x }]
`).scenario;

function violations(id: string, recs: Omit<TraceRecord, "seq">[], scenario: Scenario = SCENARIO): string[] {
  const m = INVARIANTS.find((i) => i.id === id)!.make(scenario);
  return recs.flatMap((r, seq) => {
    const v = m.observe({ ...r, seq } as TraceRecord);
    return v === null ? [] : [`${v.t}: ${v.message}`];
  });
}

const pw = (t: number, kind: string, fields: Fields = {}) => R(t, "podworker", kind, { pod: "default/web", uid: "u1", ...fields });
const tick = (t: number) => R(t, "pleg", "relist", { durationMs: 0, pods: 1, events: 0 });

describe("lost-wakeup", () => {
  // Bound with the defaults: 1.5 × 60 s + 2 × 1 s.
  const BOUND = 92_000;
  const pinned = [
    pw(0, "UpdatePod", { updateType: "update" }),
    pw(0, "SyncBegin", { updateType: "update" }),
    pw(1_000, "UpdatePod", { updateType: "kill" }),
    pw(2_000, "UpdatePod", { updateType: "sync" }),
    pw(2_000, "UpdateDropped", { updateType: "sync", pinnedBy: "kill" }),
    pw(30_000, "SyncEnd", { updateType: "update" }),
    pw(30_100, "SyncBegin", { updateType: "kill" }),
    pw(30_200, "SyncEnd", { updateType: "kill" }),
  ];

  it("fires once, past the deadline, for an update dropped behind a pinned kill and never served", () => {
    const got = violations("lost-wakeup", [...pinned, tick(30_000 + BOUND), tick(30_001 + BOUND), tick(200_000)]);
    expect(got).toEqual([expect.stringMatching(/^122001: the pod worker update \(sync\) at 2000ms was dropped/)]);
  });

  it("does not fire when the run ends before the deadline", () => {
    expect(violations("lost-wakeup", [...pinned, tick(120_000)])).toEqual([]);
  });

  it("a later accepted update serves the dropped one (coalescing), e.g. the periodic resync", () => {
    const resync = [pw(70_000, "UpdatePod", { updateType: "sync" }), pw(71_000, "SyncBegin", { updateType: "sync" })];
    expect(violations("lost-wakeup", [...pinned, ...resync, tick(300_000)])).toEqual([]);
  });

  it("an accepted update waits for the sync in progress, however long, before its clock starts", () => {
    const long = [
      pw(0, "UpdatePod", { updateType: "create" }),
      pw(0, "SyncBegin", { updateType: "create" }),
      pw(5_000, "UpdatePod", { updateType: "sync" }),
      tick(150_000),
      pw(200_000, "SyncEnd", { updateType: "create" }),
      pw(201_000, "SyncBegin", { updateType: "sync" }),
      tick(400_000),
    ];
    expect(violations("lost-wakeup", long)).toEqual([]);
  });

  it("updates owed nothing once the worker finished or the kubelet stopped", () => {
    const open = [pw(0, "UpdatePod", { updateType: "sync" }), pw(0, "UpdateDropped", { updateType: "sync" })];
    expect(violations("lost-wakeup", [...open, pw(1, "Finished"), tick(200_000)])).toEqual([]);
    expect(violations("lost-wakeup", [...open, R(1, "kubelet", "KubeletStop"), tick(200_000)])).toEqual([]);
  });

  it("a pod's removal forgives accepted updates still parked, not dropped ones", () => {
    const removed = R(1, "kubelet", "SyncLoopREMOVE", { pods: ["default/web"] });
    const accepted = [pw(0, "UpdatePod", { updateType: "create" }), pw(0, "SyncBegin"), pw(0, "UpdatePod", { updateType: "sync" })];
    expect(violations("lost-wakeup", [...accepted, pw(0, "SyncEnd"), removed, tick(200_000)])).toEqual([]);
    expect(violations("lost-wakeup", [...pinned, removed, tick(200_000)])).toHaveLength(1);
  });
});

describe("pleg-missed-container-change", () => {
  const create = (t: number, id: string) => R(t, "runtime", "CreateContainer", { pod: "default/web", container: "app", newId: id, result: "ok" });
  const event = (t: number, kind: string, id: string) => R(t, "pleg", kind, { pod: "default/web", uid: "u1", containerID: id });
  const relist = (t: number, durationMs = 4) => R(t, "pleg", "relist", { durationMs, pods: 1, events: 0 });
  const exit = (t: number, id: string) => R(t, "runtime", "ContainerExited", { pod: "default/web", container: "app", id });
  const rmp = (t: number) => R(t, "runtime", "RemovePodSandbox", { pod: "default/web", id: "s-1", result: "ok" });
  const seen = [create(500, "c-1"), event(1_004, "ContainerStarted", "c-1"), relist(1_004)];

  it("fires at the first relist after an exit and a sandbox removal that reports nothing", () => {
    expect(violations("pleg-missed-container-change", [...seen, exit(1_500, "c-1"), rmp(1_600), relist(2_004)])).toEqual([
      "2004: container app (c-1) exited, then was removed with its sandbox from 1500ms; the relist that began at 2000ms reported no event for it, so the pod cache kept its old state",
    ]);
  });

  it("holds when that relist reports the container", () => {
    expect(violations("pleg-missed-container-change", [...seen, exit(1_500, "c-1"), event(2_004, "ContainerDied", "c-1"), relist(2_004)])).toEqual([]);
  });

  it("does not owe a relist that began before the change, or one that failed to inspect the pod", () => {
    expect(violations("pleg-missed-container-change", [...seen, exit(2_001, "c-1"), relist(2_004)])).toEqual([]);
    const failed = R(2_003, "cache", "Set", { pod: "default/web", uid: "u1", err: "rpc error" });
    expect(violations("pleg-missed-container-change", [...seen, exit(1_500, "c-1"), failed, relist(2_004)])).toEqual([]);
  });

  it("knows the pod of a failed inspection by its UID when the record lacks its name (the sandbox vanished mid-relist)", () => {
    const inspected = R(1_004, "cache", "Set", { pod: "default/web", uid: "u1", timeMs: 1_000 });
    const failed = R(2_003, "cache", "Set", { uid: "u1", err: "rpc error: code = NotFound" });
    expect(violations("pleg-missed-container-change", [...seen, inspected, exit(1_500, "c-1"), failed, relist(2_004)])).toEqual([]);
  });

  it("does not owe events for a container the PLEG never saw (created, exited and removed within one period)", () => {
    expect(violations("pleg-missed-container-change", [create(1_100, "c-2"), exit(1_400, "c-2"), rmp(1_700), relist(2_004)])).toEqual([]);
  });
});

describe("init-rerun-after-app-started", () => {
  const sandbox = (t: number, id: string) => R(t, "runtime", "RunPodSandbox", { pod: "default/web", newId: id, result: "ok" });
  const start = (t: number, container: string) => R(t, "runtime", "StartContainer", { pod: "default/web", container, id: `${container}-${t}`, tookMs: 100, result: "ok" });

  it("fires when an init container starts again after the app started in the same sandbox", () => {
    expect(violations("init-rerun-after-app-started", [sandbox(500, "s-1"), start(1_000, "init"), start(3_000, "app"), start(75_000, "init")])).toEqual([
      "75000: init container init started again at 74900ms in sandbox s-1, where container app had already started at 2900ms",
    ]);
  });

  it("holds for a new sandbox, and for sidecars", () => {
    const newSandbox = [sandbox(500, "s-1"), start(1_000, "init"), start(3_000, "app"), sandbox(60_000, "s-2"), start(61_000, "init")];
    expect(violations("init-rerun-after-app-started", newSandbox)).toEqual([]);
    expect(violations("init-rerun-after-app-started", [sandbox(500, "s-1"), start(1_000, "side"), start(3_000, "app"), start(9_000, "side")])).toEqual([]);
  });
});

describe("the removeSandbox step", () => {
  it("parses to the pod it names", () => {
    const s = loadScenarioText(`
name: rmp
pods: [{ manifest: { metadata: { name: web }, spec: { containers: [{ name: app, image: x }] } } }]
timeline: [{ at: 1s, removeSandbox: web }]
`).scenario;
    expect(s.timeline).toEqual([{ atMs: 1_000, kind: "removeSandbox", pod: "default/web" }]);
  });
});
