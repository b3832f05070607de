// The relist loop as a kernel process: 1 s boundaries, events in virtual time, the channel-full
// drop, R08's missed exit+remove (only under the pre-v1.2.0 bug), R07's stale GetNewerThan, and
// R10's stalled relist turning Healthy() false after 3 min.
import { describe, expect, it } from "vitest";
import { recv, sleep } from "../../../src/sim/index.ts";
import { unavailable } from "../../../src/cri/errors.ts";
import { c, plegHarness, pod, type PlegHarness } from "./helpers.ts";

/** A consumer process logging "t:Type:cid" for every event the PLEG sends. */
function consume(h: PlegHarness, log: string[]): void {
  h.sim.go("test/consumer", function* () {
    for (;;) {
      const { value } = yield* recv(h.pleg.Watch());
      log.push(`${h.sim.nowMs}:${value!.Type}:${String(value!.Data)}`);
    }
  });
}

/** The runtime's side: apply `steps` (time → listing) at their virtual times. */
function script(h: PlegHarness, steps: [number, () => void][]): void {
  h.sim.go("test/runtime", function* () {
    for (const [at, apply] of steps) {
      yield* sleep(at - h.sim.nowMs);
      apply();
    }
  });
}

const relistTimes = (h: PlegHarness) => h.records("pleg", "relist").map((r) => r.t);

