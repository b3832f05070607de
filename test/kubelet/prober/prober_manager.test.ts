// The probe manager with the real status manager: startup gates liveness, readiness reaches the
// pod's Ready condition (through the syncLoop from 1.21, through the manager's own goroutines
// before), RemovePod/CleanupPods stop workers, UpdatePodStatus and its manual trigger.
import { describe, expect, it } from "vitest";
import type { ContainerStatus, Pod, PodStatus } from "../../../src/k8s/pod.ts";
import { sleep } from "../../../src/sim/index.ts";
import { ProberManager } from "../../../src/kubelet/prober/prober_manager.ts";
import { StatusManager } from "../../../src/kubelet/status/status_manager.ts";
import { podManagerWithoutStaticPods } from "../../../src/kubelet/status/interfaces.ts";
import type { Update } from "../../../src/kubelet/prober/results/results_manager.ts";
import { drainUpdates, FakeStatusProvider, newSim, podWith, probe, records, resultsManagers, runningStatus, ScriptedRunner } from "./fakes.ts";

/** A prober manager on a real status manager whose pod manager knows `pod`. */
function withStatusManager(minor: number, pod: Pod, untilMs = 120_000) {
  const { sim, sink } = newSim(1, untilMs);
  const sm = new StatusManager(sim, {
    kubeClient: null,
    podManager: podManagerWithoutStaticPods((uid) => (uid === pod.metadata.uid ? pod : undefined)),
    podDeletionSafety: { PodResourcesAreReclaimed: () => true, PodCouldHaveRunningContainers: () => false },
    version: minor,
  });
  const runner = new ScriptedRunner(sim);
  const rms = resultsManagers(sim);
  const pm = new ProberManager(sim, { statusManager: sm, runner, version: minor, ...rms });
  /** What generateAPIPodStatus does with the prober before SetPodStatus. */
  const syncPodStatus = (status: PodStatus) => {
    const s = structuredClone(status);
    pm.UpdatePodStatus(pod.metadata.uid!, s);
    sm.SetPodStatus(pod, s);
  };
  /** The syncLoop's probe arms (kubelet.go ≥1.21): readiness and startup go to the status manager. */
  const syncLoop = () =>
    drainUpdates(sim, [rms.livenessManager, rms.readinessManager, rms.startupManager], (rm, u: Update) => {
      if (rm.name === "readiness") sm.SetContainerReadiness(u.PodUID, u.ContainerID, u.Result === "Success");
      if (rm.name === "startup") sm.SetContainerStartup(u.PodUID, u.ContainerID, u.Result === "Success");
    });
  return { sim, sink, sm, pm, runner, rms, syncPodStatus, syncLoop };
}

describe("a startup probe holds liveness and readiness back", () => {
  it.each([21, 29, 33])("1.%i: no liveness probe runs before the startup probe succeeds", (minor) => {
    const pod = podWith([{ name: "app", startupProbe: probe({ periodSeconds: 1, failureThreshold: 60 }), livenessProbe: probe({ periodSeconds: 1 }) }]);
    const s = withStatusManager(minor, pod, 40_000);
    s.runner.answers.startup = (now) => (now >= 15_000 ? "success" : "failure");
    s.runner.answers.liveness = (now) => (now >= 15_000 ? "success" : "failure");
    s.syncLoop();
    s.sim.go("test", function* () {
      yield* sleep(10_000);
      // As in kubelet.syncPod on a later sync: workers exist, so a container without a startup result is not started.
      s.pm.AddPod(pod);
      s.syncPodStatus(runningStatus(["app"], 10_000, undefined));
    });
    s.sim.run();
    const startupSuccess = records(s.sink, "ResultSet", (r) => r.probeType === "startup" && r.result === "Success")[0]!.t;
    expect(startupSuccess).toBe(15_000);
    const liveness = records(s.sink, "ProbeRun", (r) => r.probeType === "liveness");
    expect(liveness.length).toBeGreaterThan(10);
    expect(liveness.every((r) => r.t > startupSuccess)).toBe(true);
    expect(records(s.sink, "ProbeRun", (r) => r.probeType === "startup")[0]!.t).toBe(10_000);
    expect(s.sm.GetPodStatus("uid-1")!.containerStatuses![0]!.started).toBe(true);
    // The liveness result never turned Failure: the container was never marked for a restart.
    expect(records(s.sink, "ResultSet", (r) => r.probeType === "liveness").map((r) => r.result)).toEqual(["Success"]);
  });
});

