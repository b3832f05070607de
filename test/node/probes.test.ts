// Probes end to end through simulate(): a failing liveness probe restarts the container with the
// upstream Killing event; readiness flips the pod's Ready condition both ways without restarting
// anything; a startup probe holds liveness back until it succeeds, and kills a container that never
// starts. Probe windows in the scenarios count from the container's start.
import { describe, expect, it } from "vitest";
import { all, first, inOrder, runScenario, type Run } from "../fixtures/node/trace.ts";
import type { TraceRecord } from "../../src/sim/index.ts";

const POD = "default/web";
const VERSIONS = ["1.30", "1.21"];

function pod(container: string, behaviour: string, expect = "", until = "2m", version = "1.30"): string {
  return `
name: probes
until: ${until}
kubelet: { version: "${version}" }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web }
      spec:
        containers:
${container}
    behaviour:
      app:
${behaviour}
timeline:
  - { at: 0s, create: web }
${expect}
`;
}

function probeRuns(records: readonly TraceRecord[], probeType: string): TraceRecord[] {
  return all(records, { component: "prober", kind: "ProbeRun", fields: { pod: POD, probeType } });
}

function probeResults(records: readonly TraceRecord[], probeType: string): TraceRecord[] {
  return all(records, { component: "prober", kind: "ProbeResult", fields: { pod: POD, probeType } });
}

function starts(records: readonly TraceRecord[]): TraceRecord[] {
  return all(records, { component: "runtime", kind: "StartContainer", fields: { pod: POD, container: "app", result: "ok" } });
}

/**
 * prober.go probe(): a failed probe records Warning Unhealthy "<Type> probe failed: <output>" on the
 * container (recordContainerEvent), at the instant of the result; a success records nothing.
 */
function expectUnhealthyPerFailure(records: readonly TraceRecord[], probeType: string, typeName: string): void {
  const failures = probeResults(records, probeType).filter((r) => r.result === "Failure");
  expect(failures.length).toBeGreaterThan(0);
  const events = all(records, { component: "kubelet", kind: "Event", fields: { pod: POD, reason: "Unhealthy" } })
    .filter((e) => String(e.message).startsWith(`${typeName} probe`));
  expect(events.map((e) => e.t)).toEqual(failures.map((f) => f.t));
  for (const [i, e] of events.entries()) {
    expect(e.type).toBe("Warning");
    expect(e.object).toBe("spec.containers{app}");
    expect(e.message).toBe(`${typeName} probe failed: ${String(failures[i]!.output)}`);
  }
}

function expectOk(run: Run): void {
  expect(run.result.run.verdict).toBe("until");
  expect(run.result.checks.failed).toEqual([]);
  expect(run.result.checks.violations).toEqual([]);
}

describe.each(VERSIONS)("liveness, kubelet %s", (version) => {
  // Liveness every 5 s, 3 failures in a row; the first run answers failure from 30 s to 45 s.
  const container = `          - name: app
            image: nginx:1.25
            livenessProbe:
              httpGet: { path: /healthz, port: 80 }
              periodSeconds: 5
              failureThreshold: 3`;
  const behaviour = `        onSigterm: { exitAfter: 1s, exitCode: 0 }
        probes:
          liveness:
            - { attempt: 1, from: 30s, to: 45s, result: failure }`;
  const expectations = `expect:
  - eventually: { pod: web, container: { name: app, state: running, restartCount: 1 } }
    by: 1m
  - never: { pod: web, container: { name: app, restartCount: { min: 2 } } }
  - never: { pod: web, phase: Failed }`;
  const run = runScenario(pod(container, behaviour, expectations, "2m", version), `liveness-${version}.yaml`);
  const { records } = run;

  it("restarts the container after failureThreshold failures, with the upstream Killing event", () => {
    expectOk(run);
    const results = probeResults(records, "liveness");
    const firstFailure = results.findIndex((r) => r.result === "Failure");
    expect(firstFailure).toBeGreaterThan(0);
    // Three failures in a row, the last of them turns the result to Failure.
    expect(results.slice(firstFailure, firstFailure + 3).map((r) => r.result)).toEqual(["Failure", "Failure", "Failure"]);
    const third = results[firstFailure + 2]!;
    // KillContainer is recorded when killContainer returns, after the runtime saw the exit.
    const [resultSet, killing, exited, kill, restarted] = inOrder(records, [
      { component: "prober", kind: "ResultSet", fields: { probeType: "liveness", result: "Failure" } },
      { component: "kubelet", kind: "Event", fields: { pod: POD, reason: "Killing", type: "Normal" } },
      { component: "runtime", kind: "ContainerExited", fields: { pod: POD, container: "app" } },
      { component: "kuberuntime", kind: "KillContainer", fields: { pod: POD, container: "app", reason: "LivenessProbe" } },
      { component: "runtime", kind: "StartContainer", fields: { pod: POD, container: "app", result: "ok" } },
    ]);
    expect(resultSet!.t).toBe(third.t);
    expect(killing!.message).toBe("Container app failed liveness probe, will be restarted");
    // The kill follows the result at once (the syncLoop's liveness channel), with the pod's 30 s grace.
    expect(killing!.t - resultSet!.t).toBeLessThanOrEqual(10);
    expect(kill!.gracePeriodSeconds).toBe(30);
    expect(exited!.t - killing!.t).toBeLessThan(1000 + 100); // the app exits 1 s after SIGTERM
    expect(restarted!.t).toBeGreaterThan(exited!.t);
    // No Killing before the third failure, and exactly one restart.
    const killings = all(records, { component: "kubelet", kind: "Event", fields: { pod: POD, reason: "Killing" } });
    expect(killings).toHaveLength(1);
    expect(starts(records)).toHaveLength(2);
    // kubectl's RESTARTS column reads "1 (Ns ago)" once the API object has the new container.
    const shown = first(records, { component: "apiserver", kind: "PodView", fields: { pod: POD }, where: (v) => String(v.restarts).startsWith("1 ") }).rec;
    expect(shown.t).toBeGreaterThanOrEqual(restarted!.t);
  });

  it("probes the new container (liveness results for its ID) after the restart", () => {
    const [, second] = starts(records);
    const later = probeResults(records, "liveness").filter((r) => r.t > second!.t);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((r) => r.containerID === `containerd://${second!.id}` && r.result === "Success")).toBe(true);
  });

  it("records a Warning Unhealthy event 'Liveness probe failed: ...' for each failed probe, and none for a success", () => {
    expectUnhealthyPerFailure(records, "liveness", "Liveness");
  });
});

