// Prober.probeOp: the probe as one kernel operation over a runner that builds operations
// (ProbeRunner.runProbeOp, criProbeRunner over a runtime's ExecSyncOp/probeOp): the retries and
// the mapping of answers are continuations, the caller yields once, and an answer that needs no
// virtual time comes back without an operation.
import { describe, expect, it } from "vitest";
import type { Pod } from "../../../src/k8s/pod.ts";
import { callOp, Op, type Proc } from "../../../src/sim/index.ts";
import { criProbeRunner, Prober, type ProbeRequest, type ProbeRunResult } from "../../../src/kubelet/prober/prober.ts";
import { proberEra } from "../../../src/kubelet/prober/era.ts";
import { CriError } from "../../../src/cri/errors.ts";
import type { ExecSyncResponse } from "../../../src/cri/api.ts";
import type { NetworkOutcome } from "../../../src/cri/exec_ops.ts";
import type { ProbeOutcome } from "../../../src/kubelet/prober/worker_core.ts";
import { newSim, probe } from "./fakes.ts";

const pod: Pod = { metadata: { name: "web", namespace: "default", uid: "u" }, spec: { containers: [{ name: "app" }] } };

type Script = ProbeRunResult | { afterMs: number; answer: ProbeRunResult };

/** A runner that builds operations: each attempt answers the next scripted answer, at once or after afterMs. */
function opRunner(script: Script[]): { runProbeOp(req: ProbeRequest): Op | ProbeRunResult; runProbe(): Proc<ProbeRunResult>; attempts: number } {
  const r = {
    attempts: 0,
    runProbeOp(): Op | ProbeRunResult {
      const s = script[Math.min(r.attempts++, script.length - 1)]!;
      return "afterMs" in s ? callOp(s.afterMs, "probe", () => s.answer) : s;
    },
    *runProbe(): Proc<ProbeRunResult> {
      throw new Error("the Prober must use runProbeOp when the runner has it");
    },
  };
  return r;
}

interface Got {
  outcome: ProbeOutcome | null;
  attempts: number;
  endMs: number;
  /** How many times the caller yielded for the probe. */
  yields: number;
  events: string[];
}

function probeWith(script: Script[], minor = 33): Got {
  const { sim } = newSim(1, 60_000);
  const runner = opRunner(script);
  const events: string[] = [];
  const prober = new Prober(sim, runner, { era: proberEra(minor), recorder: { Eventf: (_p, type, reason, message) => events.push(`${type} ${reason} ${message}`) } });
  let outcome: ProbeOutcome | null = null;
  let yields = 0;
  sim.go("worker", function* () {
    const op = prober.probeOp("liveness", pod, {}, { name: "app", livenessProbe: probe() }, "test://c1");
    if (op instanceof Op) {
      yields++;
      outcome = (yield op) as ProbeOutcome;
    } else {
      outcome = op;
    }
  });
  const r = sim.run();
  return { outcome, attempts: runner.attempts, endMs: r.endMs, yields, events };
}

const ok: ProbeRunResult = { answer: "success", output: "" };
const err: ProbeRunResult = { answer: "error", output: "no container" };
const timedOut: ProbeRunResult = { answer: "timeout", output: "", execTimeoutError: "deadline" };

