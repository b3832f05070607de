// Probe workers as processes in virtual time: periods, thresholds, the first-probe jitter, holds,
// pod deletion and terminal phases, timeouts and errors, and the blocking results channel.
import { describe, expect, it } from "vitest";
import { Sim, sleep } from "../../../src/sim/index.ts";
import { ProberManager } from "../../../src/kubelet/prober/prober_manager.ts";
import { drainUpdates, FakeStatusProvider, newSim, podWith, probe, records, resultsManagers, runningStatus, ScriptedRunner } from "./fakes.ts";

function setup(minor: number, seed: number | string = 1, untilMs = 300_000) {
  const { sim, sink } = newSim(seed, untilMs);
  const status = new FakeStatusProvider();
  const runner = new ScriptedRunner(sim);
  const rms = resultsManagers(sim);
  const pm = new ProberManager(sim, { statusManager: status, runner, version: minor, ...rms });
  return { sim, sink, status, runner, rms, pm };
}

const times = (recs: { t: number }[]) => recs.map((r) => r.t);

describe("liveness: periodSeconds 10, failureThreshold 3", () => {
  it("reports Failure on the 3rd consecutive failure, 20 s after the first, then holds", () => {
    const s = setup(29);
    s.runner.durationMs = 100;
    s.runner.answers.liveness = "failure";
    const updates = drainUpdates(s.sim, [s.rms.livenessManager]);
    const pod = podWith([{ name: "app", livenessProbe: probe({ periodSeconds: 10, failureThreshold: 3 }) }]);
    s.status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    s.sim.go("test", function* () {
      // The kubelet started 20 s ago, longer than a period: no first-probe jitter (≥1.21).
      yield* sleep(20_000);
      s.pm.AddPod(pod);
    });
    s.sim.run();
    expect(times(records(s.sink, "ProbeRun"))).toEqual([20_000, 30_000, 40_000]);
    expect(records(s.sink, "ResultSet").map((r) => [r.t, r.result])).toEqual([[20_000, "Success"], [40_100, "Failure"]]);
    expect(updates.map((u) => [u.t, u.u.Result, u.u.ContainerID, u.u.PodUID])).toEqual([
      [20_000, "Success", "test://app-1", "uid-1"],
      [40_100, "Failure", "test://app-1", "uid-1"],
    ]);
    // On hold until a new container ID appears: no more probes.
    expect(s.pm.getWorker("uid-1", "app", "liveness")!.workerState.onHold).toBe(true);
  });

  it("a new container ID lifts the hold and probing starts again with a fresh run", () => {
    const s = setup(29, 1, 120_000);
    s.runner.answers.liveness = "failure";
    drainUpdates(s.sim, [s.rms.livenessManager]);
    s.status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    s.sim.go("test", function* () {
      yield* sleep(20_000);
      s.pm.AddPod(podWith([{ name: "app", livenessProbe: probe() }]));
      yield* sleep(45_000); // held since t=40s
      s.status.statuses.set("uid-1", runningStatus(["app"], 65_000, true, "test://restarted-"));
    });
    s.sim.run();
    // resultRun was reset when the hold began, so the new container gets all 3 attempts again.
    expect(times(records(s.sink, "ProbeRun"))).toEqual([20_000, 30_000, 40_000, 70_000, 80_000, 90_000]);
    expect(records(s.sink, "ResultSet").map((r) => [r.t, r.containerID, r.result])).toEqual([
      [20_000, "test://app-1", "Success"],
      [40_000, "test://app-1", "Failure"],
      [70_000, "test://restarted-app-1", "Success"],
      [90_000, "test://restarted-app-1", "Failure"],
    ]);
  });
});

