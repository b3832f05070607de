import { describe, expect, it } from "vitest";
import { CriError, probeScript, program, type ExecSyncResponse } from "../../src/cri/index.ts";
import { sleep, type Proc } from "../../src/sim/index.ts";
import { containerConfig, harness, sandboxConfig, type RuntimeHarness } from "./helpers.ts";

const images = { "nginx:1.25": { present: true, pullTime: null, fail: null } };

function* started(h: RuntimeHarness): Proc<string> {
  const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
  const c = (yield* h.rt.CreateContainer(sb, containerConfig(), sandboxConfig())) as string;
  yield* h.rt.StartContainer(c);
  return c;
}

describe("probe answers and exec", () => {
  // Liveness fails in [2s, 4s) after start, times out in [4s, 5s), succeeds otherwise.
  const liveness = probeScript(
    [
      { fromMs: 2000, toMs: 4000, answer: "failure" },
      { fromMs: 4000, toMs: 5000, answer: "timeout" },
    ],
    "success",
    3,
  );

  it.each([
    [1000, { result: "success", tookMs: 3 }],
    [2500, { result: "failure", tookMs: 3 }],
    [4200, { result: "timeout", tookMs: 1000 }],
    [6000, { result: "success", tookMs: 3 }],
  ])("a network liveness probe %i ms after start answers %j", (atMs, want) => {
    const h = harness({ images });
    h.rt.setBehaviour("default/web", "app", [program({ probes: { liveness } })]);
    const out = h.run(function* () {
      const c = yield* started(h);
      yield* sleep(atMs);
      return yield* h.rt.probe(c, "liveness", 1000);
    });
    expect({ result: out.result, tookMs: out.tookMs }).toEqual(want);
  });

  it("probes answer per attempt: the first run never gets ready, the second does", () => {
    const never = probeScript([], "failure");
    const h = harness({ images });
    h.rt.setBehaviour("default/web", "app", [program({ probes: { readiness: never } }), program()]);
    const out = h.run(function* () {
      const sb = (yield* h.rt.RunPodSandbox(sandboxConfig(), "")) as string;
      const results: string[] = [];
      for (const attempt of [0, 1]) {
        const c = (yield* h.rt.CreateContainer(sb, containerConfig("app", attempt), sandboxConfig())) as string;
        yield* h.rt.StartContainer(c);
        results.push((yield* h.rt.probe(c, "readiness", 1000)).result);
      }
      return results;
    });
    expect(out).toEqual(["failure", "success"]);
  });

  it("an exec probe through ExecSync: exit codes, and DeadlineExceeded at the probe's timeout", () => {
    const h = harness({ images });
    h.rt.setBehaviour("default/web", "app", [program({ probes: { liveness } })]);
    const out = h.run(function* () {
      const c = yield* started(h);
      const ok = yield* h.rt.ExecSync(c, ["cat", "/tmp/healthy"], 1, { probe: "liveness" });
      yield* sleep(2000);
      const bad = yield* h.rt.ExecSync(c, ["cat", "/tmp/healthy"], 1, { probe: "liveness" });
      yield* sleep(2000);
      const t0 = h.sim.nowMs;
      const hung = yield* h.rt.ExecSync(c, ["cat", "/tmp/healthy"], 1, { probe: "liveness" });
      return [ok, bad, hung, h.sim.nowMs - t0] as const;
    });
    const [ok, bad, hung, hungMs] = out as unknown as [ExecSyncResponse, ExecSyncResponse, CriError, number];
    expect(ok.exitCode).toBe(0);
    expect(bad.exitCode).toBe(1);
    expect(hung.code).toBe("DeadlineExceeded");
    expect(hung.desc).toBe("failed to exec in container: timeout 1s exceeded: context deadline exceeded");
    expect(hungMs).toBe(10 + 1000);
  });

  it("hooks take their time and fail with their output", () => {
    const h = harness({ images });
    h.rt.setBehaviour("default/web", "app", [program({ hooks: { preStop: { durationMs: 3000, error: "drain failed" }, postStart: { durationMs: 50, error: null } } })]);
    const out = h.run(function* () {
      const c = yield* started(h);
      const t0 = h.sim.nowMs;
      const post = (yield* h.rt.ExecSync(c, ["init"], 0, { hook: "postStart" })) as ExecSyncResponse;
      const t1 = h.sim.nowMs;
      const pre = (yield* h.rt.ExecSync(c, ["drain"], 0, { hook: "preStop" })) as ExecSyncResponse;
      return { post, pre, postMs: t1 - t0, preMs: h.sim.nowMs - t1 };
    });
    expect([out.post.exitCode, out.postMs]).toEqual([0, 60]);
    expect([out.pre.exitCode, out.pre.stderr, out.preMs]).toEqual([1, "drain failed", 3010]);
  });

  it("a readiness window counted from SIGTERM: unready while it drains", () => {
    const h = harness({ images });
    const readiness = { ...probeScript([]), sigtermWindows: [{ fromMs: 0, toMs: null, answer: "failure" as const }] };
    h.rt.setBehaviour("default/web", "app", [program({ probes: { readiness }, onSigterm: { kind: "exit", afterMs: 10_000, code: 0 } })]);
    const out = h.run(function* () {
      const c = yield* started(h);
      const before = (yield* h.rt.probe(c, "readiness", 1000)).result;
      h.sim.go("stopper", function* () {
        yield* h.rt.StopContainer(c, 30);
      });
      yield* sleep(2000);
      return [before, (yield* h.rt.probe(c, "readiness", 1000)).result];
    });
    expect(out).toEqual(["success", "failure"]);
  });

  it("exec in a container that is not running fails; a network probe is refused", () => {
    const h = harness({ images });
    h.rt.setBehaviour("default/web", "app", [program({ run: { kind: "exit", afterMs: 0, code: 1 } })]);
    const out = h.run(function* () {
      const c = yield* started(h);
      yield* sleep(1);
      return [yield* h.rt.ExecSync(c, ["true"], 1, null), yield* h.rt.probe(c, "readiness", 1000), yield* h.rt.ExecSync("c-9", ["true"], 1)];
    });
    expect((out[0] as CriError).desc).toBe('container "c-1" is in CONTAINER_EXITED state');
    expect(out[1]).toEqual({ result: "failure", output: "connect: connection refused", tookMs: 0 });
    expect((out[2] as CriError).code).toBe("NotFound");
  });
});
