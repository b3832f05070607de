// The replay strategy that pauses where its tape runs out (play mode): the run stops at the choice
// with the models as they stand, wherever the choice is asked: between steps (which process runs),
// in a select (which ready case), and inside a process's own code (a model's choice), which must
// not be taken for a panic of that process.
import { describe, expect, it } from "vitest";
import { ChoiceLog, Sim, StrategyPause, recv, recvCase, select, send } from "../../src/sim/index.ts";

function pausing(tape: ChoiceLog = new ChoiceLog()): Sim {
  return new Sim({ seed: 1, strategy: { name: "replay", tape, whenExhausted: "pause" } });
}

function pauseOf(sim: Sim): StrategyPause {
  try {
    sim.run();
  } catch (err) {
    if (err instanceof StrategyPause) return err;
    throw err;
  }
  throw new Error("the run did not pause");
}

describe("a replay that pauses", () => {
  it("stops at a proc choice with the runnable processes in ready-queue order", () => {
    const sim = pausing();
    sim.go("a", function* () {});
    sim.go("b", function* () {});
    const p = pauseOf(sim);
    expect([p.kind, p.n, p.choiceIndex, p.procs?.map((x) => x.name)]).toEqual(["proc", 2, 0, ["a", "b"]]);
  });

  it("stops at the next choice past its tape, after replaying the tape", () => {
    const sim = pausing(ChoiceLog.from([{ kind: "proc", n: 3, index: 2 }]));
    for (const name of ["a", "b", "c"]) sim.go(name, function* () {});
    const p = pauseOf(sim);
    expect([p.choiceIndex, p.procs?.map((x) => x.name)]).toEqual([1, ["a", "b"]]);
  });

  it("stops at a select with both ready cases attached", () => {
    const sim = pausing();
    const x = sim.chan<number>("x", 1);
    const y = sim.chan<number>("y", 1);
    sim.go("sel", function* () {
      yield* send(x, 1);
      yield* send(y, 2);
      yield* select([recvCase(x), recvCase(y)]);
    });
    const p = pauseOf(sim);
    expect(p.kind).toBe("select");
    expect((p.context as { ch: { name: string } }[]).map((c) => c.ch.name)).toEqual(["x", "y"]);
    expect(sim.current?.name).toBe("sel");
  });

  it("stops at a model's choice inside a process, which is no panic", () => {
    const sim = pausing();
    const keys = ["k1", "k2", "k3"];
    sim.go("ranger", function* () {
      yield* recv(sim.after("t", 5));
      sim.mapOrder(keys);
    });
    const p = pauseOf(sim);
    expect([p.kind, p.n, p.context, sim.nowMs]).toEqual(["value", 3, keys, 5]);
  });
});
