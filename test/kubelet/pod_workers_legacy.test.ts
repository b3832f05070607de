import { describe, expect, it } from "vitest";
import { call, sleep, type Proc } from "../../src/sim/index.ts";
import { LegacyPodWorkers, type LegacySyncPodOptions } from "../../src/kubelet/pod_workers_legacy.ts";
import { WorkQueue } from "../../src/kubelet/util/queue.ts";
import { SyncPodCreate, SyncPodKill, SyncPodSync, SyncPodUpdate, type GoError } from "../../src/kubelet/types.ts";
import { InstantCache, newSim, pod } from "./pod_workers_fakes.ts";

function setup(syncMs: (o: LegacySyncPodOptions) => number) {
  const { sim, sink } = newSim();
  const calls: string[] = [];
  const syncPodFn = function* (o: LegacySyncPodOptions): Proc<GoError> {
    calls.push(`${sim.nowMs}:${o.updateType}`);
    yield* call(syncMs(o), "syncPod");
    return null;
  };
  const pw = new LegacyPodWorkers(sim, syncPodFn, { Eventf: () => {} }, new WorkQueue(sim), 60_000, 10_000, new InstantCache(sim));
  return { sim, sink, calls, pw };
}

describe("pod workers (v1.21 and before)", () => {
  it("updates arriving while the worker is busy coalesce into the last one", () => {
    const { sim, calls, pw } = setup(() => 1000);
    sim.go("test", function* () {
      pw.UpdatePod({ Pod: pod("web", "u1"), UpdateType: SyncPodCreate });
      yield* sleep(10);
      pw.UpdatePod({ Pod: pod("web", "u1"), UpdateType: SyncPodUpdate });
      pw.UpdatePod({ Pod: pod("web", "u1"), UpdateType: SyncPodSync });
      yield* sleep(5000);
    });
    sim.run();
    expect(calls).toEqual(["0:create", "1000:sync"]);
  });

  it("R05: a pending kill pins lastUndeliveredWorkUpdate and a later sync is dropped", () => {
    const { sim, sink, calls, pw } = setup((o) => (o.updateType === SyncPodKill ? 30_000 : 1000));
    const killOpts = { PodStatusFunc: () => ({ phase: "Failed" as const }) };
    sim.go("test", function* () {
      pw.UpdatePod({ Pod: pod("web", "u1"), UpdateType: SyncPodCreate });
      yield* sleep(200);
      pw.UpdatePod({ Pod: pod("web", "u1"), UpdateType: SyncPodKill, KillPodOptions: killOpts });
      yield* sleep(300);
      pw.UpdatePod({ Pod: pod("web", "u1"), UpdateType: SyncPodSync }); // a PLEG event: dropped
      yield* sleep(60_000);
    });
    sim.run();
    expect(calls).toEqual(["0:create", "1000:kill"]);
    expect(sink.records.some((r) => r.kind === "UpdateDropped" && r.updateType === "sync")).toBe(true);
  });

  it("killPodNow times out after 1.5x the grace period (at least 10 s) with ExceededGracePeriod", () => {
    const { sim, pw } = setup((o) => (o.updateType === SyncPodKill ? 100_000 : 1000));
    const events: string[] = [];
    (pw as unknown as { recorder: { Eventf: (...a: unknown[]) => void } }).recorder = { Eventf: (_p, _t, r) => void events.push(String(r)) };
    let result = "";
    sim.go("test", function* () {
      const err = yield* pw.killPodNow(pod("web", "u1", {}, 4), { phase: "Failed" });
      result = `${sim.nowMs}:${err?.message}`;
    });
    sim.run();
    expect(result).toBe("10000:timeout waiting to kill pod");
    expect(events).toEqual(["ExceededGracePeriod"]);
  });

  it("ForgetNonExistingPodWorkers closes the worker's channel and drops its parked update", () => {
    const { sim, calls, pw } = setup(() => 1000);
    sim.go("test", function* () {
      pw.UpdatePod({ Pod: pod("web", "u1"), UpdateType: SyncPodCreate });
      yield* sleep(10);
      pw.UpdatePod({ Pod: pod("web", "u1"), UpdateType: SyncPodUpdate });
      pw.ForgetNonExistingPodWorkers(new Set());
      yield* sleep(5000);
    });
    const r = sim.run();
    expect(calls).toEqual(["0:create"]);
    expect(r.verdict).not.toBe("panic");
  });
});