describe("a readiness result reaches the pod's Ready condition", () => {
  it("1.29: through the syncLoop's readiness arm and SetContainerReadiness; UpdatePodStatus agrees", () => {
    const pod = podWith([{ name: "app", readinessProbe: probe({ periodSeconds: 5 }) }]);
    const s = withStatusManager(29, pod, 30_000);
    s.syncLoop();
    s.sim.go("test", function* () {
      yield* sleep(10_000);
      s.syncPodStatus({ ...runningStatus(["app"], 10_000, undefined), conditions: [{ type: "Ready", status: "False" }] });
      s.pm.AddPod(pod);
    });
    s.sim.run();
    const st = s.sm.GetPodStatus("uid-1")!;
    expect(st.containerStatuses![0]!.ready).toBe(true);
    expect(st.conditions!.find((c) => c.type === "Ready")).toMatchObject({ status: "True" });
    expect(records(s.sink, "ResultSet").map((r) => [r.t, r.result])).toEqual([[10_000, "Failure"], [10_000, "Success"]]);
    const fresh = runningStatus(["app"], 10_000, undefined);
    s.pm.UpdatePodStatus("uid-1", fresh);
    expect([fresh.containerStatuses![0]!.started, fresh.containerStatuses![0]!.ready]).toEqual([true, true]);
  });

  it("1.20: the probe manager's own updateReadiness goroutine calls SetContainerReadiness", () => {
    const pod = podWith([{ name: "app", readinessProbe: probe({ periodSeconds: 5 }) }]);
    const s = withStatusManager(20, pod, 30_000);
    s.pm.Start();
    s.sim.go("test", function* () {
      yield* sleep(10_000);
      s.syncPodStatus({ ...runningStatus(["app"], 10_000, undefined), conditions: [{ type: "Ready", status: "False" }] });
      s.pm.AddPod(pod);
    });
    s.sim.run();
    expect(s.sm.GetPodStatus("uid-1")!.conditions!.find((c) => c.type === "Ready")!.status).toBe("True");
  });
});

describe("UpdatePodStatus", () => {
  const pod = podWith([{ name: "app", readinessProbe: probe({ initialDelaySeconds: 5 }) }]);

  it("≥1.21: an unready container with a readiness worker triggers an immediate probe (manualTriggerCh)", () => {
    const s = withStatusManager(29, pod, 8_000);
    s.syncLoop();
    s.sim.go("test", function* () {
      s.syncPodStatus(runningStatus(["app"], 0, undefined));
      s.pm.AddPod(pod);
      yield* sleep(6_000);
      const st = runningStatus(["app"], 0, undefined);
      s.pm.UpdatePodStatus("uid-1", st);
      expect(st.containerStatuses![0]!.ready).toBe(false);
    });
    s.sim.run();
    // The worker's first probe was inside the initial delay; the trigger probed at once at t=6s.
    expect(records(s.sink, "ProbeRun").map((r) => r.t)).toEqual([6_000]);
  });

  it("the rules, per release", () => {
    const { sim } = newSim();
    const rms = resultsManagers(sim);
    const mk = (minor: number) => new ProberManager(sim, { statusManager: new FakeStatusProvider(), runner: new ScriptedRunner(sim), version: minor, ...rms });
    const one = (pm: ProberManager, st: Omit<ContainerStatus, "name">) => {
      const status: PodStatus = { containerStatuses: [{ name: "app", containerID: "test://a", ...st }], initContainerStatuses: [{ name: "i", state: { terminated: { exitCode: 0 } } }, { name: "j", state: { terminated: { exitCode: 1 } } }] };
      pm.UpdatePodStatus("uid-1", status);
      const c = status.containerStatuses![0]!;
      return [c.started, c.ready ?? null, status.initContainerStatuses!.map((x) => x.ready)];
    };
    const running = { state: { running: { startedAt: "2025-01-01T00:00:00Z" } } };
    // No workers, no results: started and ready once running.
    expect(one(mk(29), running)).toEqual([true, true, [true, false]]);
    expect(one(mk(29), { state: { waiting: {} } })).toEqual([false, null, [true, false]]);
    // Ready is computed only for started containers, in every release (issue #95140 quotes the
    // 1.19 guard "if started {"): not running, not started, Ready untouched.
    expect(one(mk(20), { state: { waiting: {} } })).toEqual([false, null, [true, false]]);
    // A startup Failure: not started, so Ready is left alone, in 1.20 as in 1.21+.
    sim.go("seed", function* () {
      yield* rms.startupManager.Set("test://a", "Failure", "uid-1");
      yield* rms.readinessManager.Set("test://a", "Success", "uid-1");
    });
    sim.run();
    expect(one(mk(29), running)).toEqual([false, null, [true, false]]);
    expect(one(mk(20), running)).toEqual([false, null, [true, false]]);
  });
});