describe("the first probe's random delay", () => {
  it("is drawn from the seed's prober stream when the kubelet started less than a period ago", () => {
    for (const seed of [1, 2, 3]) {
      const s = setup(29, seed, 5_000);
      s.status.statuses.set("uid-1", runningStatus(["app"], 0, true));
      s.pm.AddPod(podWith([{ name: "app", livenessProbe: probe({ periodSeconds: 10 }) }]));
      s.sim.run();
      const expected = new Sim({ seed, strategy: { name: "fifo" } }).rng("prober").below(10_000);
      const first = records(s.sink, "ProbeRun")[0]?.t ?? null;
      expect(first).toBe(expected < 5_000 ? expected : null);
    }
  });

  it("before 1.21 the delay is drawn whenever a worker starts", () => {
    const s = setup(20, 7, 60_000);
    s.status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    s.sim.go("test", function* () {
      yield* sleep(20_000);
      s.pm.AddPod(podWith([{ name: "app", livenessProbe: probe({ periodSeconds: 10 }) }]));
    });
    s.sim.run();
    const expected = new Sim({ seed: 7, strategy: { name: "fifo" } }).rng("prober").below(10_000);
    expect(records(s.sink, "ProbeRun")[0]!.t).toBe(20_000 + expected);
  });
});

describe("timeouts and errors (prober.probe)", () => {
  it("a timeout takes timeoutSeconds and counts as a failure", () => {
    const s = setup(29, 1, 25_000);
    s.runner.answers.readiness = "timeout";
    drainUpdates(s.sim, [s.rms.readinessManager]);
    s.status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    s.sim.go("test", function* () {
      yield* sleep(20_000);
      s.pm.AddPod(podWith([{ name: "app", readinessProbe: probe({ timeoutSeconds: 2, failureThreshold: 1 }) }]));
    });
    s.sim.run();
    expect(records(s.sink, "ProbeResult").map((r) => [r.t, r.result, r.answer])).toEqual([[22_000, "Failure", "timeout"]]);
  });

  it("an error is retried 3 times, then the result is thrown away", () => {
    const s = setup(29, 1, 25_000);
    s.runner.answers.readiness = "error";
    drainUpdates(s.sim, [s.rms.readinessManager]);
    s.status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    s.sim.go("test", function* () {
      yield* sleep(20_000);
      s.pm.AddPod(podWith([{ name: "app", readinessProbe: probe({ failureThreshold: 1 }) }]));
    });
    s.sim.run();
    expect(s.runner.runs.map((r) => r.answer)).toEqual(["error", "error", "error"]);
    expect(records(s.sink, "ProbeResult").map((r) => r.result)).toEqual(["error"]);
    // Only the initial value for the new container was ever set.
    expect(records(s.sink, "ResultSet").map((r) => r.result)).toEqual(["Failure"]);
  });
});