describe.each(VERSIONS)("readiness, kubelet %s", (version) => {
  // Readiness every 2 s (failureThreshold 3, successThreshold 1): failing until 10 s, passing until
  // 30 s, failing until 50 s, passing after. The Ready condition follows, and nothing restarts.
  const container = `          - name: app
            image: example/api:1.0
            readinessProbe:
              httpGet: { path: /ready, port: 8080 }
              periodSeconds: 2`;
  const behaviour = `        probes:
          readiness:
            - { to: 10s, result: failure }
            - { from: 30s, to: 50s, result: failure }`;
  // The container starts at about 1.7 s (sandbox 0.5 s, pull 1 s, create and start 0.2 s).
  const expectations = `expect:
  - at: 8s
    that: { pod: web, phase: Running, conditions: { Ready: "False", ContainersReady: "False" }, container: { name: app, state: running, ready: false } }
  - at: 25s
    that: { pod: web, conditions: { Ready: "True", ContainersReady: "True" }, container: { name: app, ready: true } }
  - at: 45s
    that: { pod: web, phase: Running, conditions: { Ready: "False", ContainersReady: "False" }, container: { name: app, state: running, ready: false } }
  - at: 1m
    that: { pod: web, conditions: { Ready: "True" }, container: { name: app, ready: true } }
  - never: { pod: web, container: { name: app, restartCount: { min: 1 } } }`;
  const run = runScenario(pod(container, behaviour, expectations, "75s", version), `readiness-${version}.yaml`);
  const { records } = run;

  it("flips Ready to True, to False and back as the probe passes and fails", () => {
    expectOk(run);
    expect(run.result.checks.expectations.every((e) => e.ok)).toBe(true);
    // The API object's READY column (kubectl get pods) changes exactly at the flips.
    const views = all(records, { component: "apiserver", kind: "PodView", fields: { pod: POD } }).filter((v) => v.phase === "Running");
    const flips = views.filter((v, i) => i === 0 || v.ready !== views[i - 1]!.ready).map((v) => v.ready);
    expect(flips).toEqual(["0/1", "1/1", "0/1", "1/1"]);
  });

  it("flips at the probe results: one success makes Ready, failureThreshold failures unmake it", () => {
    const started = starts(records)[0]!;
    const sets = all(records, { component: "prober", kind: "ResultSet", fields: { probeType: "readiness" } }).filter((r) => r.t > started.t);
    const changes = sets.filter((r, i) => i === 0 || r.result !== sets[i - 1]!.result).map((r) => r.result);
    expect(changes).toEqual(["Failure", "Success", "Failure", "Success"]);
    const results = probeResults(records, "readiness");
    // The result turns to Failure only on the third failure in a row after 30 s.
    const drop = sets.filter((r) => r.result === "Failure").at(-1)!;
    const failuresBefore = results.filter((r) => r.t <= drop.t && r.t - started.t >= 30_000 && r.result === "Failure");
    expect(failuresBefore).toHaveLength(3);
    // Each change reaches the status manager, which patches the API object within a few ms.
    const readinessWrites = all(records, { component: "status", kind: "SetContainerReadiness", fields: { pod: POD } });
    expect(readinessWrites.length).toBeGreaterThanOrEqual(3);
    for (const w of readinessWrites) {
      const patch = first(records, { component: "apiserver", kind: "PatchStatus", fields: { pod: POD } }, records.indexOf(w)).rec;
      expect(patch.t - w.t).toBeLessThan(100);
    }
  });

  it("never restarts or kills the container for readiness", () => {
    expect(starts(records)).toHaveLength(1);
    expect(all(records, { component: "kubelet", kind: "Event", fields: { pod: POD, reason: "Killing" } })).toEqual([]);
  });

  it("records a Warning Unhealthy event 'Readiness probe failed: ...' for each failed probe, and none for a success", () => {
    expectUnhealthyPerFailure(records, "readiness", "Readiness");
  });
});

