import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { programArb, replayOf, runProgram } from "./programs.ts";
import { ChoiceLog } from "../../src/sim/index.ts";

const strategies = ["random", "pct"] as const;
const spec = (s: (typeof strategies)[number]) =>
  s === "random" ? ({ name: "random" } as const) : ({ name: "pct", depth: 3, steps: 50 } as const);

describe("kernel determinism (fast-check over random process programs)", () => {
  it("same program, seed and strategy ⇒ byte-identical trace", () => {
    fc.assert(
      fc.property(programArb(), fc.integer({ min: 0, max: 1e6 }), fc.constantFrom(...strategies), (prog, seed, s) => {
        const a = runProgram(prog, seed, spec(s));
        const b = runProgram(prog, seed, spec(s));
        expect(b.records).toEqual(a.records);
        expect(b.result.traceHash).toBe(a.result.traceHash);
      }),
      { numRuns: 150 },
    );
  });

  it("replaying the recorded choices reproduces the identical trace", () => {
    fc.assert(
      fc.property(programArb(), fc.integer({ min: 0, max: 1e6 }), fc.constantFrom(...strategies), (prog, seed, s) => {
        const original = runProgram(prog, seed, spec(s));
        const label = original.result.replayKey.split("--strategy ")[1]!;
        const replayed = runProgram(prog, seed, replayOf(original), label);
        expect(replayed.result.verdict).toBe(original.result.verdict);
        expect(replayed.records).toEqual(original.records);
      }),
      { numRuns: 150 },
    );
  });

  it("fifo consumes no randomness: the seed changes nothing but model draws", () => {
    fc.assert(
      fc.property(programArb(), fc.integer({ min: 0, max: 1e6 }), (prog, seed) => {
        const noDraws = { ...prog, procs: prog.procs.map((ps) => ps.filter((s) => s.op !== "draw")) };
        const strip = (lines: string[]) => lines.slice(1, -1);
        const a = runProgram(noDraws, seed, { name: "fifo" });
        const b = runProgram(noDraws, seed + 1, { name: "fifo" });
        expect(strip(b.records)).toEqual(strip(a.records));
        expect(a.result.choices.deviations()).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  it("a recording that no longer fits stops at the first divergence and says where", () => {
    fc.assert(
      fc.property(programArb(), fc.integer({ min: 0, max: 1e6 }), (prog, seed) => {
        const original = runProgram(prog, seed, { name: "random" });
        const tape = original.result.choices;
        fc.pre(tape.length > 0);
        const bad = ChoiceLog.from(tape.toArray().map((c, i) => (i === 0 ? { ...c, n: c.n + 1 } : c)));
        const r = runProgram(prog, seed, { name: "replay", tape: bad, whenExhausted: "diverge" });
        expect(r.result.verdict).toBe("diverged");
        expect(r.result.diagnosis).toMatch(/^replay diverged at choice #0: recorded a \w+ choice among \d+/);
      }),
      { numRuns: 60 },
    );
  });

  it("choice tapes survive their text encoding", () => {
    fc.assert(
      fc.property(programArb(), fc.integer({ min: 0, max: 1e6 }), (prog, seed) => {
        const tape = runProgram(prog, seed, { name: "random" }).result.choices;
        expect(ChoiceLog.decode(tape.encode()).toArray()).toEqual(tape.toArray());
      }),
      { numRuns: 60 },
    );
  });
});

describe("trace delivery order", () => {
  it("a record emitted from inside a sink's write reaches every sink after the current one, in seq order", async () => {
    const { Sim, MemorySink, sleep } = await import("../../src/sim/index.ts");
    const late = new MemorySink();
    let sim: InstanceType<typeof Sim>;
    const reacting = {
      wantsLines: false,
      write(rec: { kind: string }) {
        if (rec.kind === "ping") sim.emit("check", "pong");
      },
    };
    sim = new Sim({ seed: 1, strategy: { name: "fifo" }, sinks: [reacting, late] });
    sim.go("p", function* () {
      sim.emit("test", "ping");
      sim.emit("test", "after");
      yield* sleep(1);
    });
    sim.run();
    const seqs = late.records.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(late.records.map((r) => r.kind)).toEqual(["run", "ping", "pong", "after", "end"]);
  });
});
