import { describe, expect, it } from "vitest";
import { Sim, lock, point, recv, sleep } from "../../src/sim/index.ts";
import { harness } from "./helpers.ts";

describe("bounds and diagnoses", () => {
  it("a process spinning at one instant is a livelock, named", () => {
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, bounds: { maxStepsPerInstant: 1000 } });
    sim.go("spinner", function* () {
      for (;;) yield* point();
    });
    const r = sim.run();
    expect(r.verdict).toBe("livelock");
    expect(r.diagnosis).toContain("more than 1000 steps at t=0ms");
    expect(r.diagnosis).toContain("spinner");
  });

  it("the event bound ends a runaway run", () => {
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, bounds: { maxEvents: 500 } });
    sim.go("forever", function* () {
      for (;;) yield* sleep(1);
    });
    const r = sim.run();
    expect(r.verdict).toBe("max-events");
    expect(r.endMs).toBe(500);
  });

  it("an exception inside a process names the process, the time and the replay key", () => {
    const sim = new Sim({ seed: 9, strategy: { name: "random" }, runInfo: { scenario: "x.yaml" } });
    sim.go("podworker/default/web", function* () {
      yield* sleep(1500);
      throw new Error("nil pointer dereference");
    });
    const r = sim.run();
    expect(r.verdict).toBe("panic");
    expect(r.diagnosis).toContain("panic in process podworker/default/web at t=1500ms: Error: nil pointer dereference");
    expect(r.diagnosis).toContain("replay: kubelet-sim run x.yaml --seed 9 --strategy random");
  });

  it("a deadlock lists every stuck process and what it waits on", () => {
    const h = harness();
    const a = h.sim.chan<number>("a");
    const mu = h.sim.mutex("mu");
    h.sim.go("p1", function* () {
      yield* recv(a);
    });
    h.sim.go("p2", function* () {
      mu.tryLock();
      yield* sleep(3);
      yield* lock(mu); // its own lock: stuck for good
    });
    const r = h.run();
    expect(r.verdict).toBe("deadlock");
    expect(r.diagnosis).toContain("p1 [chan receive a]");
    expect(r.diagnosis).toContain("p2 [sync.Mutex.Lock mu]");
    expect(r.endMs).toBe(3);
  });

  it("killGroup stops a group's processes for good", () => {
    const h = harness();
    h.sim.go("kubelet/syncLoop", function* () {
      for (;;) {
        yield* sleep(100);
        h.log("tick");
      }
    }, { group: "kubelet" });
    h.sim.go("fault", function* () {
      yield* sleep(250);
      h.log(`killed${h.sim.killGroup("kubelet")}`);
    });
    expect(h.run().verdict).toBe("completed");
    expect(h.lines()).toEqual(["100:tick", "200:tick", "250:killed1"]);
  });

  it("mapOrder under fifo keeps the sorted order and is recorded otherwise", () => {
    const h = harness({ name: "random" }, 3);
    const orders: string[] = [];
    h.sim.go("p", function* () {
      for (let i = 0; i < 20; i++) orders.push(h.sim.mapOrder(["a", "b", "c"]).join(""));
      yield* point();
    });
    const r = h.run();
    expect(new Set(orders)).toEqual(new Set(["abc", "bca", "cab"]));
    expect(r.choices.length).toBe(20);
  });
});
