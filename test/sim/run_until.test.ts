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
