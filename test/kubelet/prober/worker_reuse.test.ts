// A probe worker reuses its last pass's decision to probe (worker.ts, reusablePrepare) while its
// inputs are unchanged: the same frozen status from the status manager, the same deletion answer,
// the same container ID and hold. A new status object, or a hold, makes it decide afresh; and what
// the worker does is the same as when it decides every time (statuses that are not frozen are
// never reused).
import { afterEach, describe, expect, it, vi } from "vitest";
import { sleep } from "../../../src/sim/index.ts";
import type { PodStatus } from "../../../src/k8s/pod.ts";
import { ProberManager } from "../../../src/kubelet/prober/prober_manager.ts";
import { Worker } from "../../../src/kubelet/prober/worker.ts";
import { drainUpdates, FakeStatusProvider, newSim, podWith, probe, resultsManagers, runningStatus, ScriptedRunner } from "./fakes.ts";

function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

afterEach(() => vi.restoreAllMocks());

/** A liveness probe failing from 65 s (held after 3 failures) and a readiness probe; the status is replaced at 45 s. */
function run(freeze: boolean): { decided: number[]; records: string[] } {
  const { sim, sink } = newSim(1, 120_000);
  const status = new FakeStatusProvider();
  const runner = new ScriptedRunner(sim);
  runner.answers.liveness = (now) => (now >= 65_000 ? "failure" : "success");
  const rms = resultsManagers(sim);
  const pm = new ProberManager(sim, { statusManager: status, runner, version: 33, ...rms });
  drainUpdates(sim, [rms.livenessManager, rms.readinessManager]);
  const put = (s: PodStatus) => status.statuses.set("uid-1", freeze ? deepFreeze(s) : s);
  const decided: number[] = [];
  const proto = Worker.prototype as unknown as { prepare: (...a: unknown[]) => unknown };
  const original = proto.prepare;
  const prepare = vi.spyOn(proto, "prepare").mockImplementation(function (this: unknown, ...args: unknown[]) {
    decided.push(sim.nowMs);
    return original.apply(this, args);
  });
  put(runningStatus(["app"], 0, true));
  sim.go("test", function* () {
    yield* sleep(20_000);
    pm.AddPod(podWith([{ name: "app", livenessProbe: probe(), readinessProbe: probe({ periodSeconds: 10 }) }]));
    yield* sleep(25_000);
    put(runningStatus(["app"], 0, true)); // a new status object, the same content
  });
  sim.run();
  prepare.mockRestore();
  return { decided, records: sink.records.filter((r) => r.component === "prober").map((r) => JSON.stringify(r)) };
}

describe("a probe worker's reused decision", () => {
  it("is taken while the inputs are unchanged, dropped for a new status object or a hold, and changes nothing the worker does", () => {
    const frozen = run(true);
    const fresh = run(false);
    expect(frozen.records).toEqual(fresh.records);
    // Not frozen: decided at every tick of both workers (20 s, then every 10 s to 110 s, and the final hold checks).
    expect(fresh.decided.length).toBeGreaterThan(frozen.decided.length);
    // Frozen: at 20 s (a new container: results to set first) and 30 s (the first steady pass) for
    // both workers, reused at 40 s; decided again at 50 s, after the status object changed at 45 s,
    // and reused after; liveness's third failure at 90 s put it on hold, which it checks afresh at
    // every tick from 100 s (a hold is not a decision to probe).
    expect(frozen.decided).toEqual([20_000, 20_000, 30_000, 30_000, 50_000, 50_000, 100_000, 110_000, 120_000]);
  });
});
