// prober.probe (retries on error, timeouts as failures, a missing handler) and criProbeRunner's
// mapping of the simulated runtime's answers.
import { describe, expect, it } from "vitest";
import type { Container, Pod } from "../../../src/k8s/pod.ts";
import { call, type Proc } from "../../../src/sim/index.ts";
import { criProbeRunner, Prober, type ProbeRequest } from "../../../src/kubelet/prober/prober.ts";
import { CriError } from "../../../src/cri/errors.ts";
import type { ExecSyncResponse } from "../../../src/cri/api.ts";
import type { NetworkOutcome } from "../../../src/cri/exec_ops.ts";
import type { ProbeOutcome } from "../../../src/kubelet/prober/worker_core.ts";
import { newSim, probe, ScriptedRunner } from "./fakes.ts";
import { proberEra } from "../../../src/kubelet/prober/era.ts";

const pod: Pod = { metadata: { name: "web", namespace: "default", uid: "u" }, spec: { containers: [{ name: "app" }] } };

function runProbe(container: Container, answer: "success" | "failure" | "timeout" | "error"): { outcome: ProbeOutcome | null; calls: number; endMs: number } {
  const { sim } = newSim(1, 60_000);
  const runner = new ScriptedRunner(sim, 50);
  runner.answers.liveness = answer;
  const prober = new Prober(sim, runner);
  let outcome: ProbeOutcome | null = null;
  sim.go("test", function* () {
    outcome = yield* prober.probe("liveness", pod, {}, container, "test://c1");
  });
  const r = sim.run();
  return { outcome, calls: runner.runs.length, endMs: r.endMs };
}

describe("Prober.probe", () => {
  it("maps answers to results; a timeout is a failure after timeoutSeconds", () => {
    const c = { name: "app", livenessProbe: probe({ timeoutSeconds: 3 }) };
    expect(runProbe(c, "success")).toEqual({ outcome: "Success", calls: 1, endMs: 50 });
    expect(runProbe(c, "failure")).toEqual({ outcome: "Failure", calls: 1, endMs: 50 });
    expect(runProbe(c, "timeout")).toEqual({ outcome: "Failure", calls: 1, endMs: 3_000 });
  });

  it("retries only errors, maxProbeRetries (3) times, then reports an error", () => {
    expect(runProbe({ name: "app", livenessProbe: probe() }, "error")).toEqual({ outcome: "error", calls: 3, endMs: 150 });
  });

  it("a container without the probe is healthy; a probe without a handler is an error", () => {
    expect(runProbe({ name: "app" }, "failure").outcome).toBe("Success");
    const noHandler = { name: "app", livenessProbe: { periodSeconds: 10 } };
    expect(runProbe(noHandler, "success")).toMatchObject({ outcome: "error", calls: 0 });
  });
});

describe("criProbeRunner", () => {
  const req = (p: ProbeRequest["probe"]): ProbeRequest => ({ probeType: "readiness", pod, podStatus: {}, container: { name: "app" }, containerID: "containerd://abc", probe: p, timeoutMs: 2_000 });

  function answer(r: ProbeRequest, exec: ExecSyncResponse | CriError, net: NetworkOutcome["result"] = "success") {
    const { sim } = newSim();
    const seen: unknown[] = [];
    const runner = criProbeRunner(
      {
        *ExecSync(id: string, cmd: readonly string[], timeoutSeconds: number): Proc<ExecSyncResponse | CriError> {
          seen.push(["exec", id, cmd.join(" "), timeoutSeconds]);
          yield* call(1, "exec");
          return exec;
        },
      },
      {
        *probe(id: string, probeType: string, timeoutMs: number): Proc<NetworkOutcome> {
          seen.push(["net", id, probeType, timeoutMs]);
          yield* call(1, "net");
          return { result: net, output: "", tookMs: 1 };
        },
      },
    );
    let out: unknown = null;
    sim.go("test", function* () {
      out = yield* runner.runProbe(r);
    });
    sim.run();
    return { out, seen };
  }

  it("exec probes go through ExecSync with the runtime's container ID and timeoutSeconds", () => {
    const execReq = req({ exec: { command: ["cat", "/ready"] } });
    expect(answer(execReq, { stdout: "", stderr: "", exitCode: 0 })).toEqual({ out: { answer: "success", output: "" }, seen: [["exec", "abc", "cat /ready", 2]] });
    expect(answer(execReq, { stdout: "", stderr: "no", exitCode: 1 }).out).toEqual({ answer: "failure", output: "no" });
    expect(answer(execReq, new CriError("DeadlineExceeded", "timeout")).out).toEqual({ answer: "timeout", output: "", execTimeoutError: "rpc error: code = DeadlineExceeded desc = timeout" });
    expect(answer(execReq, new CriError("NotFound", "no such container")).out).toMatchObject({ answer: "error" });
  });

  it("network probes go through the container network", () => {
    const httpReq = req({ httpGet: { port: 8080 } });
    expect(answer(httpReq, { stdout: "", stderr: "", exitCode: 0 }, "timeout")).toEqual({ out: { answer: "timeout", output: "" }, seen: [["net", "abc", "readiness", 2_000]] });
  });
});

describe("an exec probe that times out, per release (ExecProbeTimeout, 1.20)", () => {
  function probeTimingOut(minor: number) {
    const { sim } = newSim();
    let calls = 0;
    const runner = criProbeRunner(
      {
        *ExecSync(): Proc<ExecSyncResponse | CriError> {
          calls++;
          yield* call(1_000, "exec");
          return new CriError("DeadlineExceeded", "context deadline exceeded");
        },
      },
      { *probe(): Proc<NetworkOutcome> { return { result: "success", output: "", tookMs: 0 }; } },
    );
    const events: string[] = [];
    const prober = new Prober(sim, runner, { era: proberEra(minor), recorder: { Eventf: (_p, type, reason, message) => events.push(`${type} ${reason} ${message}`) } });
    let outcome: ProbeOutcome | null = null;
    sim.go("test", function* () {
      outcome = yield* prober.probe("liveness", pod, {}, { name: "app", livenessProbe: { exec: { command: ["check"] }, timeoutSeconds: 1 } }, "containerd://abc");
    });
    sim.run();
    return { outcome, calls, events };
  }

  it("1.20+: a Failure, and the event carries the command's (empty) output", () => {
    expect(probeTimingOut(20)).toEqual({ outcome: "Failure", calls: 1, events: ["Warning Unhealthy Liveness probe failed: "] });
  });

  it("1.19: an error, retried maxProbeRetries times and discarded: it can never restart the container", () => {
    expect(probeTimingOut(19)).toEqual({
      outcome: "error", calls: 3,
      events: ["Warning Unhealthy Liveness probe errored: rpc error: code = DeadlineExceeded desc = context deadline exceeded"],
    });
  });
});