describe("relist loop (pleg/relist)", () => {
  it("a container that starts and exits between relists gives ContainerStarted, then ContainerDied, at 1 s boundaries", () => {
    const h = plegHarness({ untilMs: 2_500 });
    const log: string[] = [];
    consume(h, log);
    script(h, [
      [500, () => (h.runtime.AllPodList = [pod("p", [c("c1", "running")])])],
      [1_500, () => (h.runtime.AllPodList = [pod("p", [c("c1", "exited")])])],
    ]);
    h.pleg.Start();
    h.sim.run();
    expect(relistTimes(h)).toEqual([0, 1_000, 2_000]);
    expect(log).toEqual(["1000:ContainerStarted:c1", "2000:ContainerDied:c1"]);
    expect(h.records("cache", "Set").map((r) => [r.t, r.timeMs])).toEqual([
      [1_000, 1_000],
      [2_000, 2_000],
    ]);
    // The global timestamp moves after every relist, after the pod's Set.
    expect(h.records("cache").map((r) => `${r.t}:${r.kind}`)).toEqual(["0:UpdateTime", "1000:Set", "1000:UpdateTime", "2000:Set", "2000:UpdateTime"]);
  });

  it("exit and removal between two relists: Died+Removed from the fixed PLEG, nothing under the R08 bug", () => {
    const run = (buggy: boolean) => {
      const h = plegHarness({ untilMs: 4_500, setCurrentKeepsMissingPods: buggy });
      const log: string[] = [];
      consume(h, log);
      // Seen running at 1 s, unchanged at 2 s (so its record is not updated), gone by 3 s.
      script(h, [
        [500, () => (h.runtime.AllPodList = [pod("p", [c("c1", "running")])])],
        [2_200, () => (h.runtime.AllPodList = [pod("p", [c("c1", "exited")])])], // RT.Exit
        [2_500, () => (h.runtime.AllPodList = [])], // CRI.RemoveContainer: the pod is gone from GetPods
      ]);
      h.pleg.Start();
      h.sim.run();
      return { h, log };
    };
    const fixed = run(false);
    expect(fixed.log).toEqual(["1000:ContainerStarted:c1", "3000:ContainerDied:c1", "3000:ContainerRemoved:c1"]);
    expect(fixed.h.cache.GetWithError("p")[0]!.containerStatuses).toEqual([]);
    const buggy = run(true);
    expect(buggy.log).toEqual(["1000:ContainerStarted:c1"]);
    // The cache keeps saying "running" while the global timestamp advances: the pod hangs (R08).
    expect(buggy.h.cache.GetWithError("p")[0]!.containerStatuses.map((s) => s.state)).toEqual(["running"]);
    expect(buggy.h.cache.globalTimestampMs).toBe(4_000);
  });

  it("a container created, exited and removed within one relist period is never seen (upstream's stated assumption)", () => {
    const h = plegHarness({ untilMs: 2_500 });
    const log: string[] = [];
    consume(h, log);
    script(h, [
      [1_100, () => (h.runtime.AllPodList = [pod("p", [c("c1", "running")])])],
      [1_400, () => (h.runtime.AllPodList = [pod("p", [c("c1", "exited")])])],
      [1_700, () => (h.runtime.AllPodList = [])],
    ]);
    h.pleg.Start();
    h.sim.run();
    expect(log).toEqual([]);
    expect(h.records("cache", "Set")).toEqual([]);
  });

  it("with nobody reading a full channel, the relist drops and counts the events", () => {
    const h = plegHarness({ untilMs: 1_500, channelCapacity: 1 });
    script(h, [[500, () => (h.runtime.AllPodList = [pod("p", [c("a", "running"), c("b", "running")])])]]);
    h.pleg.Start();
    h.sim.run();
    expect(h.pleg.Watch().length).toBe(1);
    expect(h.pleg.discardedEvents).toBe(1);
    expect(h.records("pleg", "EventDropped")).toMatchObject([{ t: 1_000, uid: "p", containerID: "b", type: "ContainerStarted" }]);
    expect(h.records("pleg", "relist").at(-1)).toMatchObject({ t: 1_000, events: 1 });
  });

  it("GetNewerThan returns once the global timestamp passes minTime, even with an entry from an earlier relist (R07's window)", () => {
    const h = plegHarness({ untilMs: 3_000 });
    const got: [number, string[]][] = [];
    script(h, [[500, () => (h.runtime.AllPodList = [pod("p", [c("c1", "running")])])]]);
    h.sim.go("test/worker", function* () {
      yield* sleep(1_500); // the worker's last sync ended at 1.5 s
      const s = yield* h.cache.GetNewerThan("p", 1_500);
      got.push([h.sim.nowMs, s.containerStatuses.map((x) => x.state)]);
    });
    h.pleg.Start();
    h.sim.run();
    expect(got).toEqual([[2_000, ["running"]]]);
    // Nothing changed at 2 s, so the entry is the one set at 1 s: the global timestamp vouches for it.
    expect(h.records("cache", "GetNewerThan")).toMatchObject([{ t: 2_000, uid: "p", minTimeMs: 1_500, statusTimeMs: 1_000, globalTimeMs: 2_000, waitedMs: 500 }]);
  });

  it("a 4 min GetPodStatus stalls relist: Healthy() is false past 3 min and waiting workers stay blocked (R10)", () => {
    const h = plegHarness({ untilMs: 300_000 });
    h.runtime.AllPodList = [pod("slow", [c("c1", "running")]), pod("b", [c("c2", "running")])];
    h.runtime.inspectMs = (uid) => (uid === "slow" ? 240_000 : 0);
    const health: [number, boolean, string | null][] = [];
    const woke: number[] = [];
    h.sim.go("test/health", function* () {
      for (const at of [180_000, 180_001, 240_000, 241_000]) {
        yield* sleep(at - h.sim.nowMs);
        const { ok, err } = h.pleg.Healthy();
        health.push([at, ok, err?.message ?? null]);
      }
    });
    h.sim.go("test/worker-b", function* () {
      yield* sleep(5_000);
      yield* h.cache.GetNewerThan("b", 5_000);
      woke.push(h.sim.nowMs);
    });
    h.pleg.Start();
    h.sim.run();
    expect(health).toEqual([
      [180_000, true, null],
      [180_001, false, "pleg was last seen active 3m0.001s ago; threshold is 3m0s"],
      [240_000, false, "pleg was last seen active 4m0s ago; threshold is 3m0s"],
      [241_000, true, null],
    ]);
    expect(h.records("pleg", "relist")[0]).toMatchObject({ t: 240_000, durationMs: 240_000 });
    expect(woke).toEqual([241_000]); // B's worker waited for the relist after the stall
  });

  it("a failed GetPods leaves the relist time where it was", () => {
    const h = plegHarness({ untilMs: 2_500 });
    script(h, [[500, () => (h.runtime.getPodsErr = unavailable("/run/containerd/containerd.sock"))]]);
    h.pleg.Start();
    h.sim.run();
    expect(h.pleg.relistTimeMs).toBe(0);
    const down = unavailable("/run/containerd/containerd.sock").message;
    expect(h.records("pleg", "relist").map((r) => r.err ?? null)).toEqual([null, down, down]);
  });

  it("Stop ends the loop; Start twice runs one loop", () => {
    const h = plegHarness({ untilMs: 5_000 });
    h.pleg.Start();
    h.pleg.Start();
    h.sim.go("test/stopper", function* () {
      yield* sleep(2_500);
      h.pleg.Stop();
    });
    h.sim.run();
    expect(relistTimes(h)).toEqual([0, 1_000, 2_000]);
  });

  it("the order of pods inspected in one relist is Go's map order: a recorded choice, replayed by its seed", () => {
    const orderOf = (seed: number) => {
      const h = plegHarness({ untilMs: 500, strategy: "random", seed });
      h.runtime.AllPodList = [pod("a", [c("a1", "running")]), pod("b", [c("b1", "running")]), pod("c", [c("c1", "running")])];
      h.pleg.Start();
      const r = h.sim.run();
      return { order: h.records("cache", "Set").map((x) => x.uid).join(""), hash: r.traceHash };
    };
    const orders = new Set<string>();
    for (let seed = 1; seed <= 10; seed++) orders.add(orderOf(seed).order);
    expect(orders.size).toBeGreaterThan(1);
    expect(orderOf(7)).toEqual(orderOf(7));
  });
});