describe("stopping workers", () => {
  it("RemovePod stops every worker of the pod (any number of times); each removes its result and unregisters", () => {
    const { sim, sink } = newSim(1, 60_000);
    const status = new FakeStatusProvider();
    const rms = resultsManagers(sim);
    const pm = new ProberManager(sim, { statusManager: status, runner: new ScriptedRunner(sim), version: 29, ...rms });
    drainUpdates(sim, Object.values(rms));
    const pod = podWith([{ name: "app", livenessProbe: probe(), readinessProbe: probe(), startupProbe: probe() }]);
    status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    sim.go("test", function* () {
      yield* sleep(20_000);
      pm.AddPod(pod);
      expect(pm.workerCount()).toBe(3);
      yield* sleep(5_000);
      for (let i = 0; i < 10; i++) pm.RemovePod(pod);
      yield* sleep(1);
      expect(pm.workerCount()).toBe(0);
      for (const rm of Object.values(rms)) expect(rm.Get("test://app-1")).toBeUndefined();
    });
    sim.run();
    expect(records(sink, "WorkerStart").map((r) => r.probeType)).toEqual(["startup", "readiness", "liveness"]);
    // RemovePod stops readiness, liveness, startup in that order; under fifo they wake in that order.
    expect(records(sink, "WorkerStop").map((r) => [r.t, r.probeType, r.reason])).toEqual([
      [25_000, "readiness", "stopped"],
      [25_000, "liveness", "stopped"],
      [25_000, "startup", "stopped"],
    ]);
    expect(records(sink, "ProbeRun").every((r) => r.t < 25_000)).toBe(true);
  });

  it("StopLivenessAndStartup leaves readiness running; CleanupPods stops the pods not desired", () => {
    const { sim, sink } = newSim(1, 60_000);
    const status = new FakeStatusProvider();
    const rms = resultsManagers(sim);
    const pm = new ProberManager(sim, { statusManager: status, runner: new ScriptedRunner(sim), version: 29, ...rms });
    drainUpdates(sim, Object.values(rms));
    const a = podWith([{ name: "app", livenessProbe: probe(), readinessProbe: probe() }]);
    const b = podWith([{ name: "app", livenessProbe: probe() }], { uid: "uid-2", name: "other" });
    status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    status.statuses.set("uid-2", runningStatus(["app"], 0, true));
    sim.go("test", function* () {
      yield* sleep(20_000);
      pm.AddPod(a);
      pm.AddPod(b);
      yield* sleep(1_000);
      pm.StopLivenessAndStartup(a);
      yield* sleep(1_000);
      pm.CleanupPods(new Set(["uid-1"]));
    });
    sim.run();
    expect(records(sink, "WorkerStop").map((r) => [r.t, r.uid, r.probeType])).toEqual([
      [21_000, "uid-1", "liveness"],
      [22_000, "uid-2", "liveness"],
    ]);
    expect(pm.getWorker("uid-1", "app", "readiness")).toBeDefined();
  });

  it("AddPod for a pod that already has a worker stops at the first duplicate, as upstream", () => {
    const { sim, sink } = newSim(1, 1_000);
    const pm = new ProberManager(sim, { statusManager: new FakeStatusProvider(), runner: new ScriptedRunner(sim), version: 29, ...resultsManagers(sim) });
    const pod = podWith([{ name: "a", livenessProbe: probe() }]);
    pm.AddPod(pod);
    pm.AddPod(podWith([{ name: "a", livenessProbe: probe() }, { name: "b", livenessProbe: probe() }]));
    expect(pm.workerCount()).toBe(1);
    expect(records(sink, "WorkerExists")).toHaveLength(1);
  });
});