describe("pod deletion and terminal phases", () => {
  it("≥1.21: a worker made from a deleted pod sets liveness Success and stops (#98571)", () => {
    const s = setup(21, 1, 30_000);
    drainUpdates(s.sim, [s.rms.livenessManager]);
    s.status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    s.sim.go("test", function* () {
      yield* sleep(20_000);
      s.pm.AddPod(podWith([{ name: "app", livenessProbe: probe() }], { deletionTimestamp: "2025-01-01T00:00:19Z" }));
    });
    s.sim.run();
    expect(records(s.sink, "ProbeRun")).toEqual([]);
    expect(records(s.sink, "WorkerStop").map((r) => [r.t, r.reason])).toEqual([[20_000, "done"]]);
    expect(s.pm.workerCount()).toBe(0);
  });

  it("R16 (#107473): the worker keeps the pod it was made with, so a later deletion never reaches it", () => {
    const s = setup(29, 1, 60_000);
    s.runner.answers.liveness = (now) => (now >= 25_000 ? "failure" : "success");
    drainUpdates(s.sim, [s.rms.livenessManager]);
    s.status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    const pod = podWith([{ name: "app", livenessProbe: probe() }]);
    s.sim.go("test", function* () {
      yield* sleep(20_000);
      s.pm.AddPod(pod);
      yield* sleep(1_000);
      // The config source delivers a new object with the deletion; the worker's copy is unchanged.
      const deleted = structuredClone(pod);
      deleted.metadata.deletionTimestamp = "2025-01-01T00:00:21Z";
      s.pm.AddPod(deleted); // "already exists": no new worker
    });
    s.sim.run();
    expect(times(records(s.sink, "ProbeRun")).filter((t) => t > 21_000)).toEqual([30_000, 40_000, 50_000]);
    expect(records(s.sink, "ResultSet").at(-1)).toMatchObject({ t: 50_000, result: "Failure" });
  });

  it("before 1.21 a deleted pod's liveness worker keeps probing", () => {
    const s = setup(20, 1, 60_000);
    drainUpdates(s.sim, [s.rms.livenessManager]);
    s.status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    s.pm.AddPod(podWith([{ name: "app", livenessProbe: probe() }], { deletionTimestamp: "2025-01-01T00:00:00Z" }));
    s.sim.run();
    expect(records(s.sink, "ProbeRun").length).toBeGreaterThan(3);
  });

  it("a terminal phase in the status manager ends every worker of the pod (R12's early readiness stop)", () => {
    const s = setup(29, 1, 60_000);
    drainUpdates(s.sim, [s.rms.readinessManager]);
    s.status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    s.sim.go("test", function* () {
      yield* sleep(20_000);
      s.pm.AddPod(podWith([{ name: "app", readinessProbe: probe() }]));
      yield* sleep(5_000);
      s.status.statuses.set("uid-1", { ...runningStatus(["app"], 0, true), phase: "Failed" });
    });
    s.sim.run();
    expect(records(s.sink, "WorkerStop").map((r) => [r.t, r.reason])).toEqual([[30_000, "done"]]);
    // The last published readiness (Success) stays until the result is removed by the cleanup.
    expect(s.rms.readinessManager.Get("test://app-1")).toBeUndefined();
  });

  it("restartPolicy Never: a terminated container ends the worker; Always keeps it", () => {
    for (const [policy, stops] of [["Never", true], ["Always", false]] as const) {
      const s = setup(29, 1, 45_000);
      drainUpdates(s.sim, [s.rms.readinessManager]);
      s.status.statuses.set("uid-1", { phase: "Running", containerStatuses: [{ name: "app", containerID: "test://app-1", state: { terminated: { exitCode: 1 } } }] });
      s.sim.go("test", function* () {
        yield* sleep(20_000);
        s.pm.AddPod(podWith([{ name: "app", readinessProbe: probe() }], {}, policy));
      });
      s.sim.run();
      expect(records(s.sink, "WorkerStop").length > 0, policy).toBe(stops);
      expect(records(s.sink, "ResultSet").map((r) => r.result)).toEqual(["Failure"]);
    }
  });
});

describe("the results channel holds 20 updates; the 21st Set blocks its worker", () => {
  it("until the syncLoop reads", () => {
    const s = setup(29, 1, 30_000);
    const names = Array.from({ length: 21 }, (_, i) => `c${i}`);
    s.status.statuses.set("uid-1", runningStatus(names, 0, true));
    s.sim.go("test", function* () {
      yield* sleep(20_000);
      s.pm.AddPod(podWith(names.map((name) => ({ name, livenessProbe: probe() }))));
      yield* sleep(1_000);
      drainUpdates(s.sim, [s.rms.livenessManager]);
    });
    s.sim.run();
    const runs = records(s.sink, "ProbeRun");
    expect(runs.filter((r) => r.t === 20_000)).toHaveLength(20);
    expect(runs.filter((r) => r.t === 21_000)).toHaveLength(1);
  });
});

describe("the startup worker's hold after Success (#121206)", () => {
  it("holds from 1.32; before, it holds only on Failure", () => {
    for (const [minor, held] of [[31, false], [32, true]] as const) {
      const s = setup(minor, 1, 25_000);
      drainUpdates(s.sim, [s.rms.startupManager]);
      s.status.statuses.set("uid-1", runningStatus(["app"], 0, false));
      s.sim.go("test", function* () {
        yield* sleep(20_000);
        s.pm.AddPod(podWith([{ name: "app", startupProbe: probe({ failureThreshold: 30 }) }]));
      });
      s.sim.run();
      const w = s.pm.getWorker("uid-1", "app", "startup")!;
      expect(w.workerState, `1.${minor}`).toMatchObject({ onHold: held, lastResult: "Success", resultRun: held ? 0 : 1 });
    }
  });
});
