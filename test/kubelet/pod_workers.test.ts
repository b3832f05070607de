import { describe, expect, it } from "vitest";
import { sleep } from "../../src/sim/index.ts";
import { PodWorkers, killPodNow } from "../../src/kubelet/pod_workers.ts";
import { WorkQueue } from "../../src/kubelet/util/queue.ts";
import { SyncPodCreate, SyncPodKill, SyncPodSync, SyncPodUpdate } from "../../src/kubelet/types.ts";
import { FakeSyncer, InstantCache, newSim, pod } from "./pod_workers_fakes.ts";

function setup() {
  const { sim, sink } = newSim();
  const syncer = new FakeSyncer(sim);
  const events: string[] = [];
  const pw = new PodWorkers(sim, syncer, { Eventf: (_p, _t, reason) => void events.push(reason) }, new WorkQueue(sim), 60_000, 10_000, new InstantCache(sim));
  return { sim, sink, syncer, pw, events };
}

describe("pod workers (v1.22+): the one-way state machine", () => {
  it("a created pod is synced, and the worker asks for a resync", () => {
    const { sim, syncer, pw } = setup();
    sim.go("test", function* () {
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: pod("web", "u1") });
      yield* sleep(1000);
    });
    sim.run();
    expect(syncer.calls).toEqual(["0:SyncPod(web,create)"]);
    expect(pw.workQueue.length).toBe(1);
    expect(pw.CouldHaveRunningContainers("u1")).toBe(true);
  });

  it("a delete during SyncPod cancels it, then terminating → terminated → finished with the API grace", () => {
    const { sim, syncer, pw } = setup();
    const p = pod("web", "u1");
    const states: string[] = [];
    sim.go("test", function* () {
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: p });
      yield* sleep(50);
      pw.UpdatePod({ UpdateType: SyncPodUpdate, Pod: pod("web", "u1", { deletionTimestamp: "t", deletionGracePeriodSeconds: 20 }) });
      states.push(`terminating=${pw.ShouldPodContainersBeTerminating("u1")}`);
      yield* sleep(1000);
      states.push(`running=${pw.CouldHaveRunningContainers("u1")} finished=${pw.ShouldPodBeFinished("u1")}`);
    });
    sim.run();
    expect(syncer.calls).toEqual([
      "0:SyncPod(web,create)",
      "100:SyncPod(web) cancelled",
      "100:SyncTerminatingPod(web,grace=20)",
      "200:SyncTerminatedPod(web)",
    ]);
    // Termination is requested at 50 but only "started" once the worker observes it.
    expect(states).toEqual(["terminating=false", "running=false finished=true"]);
    expect(pw.ShouldPodContentBeRemoved("u1")).toBe(true);
  });

  it("a second delete may only shorten the grace period, and cancels the terminating sync", () => {
    const { sim, syncer, pw } = setup();
    syncer.terminatingMs = 5000;
    sim.go("test", function* () {
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: pod("web", "u1") });
      yield* sleep(200);
      pw.UpdatePod({ UpdateType: SyncPodUpdate, Pod: pod("web", "u1", { deletionTimestamp: "t", deletionGracePeriodSeconds: 30 }) });
      yield* sleep(100);
      pw.UpdatePod({ UpdateType: SyncPodUpdate, Pod: pod("web", "u1", { deletionTimestamp: "t", deletionGracePeriodSeconds: 60 }) });
      pw.UpdatePod({ UpdateType: SyncPodUpdate, Pod: pod("web", "u1", { deletionTimestamp: "t", deletionGracePeriodSeconds: 5 }) });
      yield* sleep(20_000);
    });
    sim.run();
    expect(syncer.calls.filter((c) => c.includes("Terminating"))).toEqual([
      "200:SyncTerminatingPod(web,grace=30)",
      "5200:SyncTerminatingPod(web,grace=5)",
    ]);
  });

  it("a pod whose SyncPod reports terminal goes through terminating on its own", () => {
    const { sim, syncer, pw } = setup();
    syncer.terminal = true;
    sim.go("test", function* () {
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: pod("job", "u2") });
      yield* sleep(1000);
    });
    sim.run();
    expect(syncer.calls).toEqual(["0:SyncPod(job,create)", "100:SyncTerminatingPod(job,grace=undefined)", "200:SyncTerminatedPod(job)"]);
    expect(pw.IsPodKnownTerminated("u2")).toBe(true);
  });

  it("a finished pod ignores further updates: a terminated pod is never restarted", () => {
    const { sim, syncer, pw } = setup();
    syncer.terminal = true;
    sim.go("test", function* () {
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: pod("job", "u2") });
      yield* sleep(1000);
      pw.UpdatePod({ UpdateType: SyncPodUpdate, Pod: pod("job", "u2") });
      yield* sleep(1000);
    });
    sim.run();
    expect(syncer.calls.filter((c) => c.includes("SyncPod("))).toEqual(["0:SyncPod(job,create)"]);
  });

  it("static pods with the same full name start one at a time (R04's fix)", () => {
    const { sim, syncer, pw } = setup();
    const annotations = { "kubernetes.io/config.source": "file" };
    const queued: string[][] = [];
    sim.go("test", function* () {
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: pod("etcd", "old", { annotations }) });
      yield* sleep(500);
      pw.UpdatePod({ UpdateType: SyncPodKill, Pod: pod("etcd", "old", { annotations }) });
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: pod("etcd", "new", { annotations }) });
      yield* sleep(20_000);
      // The kubelet's sync loop re-dispatches what the work queue holds (getPodsToSync).
      queued.push(pw.workQueue.GetWork());
      pw.UpdatePod({ UpdateType: SyncPodUpdate, Pod: pod("etcd", "new", { annotations }) });
      yield* sleep(1000);
    });
    sim.run();
    expect(queued[0]).toContain("new");
    expect(syncer.calls).toEqual([
      "0:SyncPod(etcd,create)",
      "500:SyncTerminatingPod(etcd,grace=30)",
      "600:SyncTerminatedPod(etcd)",
      "20500:SyncPod(etcd,update)",
    ]);
  });

  it("re-creating a terminating pod with the same UID restarts it only after SyncKnownPods purges it (R03)", () => {
    const { sim, syncer, pw } = setup();
    const p = pod("web", "same");
    sim.go("test", function* () {
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: p });
      yield* sleep(500);
      pw.UpdatePod({ UpdateType: SyncPodKill, Pod: p });
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: p });
      yield* sleep(1000);
      const known = pw.SyncKnownPods([p]);
      if (!known.has("same")) pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: p });
      yield* sleep(1000);
    });
    sim.run();
    expect(syncer.calls.filter((c) => c.includes("SyncPod(web,create)"))).toEqual(["0:SyncPod(web,create)", "1500:SyncPod(web,create)"]);
  });

  it("an orphan that never started is forgotten by SyncKnownPods without any sync", () => {
    const { sim, syncer, pw } = setup();
    const annotations = { "kubernetes.io/config.source": "file" };
    sim.go("test", function* () {
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: pod("a", "u-a", { annotations }) });
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: pod("a", "u-b", { annotations }) });
      yield* sleep(10);
      const known = pw.SyncKnownPods([pod("a", "u-a", { annotations })]);
      expect([...known.keys()]).toEqual(["u-a"]);
      yield* sleep(10);
    });
    sim.run();
    expect(syncer.calls).toEqual(["0:SyncPod(a,create)"]);
  });

  it("killPodNow returns once SyncTerminatingPod completed, which got the kill's PodStatusFunc", () => {
    const { sim, syncer, pw } = setup();
    let result: string = "pending";
    sim.go("test", function* () {
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: pod("web", "u1") });
      yield* sleep(500);
      const statusFn = (s: { phase?: string; reason?: string }) => void Object.assign(s, { phase: "Failed", reason: "Evicted" });
      const err = yield* killPodNow(pw, sim, { Eventf: () => {} })(pod("web", "u1"), true, 2, statusFn);
      result = `${sim.nowMs}:${err === null ? "ok" : err.message}`;
    });
    sim.run();
    expect(result).toBe("600:ok");
    expect(syncer.calls).toContain("500:SyncTerminatingPod(web,grace=2,Failed/Evicted)");
    expect(pw.ShouldPodContentBeRemoved("u1")).toBe(true);
  });
});

describe("mergeLastUpdate keeps Go's zero update type (SyncPodSync) on the active update", () => {
  it("a replayed update (requeueLastPodUpdate) syncs as SyncPodSync, not as the last update's type", () => {
    const { sim, syncer, pw } = setup();
    syncer.terminal = true;
    sim.go("test", function* () {
      pw.UpdatePod({ UpdateType: SyncPodCreate, Pod: pod("web", "u1") });
      yield* sleep(10_000);
    });
    sim.run();
    const status = pw.podSyncStatuses.get("u1")!;
    expect(status.activeUpdate!.UpdateType).toBe(SyncPodSync);
    // SyncPod ran with the create; the terminal sync requeued the active update for termination.
    expect(syncer.calls[0]).toBe("0:SyncPod(web,create)");
    expect(syncer.calls.some((c) => c.includes("SyncTerminatingPod(web"))).toBe(true);
  });
});
