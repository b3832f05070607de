// prober.go's events: probe() records Unhealthy ("Liveness probe failed: <output>", "... probe
// errored: <err>") for a failure or an error, ProbeWarning for a warning, through
// recordContainerEvent with the container's fieldPath; the ≈1.33 error text (#125901); and the
// prober manager handing the kubelet's recorder down to the workers' prober.
import { describe, expect, it } from "vitest";
import type { Container, Pod } from "../../../src/k8s/pod.ts";
import { sleep } from "../../../src/sim/index.ts";
import { Prober, probeTypeString } from "../../../src/kubelet/prober/prober.ts";
import { ProberManager } from "../../../src/kubelet/prober/prober_manager.ts";
import { proberEra } from "../../../src/kubelet/prober/era.ts";
import type { EventRecorder, EventType } from "../../../src/kubelet/kuberuntime/events.ts";
import type { ProbeType } from "../../../src/kubelet/prober/worker_core.ts";
import { FakeStatusProvider, newSim, podWith, probe, resultsManagers, runningStatus, ScriptedRunner, type Answer } from "./fakes.ts";

/** record.FakeRecorder: "<type> <reason> <message>", plus the object's fieldPath. */
class FakeRecorder implements EventRecorder {
  readonly events: { line: string; pod: string; fieldPath: string | undefined }[] = [];
  Eventf(pod: Pod, type: EventType, reason: string, message: string, fieldPath?: string): void {
    this.events.push({ line: `${type} ${reason} ${message}`, pod: pod.metadata.name, fieldPath });
  }
}

const pod: Pod = {
  metadata: { name: "web", namespace: "default", uid: "u" },
  spec: { initContainers: [{ name: "proxy", restartPolicy: "Always" }], containers: [{ name: "app" }] },
};

function probeOnce(probeType: ProbeType, answer: Answer, minor = 29, container: Container = { name: "app", [`${probeType}Probe`]: probe() }) {
  const { sim } = newSim(1, 60_000);
  const runner = new ScriptedRunner(sim, 10);
  runner.answers[probeType] = answer;
  const recorder = new FakeRecorder();
  const prober = new Prober(sim, runner, { recorder, era: proberEra(minor) });
  sim.go("test", function* () {
    yield* prober.probe(probeType, pod, {}, container, "test://c1");
  });
  sim.run();
  return recorder.events;
}

describe("prober.probe records events (v1.29 texts)", () => {
  // The ScriptedRunner's output is "<probeType> <answer>"; upstream's would be e.g. "HTTP probe failed with statuscode: 500".
  it.each<[ProbeType, Answer, string[]]>([
    ["liveness", "failure", ["Warning Unhealthy Liveness probe failed: liveness failure"]],
    ["readiness", "failure", ["Warning Unhealthy Readiness probe failed: readiness failure"]],
    ["startup", "failure", ["Warning Unhealthy Startup probe failed: startup failure"]],
    // A timeout is a failure whose output says so.
    ["liveness", "timeout", ["Warning Unhealthy Liveness probe failed: liveness timeout"]],
    // An error is retried maxProbeRetries times, then one event with the last error.
    ["readiness", "error", ["Warning Unhealthy Readiness probe errored: readiness error"]],
    ["liveness", "warning", ["Warning ProbeWarning Liveness probe warning: liveness warning"]],
    ["liveness", "success", []],
  ])("%s %s", (probeType, answer, want) => {
    expect(probeOnce(probeType, answer).map((e) => e.line)).toEqual(want);
  });

  it("the event's object is the container: spec.containers{app}, spec.initContainers{proxy}", () => {
    expect(probeOnce("liveness", "failure")[0]).toMatchObject({ pod: "web", fieldPath: "spec.containers{app}" });
    const proxy: Container = { name: "proxy", restartPolicy: "Always", readinessProbe: probe() };
    expect(probeOnce("readiness", "failure", 29, proxy)[0]).toMatchObject({ fieldPath: "spec.initContainers{proxy}" });
  });

  it("a container without the probe is healthy and records nothing; a probe without a handler errors", () => {
    expect(probeOnce("liveness", "failure", 29, { name: "app" })).toEqual([]);
    const noHandler: Container = { name: "app", livenessProbe: { periodSeconds: 10 } };
    expect(probeOnce("liveness", "success", 29, noHandler).map((e) => e.line)).toEqual([
      "Warning Unhealthy Liveness probe errored: missing probe handler for web_default(u):app",
    ]);
  });

  it("without a recorder the prober records nothing (and does not fail)", () => {
    const { sim } = newSim();
    const runner = new ScriptedRunner(sim);
    runner.answers.liveness = "failure";
    const prober = new Prober(sim, runner);
    sim.go("test", function* () {
      expect(yield* prober.probe("liveness", pod, {}, { name: "app", livenessProbe: probe() }, "test://c1")).toBe("Failure");
    });
    expect(sim.run().verdict).toBe("completed");
  });
});

describe("release differences", () => {
  it("≈1.33 (#125901): an error's event names the state it resulted in; a failure's text is unchanged", () => {
    expect(probeOnce("liveness", "error", 33).map((e) => e.line)).toEqual([
      "Warning Unhealthy Liveness probe errored and resulted in unknown state: liveness error",
    ]);
    expect(probeOnce("liveness", "failure", 33).map((e) => e.line)).toEqual(["Warning Unhealthy Liveness probe failed: liveness failure"]);
    expect(probeOnce("liveness", "error", 32).map((e) => e.line)).toEqual(["Warning Unhealthy Liveness probe errored: liveness error"]);
  });

  it("probeType.String()", () => {
    expect((["liveness", "readiness", "startup"] as const).map(probeTypeString)).toEqual(["Liveness", "Readiness", "Startup"]);
  });
});

describe("ProberManager passes the kubelet's recorder to its workers", () => {
  it("every failed liveness probe of a worker is one Unhealthy event", () => {
    const { sim } = newSim(1, 35_000);
    const status = new FakeStatusProvider();
    const runner = new ScriptedRunner(sim);
    runner.answers.liveness = (now) => (now >= 10_000 ? "failure" : "success");
    const recorder = new FakeRecorder();
    const pm = new ProberManager(sim, { statusManager: status, runner, recorder, version: 29, ...resultsManagers(sim) });
    // A failure threshold the run never reaches, so the worker keeps probing (the results manager's channel is never full).
    const p = podWith([{ name: "app", livenessProbe: probe({ periodSeconds: 10, failureThreshold: 100 }) }]);
    status.statuses.set("uid-1", runningStatus(["app"], 0, true));
    sim.go("test", function* () {
      yield* sleep(0);
      pm.AddPod(p);
    });
    sim.run();
    const lines = recorder.events.map((e) => e.line);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(new Set(lines)).toEqual(new Set(["Warning Unhealthy Liveness probe failed: liveness failure"]));
    expect(runner.runs.filter((r) => r.answer === "failure")).toHaveLength(lines.length);
  });
});
