// runUntil pauses a run at virtual instants without changing it: the same steps, the same trace.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { programArb, runProgram } from "./programs.ts";
import { harness } from "./helpers.ts";
import { sleep } from "../../src/sim/index.ts";

describe("Sim.runUntil", () => {
  it("pausing anywhere leaves the trace of a run byte for byte", () => {
    fc.assert(
      fc.property(programArb(), fc.integer({ min: 0, max: 1000 }), fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 4 }), (prog, seed, pauses) => {
        const whole = runProgram(prog, seed, { name: "random" });
        const paused = runProgram(prog, seed, { name: "random" }, undefined, [...pauses].sort((a, b) => a - b));
        expect(paused.records).toEqual(whole.records);
        expect(paused.result.traceHash).toBe(whole.result.traceHash);
      }),
      { numRuns: 150 },
    );
  });

  it("pausing after any number of events (runSlice) leaves it too, even between two steps of one instant", () => {
    fc.assert(
      fc.property(programArb(), fc.integer({ min: 0, max: 1000 }), fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 8 }), (prog, seed, budgets) => {
        const whole = runProgram(prog, seed, { name: "random" });
        const sliced = runProgram(prog, seed, { name: "random" }, undefined, [], budgets);
        expect(sliced.records).toEqual(whole.records);
        expect(sliced.result.traceHash).toBe(whole.result.traceHash);
        expect(sliced.result.choices.encode()).toBe(whole.result.choices.encode());
      }),
      { numRuns: 150 },
    );
  });

  it("runSlice stops after its events with the clock where they ran, and goes on from there", () => {
    const h = harness();
    for (const name of ["a", "b", "c"]) {
      h.sim.go(name, function* () {
        h.log(name);
        yield* sleep(10);
        h.log(`${name}10`);
      });
    }
    expect(h.sim.runSlice(100, 2)).toBe("budget");
    expect(h.sim.nowMs).toBe(0);
    expect(h.lines()).toEqual(["0:a", "0:b"]);
    expect(h.sim.runSlice(100, 0)).toBe("budget");
    expect(h.sim.runSlice(5, 1000)).toBe("paused");
    expect(h.lines()).toEqual(["0:a", "0:b", "0:c"]);
    expect(h.sim.runSlice(100, 1000)).toBe("idle");
    expect(h.lines()).toEqual(["0:a", "0:b", "0:c", "10:a10", "10:b10", "10:c10"]);
  });

  it("stops at the instant, reports idle when nothing is left, and run() then finishes", () => {
    const h = harness();
    h.sim.go("a", function* () {
      h.log("start");
      yield* sleep(10);
      h.log("ten");
      yield* sleep(10);
      h.log("twenty");
    });
    expect(h.sim.runUntil(15)).toBe("paused");
    expect(h.sim.nowMs).toBe(15);
    expect(h.lines()).toEqual(["0:start", "10:ten"]);
    expect(h.sim.runUntil(1000)).toBe("idle");
    expect(h.sim.nowMs).toBe(20);
    expect(h.run().verdict).toBe("completed");
    expect(h.sink.records.filter((r) => r.kind === "run")).toHaveLength(1);
  });

  it("ends with the until bound like run() does", () => {
    const h = harness({ name: "fifo" }, 1, 50);
    h.sim.go("tick", function* () {
      for (let i = 0; i < 100; i++) yield* sleep(20);
    });
    expect(h.sim.runUntil(1000)).toBe("until");
    expect(h.sim.nowMs).toBe(50);
  });
});
