import { describe, expect, it } from "vitest";
import { lock, rlock, sleep, wait, point, gosched } from "../../src/sim/index.ts";
import { harness } from "./helpers.ts";

describe("sync.Mutex", () => {
  it("excludes: a second Lock waits for Unlock", () => {
    const h = harness();
    const mu = h.sim.mutex("mu");
    for (const n of ["a", "b"]) {
      h.sim.go(n, function* () {
        yield* lock(mu);
        h.log(`${n}-in`);
        yield* sleep(10);
        h.log(`${n}-out`);
        mu.unlock();
      });
    }
    h.run();
    expect(h.lines()).toEqual(["0:a-in", "10:a-out", "10:b-in", "20:b-out"]);
  });

  it("normal mode: a waiter woken within 1 ms competes with a newcomer and may lose", () => {
    // a holds the lock; b queues at t=0; a unlocks at t=0 and immediately relocks (a newcomer).
    const h = harness();
    const mu = h.sim.mutex("mu");
    h.sim.go("a", function* () {
      yield* lock(mu);
      yield* point();
      mu.unlock();
      yield* lock(mu);
      h.log("a-relocked");
      yield* sleep(5);
      mu.unlock();
    });
    h.sim.go("b", function* () {
      yield* lock(mu);
      h.log("b-in");
      mu.unlock();
    });
    h.run();
    expect(h.lines()).toEqual(["0:a-relocked", "5:b-in"]);
  });

  it("starvation mode: a waiter that waited >= 1 ms is handed the lock directly", () => {
    const h = harness();
    const mu = h.sim.mutex("mu");
    h.sim.go("a", function* () {
      yield* lock(mu);
      yield* sleep(2);
      mu.unlock();
      yield* lock(mu); // would barge in normal mode; here b has waited 2 ms
      h.log("a-relocked");
      mu.unlock();
    });
    h.sim.go("b", function* () {
      yield* lock(mu);
      h.log("b-in");
      mu.unlock();
    });
    h.run();
    expect(h.lines()).toEqual(["2:b-in", "2:a-relocked"]);
  });

  it("unlock of an unlocked mutex panics", () => {
    const h = harness();
    const mu = h.sim.mutex("mu");
    h.sim.go("p", function* () {
      yield* point();
      mu.unlock();
    });
    expect(h.run().diagnosis).toContain("sync: unlock of unlocked mutex mu");
  });
});

describe("sync.RWMutex", () => {
  it("readers share; a pending writer blocks new readers; the writer's unlock frees readers", () => {
    const h = harness();
    const mu = h.sim.rwmutex("rw");
    h.sim.go("r1", function* () {
      yield* rlock(mu);
      h.log("r1-in");
      yield* sleep(10);
      mu.runlock();
    });
    h.sim.go("w", function* () {
      yield* sleep(1);
      yield* lock(mu);
      h.log("w-in");
      yield* sleep(10);
      mu.unlock();
    });
    h.sim.go("r2", function* () {
      yield* sleep(2);
      yield* rlock(mu);
      h.log("r2-in");
      mu.runlock();
    });
    h.run();
    expect(h.lines()).toEqual(["0:r1-in", "10:w-in", "20:r2-in"]);
  });
});

describe("sync.WaitGroup and scheduling points", () => {
  it("Wait returns when the counter reaches zero", () => {
    const h = harness();
    const wg = h.sim.waitGroup("wg");
    wg.add(2);
    for (const [n, ms] of [["a", 5], ["b", 9]] as const) {
      h.sim.go(n, function* () {
        yield* sleep(ms);
        wg.done();
      });
    }
    h.sim.go("waiter", function* () {
      yield* wait(wg);
      h.log("all-done");
    });
    h.run();
    expect(h.lines()).toEqual(["9:all-done"]);
  });

  it("a negative counter panics", () => {
    const h = harness();
    const wg = h.sim.waitGroup("wg");
    h.sim.go("p", function* () {
      yield* point();
      wg.done();
    });
    expect(h.run().diagnosis).toContain("negative WaitGroup counter");
  });

  it("gosched lets every other runnable process go first", () => {
    const h = harness();
    h.sim.go("a", function* () {
      yield* gosched();
      h.log("a");
    });
    h.sim.go("b", function* () {
      h.log("b");
      yield* point();
    });
    h.run();
    expect(h.lines()).toEqual(["0:b", "0:a"]);
  });
});