describe("Prober.probeOp", () => {
  const rows: { name: string; script: Script[]; minor?: number; want: Omit<Got, "events"> & { events?: string[] } }[] = [
    { name: "an answer after virtual time: one yield", script: [{ afterMs: 50, answer: ok }], want: { outcome: "Success", attempts: 1, endMs: 50, yields: 1 } },
    { name: "an answer at once: no yield at all", script: [ok], want: { outcome: "Success", attempts: 1, endMs: 0, yields: 0 } },
    {
      name: "errors are retried as further operations under the same one yield",
      script: [{ afterMs: 10, answer: err }, { afterMs: 10, answer: err }, { afterMs: 10, answer: ok }],
      want: { outcome: "Success", attempts: 3, endMs: 30, yields: 1 },
    },
    {
      name: "three errors: the error, after maxProbeRetries attempts",
      script: [{ afterMs: 10, answer: err }],
      want: { outcome: "error", attempts: 3, endMs: 30, yields: 1, events: ["Warning Unhealthy Liveness probe errored and resulted in unknown state: no container"] },
    },
    {
      name: "errors at once, then an answer after time: the retries run in the caller's step, the last one yields",
      script: [err, err, { afterMs: 5, answer: ok }],
      want: { outcome: "Success", attempts: 3, endMs: 5, yields: 1 },
    },
    { name: "an exec timeout from 1.20: a failure, not retried", script: [{ afterMs: 1_000, answer: timedOut }], want: { outcome: "Failure", attempts: 1, endMs: 1_000, yields: 1 } },
    { name: "an exec timeout before 1.20: an error, retried", script: [{ afterMs: 1_000, answer: timedOut }], minor: 19, want: { outcome: "error", attempts: 3, endMs: 3_000, yields: 1 } },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const got = probeWith(row.script, row.minor);
      const { events, ...rest } = got;
      expect(rest).toEqual({ outcome: row.want.outcome, attempts: row.want.attempts, endMs: row.want.endMs, yields: row.want.yields });
      if (row.want.events !== undefined) expect(events).toEqual(row.want.events);
    });
  }
});

describe("criProbeRunner over a runtime that builds operations", () => {
  const req = (p: ProbeRequest["probe"]): ProbeRequest => ({ probeType: "readiness", pod, podStatus: {}, container: { name: "app" }, containerID: "containerd://abc", probe: p, timeoutMs: 2_000 });
  const neverGenerators = {
    *ExecSync(): Proc<ExecSyncResponse | CriError> {
      throw new Error("ExecSyncOp must be used");
    },
    *probe(): Proc<NetworkOutcome> {
      throw new Error("probeOp must be used");
    },
  };

  function answer(r: ProbeRequest, exec: ExecSyncResponse | CriError, net: NetworkOutcome | null): { out: unknown; immediate: boolean } {
    const runner = criProbeRunner(
      { ...neverGenerators, ExecSyncOp: () => (exec instanceof CriError && exec.code === "Unavailable" ? exec : callOp(1, "exec", () => exec)) },
      { ...neverGenerators, probeOp: () => net ?? callOp(1, "net", () => ({ result: "failure", output: "500", tookMs: 1 })) },
    );
    const { sim } = newSim();
    let out: unknown = null;
    let immediate = false;
    sim.go("test", function* () {
      const op = runner.runProbeOp!(r);
      immediate = !(op instanceof Op);
      out = op instanceof Op ? yield op : op;
    });
    sim.run();
    return { out, immediate };
  }

  it("maps ExecSync's answers as continuations on its operation", () => {
    const execReq = req({ exec: { command: ["cat", "/ready"] } });
    expect(answer(execReq, { stdout: "", stderr: "", exitCode: 0 }, null)).toEqual({ out: { answer: "success", output: "" }, immediate: false });
    expect(answer(execReq, { stdout: "", stderr: "no", exitCode: 1 }, null).out).toEqual({ answer: "failure", output: "no" });
    expect(answer(execReq, new CriError("DeadlineExceeded", "timeout"), null).out).toEqual({ answer: "timeout", output: "", execTimeoutError: "rpc error: code = DeadlineExceeded desc = timeout" });
    expect(answer(execReq, new CriError("Unavailable", "socket closed"), null)).toMatchObject({ out: { answer: "error" }, immediate: true });
  });

  it("network probes: an operation's outcome, or a refusal at once", () => {
    const httpReq = req({ httpGet: { port: 8080 } });
    expect(answer(httpReq, { stdout: "", stderr: "", exitCode: 0 }, null)).toEqual({ out: { answer: "failure", output: "500" }, immediate: false });
    expect(answer(httpReq, { stdout: "", stderr: "", exitCode: 0 }, { result: "failure", output: "connect: connection refused", tookMs: 0 }))
      .toEqual({ out: { answer: "failure", output: "connect: connection refused" }, immediate: true });
  });
});
