// Sidecars in the probe manager (prober_manager.go from 1.28, KEP-753): AddPod and RemovePod take
// getRestartableInitContainers after the regular containers, StopLivenessAndStartup does not (v1.29
// text), and UpdatePodStatus(pod, status) sets Started on init container statuses and Ready on
// sidecars as on regular containers; the pod's conditions (status/generate.go) then count them.
import { describe, expect, it } from "vitest";
import type { Container, ContainerStatus, Pod, PodStatus } from "../../../src/k8s/pod.ts";
import { sleep } from "../../../src/sim/index.ts";
import { ProberManager } from "../../../src/kubelet/prober/prober_manager.ts";
import { formatRFC3339 } from "../../../src/kubelet/status/metatime.ts";
import { GenerateContainersReadyCondition, GeneratePodInitializedCondition } from "../../../src/kubelet/status/generate.ts";
import { FakeStatusProvider, newSim, probe, records, resultsManagers, ScriptedRunner } from "./fakes.ts";

/** A running container as the status manager holds it after an earlier sync: started (UpdatePodStatus recomputes it). */
const running = (name: string, id = `test://${name}-1`): ContainerStatus => ({ name, containerID: id, state: { running: { startedAt: formatRFC3339(0) } }, started: true });
const exited = (name: string, exitCode: number): ContainerStatus => ({ name, containerID: `test://${name}-1`, state: { terminated: { exitCode } } });

function sidecarPod(sidecar: Partial<Container> = {}): Pod {
  return {
    metadata: { uid: "uid-1", name: "web", namespace: "default" },
    spec: {
      restartPolicy: "Always",
      initContainers: [{ name: "migrate" }, { name: "proxy", restartPolicy: "Always", ...sidecar }],
      containers: [{ name: "app" }],
    },
  };
}

function manager(minor = 29, untilMs = 60_000) {
  const { sim, sink } = newSim(1, untilMs);
  const status = new FakeStatusProvider();
  const runner = new ScriptedRunner(sim);
  const rms = resultsManagers(sim);
  const pm = new ProberManager(sim, { statusManager: status, runner, version: minor, ...rms });
  return { sim, sink, status, runner, rms, pm };
}

/** The status the kubelet builds for the pod: migrate done, proxy and app running. */
function podStatus(): PodStatus {
  return { phase: "Running", initContainerStatuses: [exited("migrate", 0), running("proxy")], containerStatuses: [running("app")] };
}

describe("workers for sidecars", () => {
  const withProbes = sidecarPod({ startupProbe: probe(), readinessProbe: probe(), livenessProbe: probe() });

  it("1.29: AddPod starts workers for the regular containers, then the sidecar's; plain init containers get none", () => {
    const m = manager();
    const pod: Pod = { ...withProbes, spec: { ...withProbes.spec, containers: [{ name: "app", readinessProbe: probe() }] } };
    m.pm.AddPod(pod);
    expect(m.pm.workerCount()).toBe(4);
    m.sim.run();
    expect(records(m.sink, "WorkerStart").map((r) => `${String(r.container)}/${String(r.probeType)}`)).toEqual([
      "app/readiness", "proxy/startup", "proxy/readiness", "proxy/liveness",
    ]);
  });

  it("1.27: a restartable init container is not probed (the field does not exist before 1.28)", () => {
    const m = manager(27);
    m.pm.AddPod(withProbes);
    expect(m.pm.workerCount()).toBe(0);
  });

  it("StopLivenessAndStartup leaves the sidecar's workers running; RemovePod stops them", () => {
    const m = manager();
    m.status.statuses.set("uid-1", podStatus());
    m.sim.go("test", function* () {
      m.pm.AddPod(withProbes);
      yield* sleep(1_000);
      m.pm.StopLivenessAndStartup(withProbes);
      yield* sleep(1_000);
      expect(m.pm.workerCount()).toBe(3);
      m.pm.RemovePod(withProbes);
      yield* sleep(1_000);
      expect(m.pm.workerCount()).toBe(0);
    });
    expect(m.sim.run().verdict).not.toBe("panic");
    expect(records(m.sink, "WorkerStop").map((r) => r.t)).toEqual([2_000, 2_000, 2_000]);
  });

  it("1.29: the startup worker of a sidecar that exited in a restartPolicy Never pod stops (before #133072, issue #132826)", () => {
    const m = manager(29, 30_000);
    const pod: Pod = { ...sidecarPod({ startupProbe: probe({ periodSeconds: 1 }) }), spec: { ...sidecarPod().spec, restartPolicy: "Never", initContainers: [{ name: "migrate" }, { name: "proxy", restartPolicy: "Always", startupProbe: probe({ periodSeconds: 1 }) }] } };
    m.status.statuses.set("uid-1", { phase: "Running", initContainerStatuses: [exited("migrate", 0), exited("proxy", 1)], containerStatuses: [running("app")] });
    m.sim.go("test", function* () {
      m.pm.AddPod(pod);
    });
    m.sim.run();
    expect(records(m.sink, "WorkerStop").map((r) => [r.container, r.probeType, r.reason])).toEqual([["proxy", "startup", "done"]]);
  });

  it("a sidecar's readiness probe runs against its init container status", () => {
    const m = manager(29, 25_000);
    const pod = sidecarPod({ readinessProbe: probe({ periodSeconds: 10 }) });
    m.status.statuses.set("uid-1", podStatus());
    m.pm.AddPod(pod);
    m.sim.run();
    const runs = records(m.sink, "ProbeRun");
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.every((r) => r.container === "proxy" && r.containerID === "test://proxy-1")).toBe(true);
    expect(m.rms.readinessManager.Get("test://proxy-1")).toBe("Success");
  });
});

