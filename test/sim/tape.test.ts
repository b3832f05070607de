// tape: a recorded tape is followed while the run asks the same questions, and every later choice
// (or every one after the first that no longer fits) is the other strategy's.
import { describe, expect, it } from "vitest";
import { ChoiceLog, Sim, sleep } from "../../src/sim/index.ts";
import { TapeStrategy, type ProcList, type ProcRef, type Strategy } from "../../src/sim/strategy/index.ts";

/** A strategy that always answers `k` (mod n) and counts what it was asked. */
function constant(k: number): Strategy & { asked: number; spawned: number } {
  return {
    name: `const${k}`,
    asked: 0,
    spawned: 0,
    choose(_kind, n) {
      this.asked++;
      return k % n;
    },
    onSpawn() {
      this.spawned++;
    },
  };
}
const none: ProcList | null = null;
const tape = (text: string) => ChoiceLog.decode(text);

describe("TapeStrategy", () => {
  it("answers from the tape while each choice fits, then from the other strategy", () => {
    const then = constant(0);
    const s = new TapeStrategy(tape("p1/2 s2/3"), then);
    expect(s.choose("proc", 2, none)).toBe(1);
    expect(s.choose("select", 3, none)).toBe(2);
    expect(s.choose("proc", 2, none)).toBe(0);
    expect(s.followed).toBe(2);
    expect(then.asked).toBe(1);
  });

  it("leaves the tape for good at the first choice that does not fit (another kind or count)", () => {
    const then = constant(1);
    const s = new TapeStrategy(tape("p1/2 p0/2 p1/2"), then);
    expect(s.choose("proc", 2, none)).toBe(1);
    expect(s.choose("proc", 3, none)).toBe(1); // recorded among 2, asked among 3: the other strategy
    expect(s.choose("proc", 2, none)).toBe(1); // the tape would say 0, but it was left
    expect(s.followed).toBe(1);
  });

  it("tells the other strategy of every spawn, so its priorities are ready when the tape ends", () => {
    const then = constant(0);
    const s = new TapeStrategy(tape(""), then);
    const p: ProcRef = { id: 1, name: "p", resumeOn: null };
    s.onSpawn(p);
    expect(then.spawned).toBe(1);
  });

  it("in a run, replays the tape's prefix of a recorded run exactly and goes on under the other strategy", () => {
    const program = (sim: Sim) => {
      for (const name of ["a", "b", "c"]) sim.go(name, function* () {
        for (let i = 0; i < 3; i++) {
          yield* sleep(1);
          sim.emit("t", "tick", { who: name, i });
        }
      });
    };
    const first = new Sim({ seed: 3, strategy: { name: "random" } });
    program(first);
    const recorded = first.run().choices;
    const prefix = ChoiceLog.from(recorded.toArray().slice(0, 4));
    const second = new Sim({ seed: 9, strategy: { name: "tape", tape: prefix, then: { name: "fifo" } } });
    program(second);
    const got = second.run().choices.toArray();
    expect(got.slice(0, 4)).toEqual(recorded.toArray().slice(0, 4));
    expect(got.slice(4).every((c) => c.index === 0)).toBe(true);
  });
});