describe.each(VERSIONS)("startup probe, kubelet %s", (version) => {
  // A slow starter: startup every 2 s, up to 30 failures, failing for 20 s. Liveness would fail
  // during the boot too (failureThreshold 1): only the startup probe keeps it from acting.
  const container = `          - name: app
            image: example/slow-boot:2.1
            startupProbe:
              httpGet: { path: /started, port: 8080 }
              periodSeconds: 2
              failureThreshold: 30
            livenessProbe:
              httpGet: { path: /healthz, port: 8080 }
              periodSeconds: 5
              failureThreshold: 1`;
  const behaviour = `        probes:
          startup:
            - { to: 20s, result: failure }
          liveness:
            - { to: 20s, result: failure }`;
  const expectations = `expect:
  - at: 10s
    that: { pod: web, conditions: { Ready: "False" }, container: { name: app, state: running, started: false } }
  - eventually: { pod: web, conditions: { Ready: "True" }, container: { name: app, started: true } }
    by: 40s
  - never: { pod: web, container: { name: app, restartCount: { min: 1 } } }`;
  const run = runScenario(pod(container, behaviour, expectations, "90s", version), `startup-${version}.yaml`);
  const { records } = run;

  it("runs no liveness probe before the startup probe's success, and runs it after", () => {
    expectOk(run);
    const success = first(records, { component: "prober", kind: "ResultSet", fields: { probeType: "startup", result: "Success" } });
    const livenessRuns = probeRuns(records, "liveness");
    const startupRuns = probeRuns(records, "startup");
    expect(startupRuns.filter((r) => r.t < success.rec.t).length).toBeGreaterThanOrEqual(5);
    expect(livenessRuns.filter((r) => records.indexOf(r) < success.index)).toEqual([]);
    expect(livenessRuns.length).toBeGreaterThan(0);
    // Liveness starts within one of its periods of the success; startup stops probing after it.
    expect(livenessRuns[0]!.t - success.rec.t).toBeLessThanOrEqual(5000);
    expect(startupRuns.filter((r) => r.t > success.rec.t)).toEqual([]);
    // The success marks the container started, through the status manager.
    const started = first(records, { component: "status", kind: "SetContainerStartup", fields: { pod: POD } }, success.index).rec;
    expect(started.t).toBe(success.rec.t);
  });

  it("keeps the slow starter alive: no Killing, one start", () => {
    expect(all(records, { component: "kubelet", kind: "Event", fields: { pod: POD, reason: "Killing" } })).toEqual([]);
    expect(starts(records)).toHaveLength(1);
  });
});

describe.each(VERSIONS)("startup probe that never succeeds, kubelet %s", (version) => {
  // failureThreshold 3 at a 2 s period: about 6 s after the start the kubelet gives up and restarts.
  const container = `          - name: app
            image: example/never-ready:1.0
            startupProbe:
              httpGet: { path: /started, port: 8080 }
              periodSeconds: 2
              failureThreshold: 3
            livenessProbe:
              httpGet: { path: /healthz, port: 8080 }
              periodSeconds: 5`;
  const behaviour = `        probes:
          startup:
            - { result: failure }`;
  const run = runScenario(pod(container, behaviour, "", "30s", version), `startup-fails-${version}.yaml`);
  const { records } = run;

  it("kills the container with 'failed startup probe, will be restarted' and never probes liveness", () => {
    expect(run.result.run.verdict).toBe("until");
    const killing = first(records, { component: "kubelet", kind: "Event", fields: { pod: POD, reason: "Killing" } }).rec;
    expect(killing.message).toBe("Container app failed startup probe, will be restarted");
    const failures = probeResults(records, "startup").filter((r) => r.t <= killing.t);
    expect(failures.map((r) => r.result)).toEqual(["Failure", "Failure", "Failure"]);
    expect(first(records, { component: "kuberuntime", kind: "KillContainer", fields: { pod: POD, reason: "StartupProbe" } }).rec.t).toBeGreaterThan(killing.t);
    expect(starts(records).length).toBeGreaterThanOrEqual(2);
    expect(probeRuns(records, "liveness")).toEqual([]);
  });
});