describe("UpdatePodStatus(pod, status) with sidecars", () => {
  /** Runs UpdatePodStatus on a fresh status and returns [started, ready] per init container, then per container. */
  function update(m: ReturnType<typeof manager>, pod: Pod, st = podStatus()): { init: [unknown, unknown][]; regular: [unknown, unknown][] } {
    m.pm.UpdatePodStatus(pod, st);
    const pair = (c: ContainerStatus): [unknown, unknown] => [c.started ?? null, c.ready ?? null];
    return { init: st.initContainerStatuses!.map(pair), regular: st.containerStatuses!.map(pair) };
  }

  it("no probes: a running sidecar is started and ready; a finished init container is ready but not started", () => {
    const m = manager();
    expect(update(m, sidecarPod())).toEqual({ init: [[false, true], [true, true]], regular: [[true, true]] });
  });

  it("a sidecar that is not running is neither started nor ready; a failed init container is not ready", () => {
    const m = manager();
    const st: PodStatus = { initContainerStatuses: [exited("migrate", 1), { name: "proxy", state: { waiting: { reason: "PodInitializing" } } }], containerStatuses: [] };
    expect(update(m, sidecarPod(), st).init).toEqual([[false, null], [false, null]]);
  });

  it("a startup probe that has not succeeded holds started (and so ready) back; its Success releases both", () => {
    const m = manager();
    const pod = sidecarPod({ startupProbe: probe() });
    m.pm.AddPod(pod);
    expect(update(m, pod).init[1]).toEqual([false, null]);
    m.sim.go("seed", function* () {
      yield* m.rms.startupManager.Set("test://proxy-1", "Success", "uid-1");
    });
    m.sim.run();
    expect(update(m, pod).init[1]).toEqual([true, true]);
  });

  it("a readiness worker without a Success: not ready, and an immediate probe is triggered", () => {
    const m = manager(29, 70_000);
    const pod = sidecarPod({ readinessProbe: probe({ initialDelaySeconds: 3, periodSeconds: 60 }) });
    // The sidecar started at 60 s; the kubelet started a period before, so the worker does not sleep first.
    const st = (): PodStatus => ({ ...podStatus(), initContainerStatuses: [exited("migrate", 0), { ...running("proxy"), state: { running: { startedAt: formatRFC3339(60_000) } } }] });
    m.status.statuses.set("uid-1", st());
    m.sim.go("test", function* () {
      yield* sleep(61_000);
      m.pm.AddPod(pod);
      yield* sleep(3_000);
      expect(update(m, pod, st()).init[1]).toEqual([true, false]);
    });
    m.sim.run();
    // The first run (at 61 s) was inside the initial delay; the trigger probed at once at 64 s.
    expect(records(m.sink, "ProbeRun").map((r) => r.t)).toEqual([64_000]);
    expect(update(m, pod, st()).init[1]).toEqual([true, true]);
  });

  it("a status that does not match the spec by index is left alone, as upstream (GetContainerByIndex)", () => {
    const m = manager();
    const st: PodStatus = { initContainerStatuses: [running("proxy")], containerStatuses: [] };
    expect(update(m, sidecarPod(), st).init).toEqual([[true, null]]);
    expect(records(m.sink, "StatusSpecMismatch")).toHaveLength(1);
  });

  it("the ≤1.27 signature (a UID) and the ≤1.27 releases: init containers are only ready when they exited 0", () => {
    const m = manager();
    const st = podStatus();
    m.pm.UpdatePodStatus("uid-1", st);
    // Started is left as it was (the fixture's), and a running sidecar is not ready.
    expect(st.initContainerStatuses!.map((c) => [c.started ?? null, c.ready])).toEqual([[null, true], [true, false]]);
    const old = manager(27);
    const st27 = podStatus();
    old.pm.UpdatePodStatus(sidecarPod(), st27);
    expect(st27.initContainerStatuses!.map((c) => [c.started ?? null, c.ready])).toEqual([[null, true], [true, false]]);
  });
});

describe("the pod's conditions count the sidecar (generate.go)", () => {
  const opts = { sidecarContainers: true, terminalPhaseNotReady: true, initializedOnceRegularStarted: true };

  it("a started sidecar initializes the pod; its readiness decides ContainersReady", () => {
    const m = manager(29, 5_000);
    const pod = sidecarPod({ readinessProbe: probe({ initialDelaySeconds: 60 }) });
    // The worker exists but has no status to read, so only the results set here count.
    m.pm.AddPod(pod);
    const st = podStatus();
    m.pm.UpdatePodStatus(pod, st);
    const all = [...st.initContainerStatuses!, ...st.containerStatuses!];
    expect(GeneratePodInitializedCondition(pod, all, "Running", opts)).toEqual({ type: "Initialized", status: "True" });
    expect(GenerateContainersReadyCondition(pod, all, "Running", opts)).toEqual({
      type: "ContainersReady", status: "False", reason: "ContainersNotReady", message: "containers with unready status: [proxy]",
    });
    m.sim.go("seed", function* () {
      yield* m.rms.readinessManager.Set("test://proxy-1", "Success", "uid-1");
    });
    m.sim.run();
    const later = podStatus();
    m.pm.UpdatePodStatus(pod, later);
    expect(GenerateContainersReadyCondition(pod, [...later.initContainerStatuses!, ...later.containerStatuses!], "Running", opts)).toEqual({ type: "ContainersReady", status: "True" });
  });
});
