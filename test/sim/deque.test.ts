import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Deque } from "../../src/sim/deque.ts";
import { Sim, recv, send } from "../../src/sim/index.ts";

describe("Deque", () => {
  it("behaves like an array under any mix of operations, for any initial capacity", () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant("pushBack" as const), v: fc.integer() }),
      fc.record({ k: fc.constant("pushFront" as const), v: fc.integer() }),
      fc.record({ k: fc.constant("popFront" as const) }),
      fc.record({ k: fc.constant("removeAt" as const), i: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.array(op, { maxLength: 60 }), (cap, ops) => {
        const d = new Deque<number>(cap);
        const model: number[] = [];
        for (const o of ops) {
          if (o.k === "pushBack") (d.pushBack(o.v), model.push(o.v));
          else if (o.k === "pushFront") (d.pushFront(o.v), model.unshift(o.v));
          else if (o.k === "popFront") expect(d.popFront()).toBe(model.shift());
          else if (model.length > 0) {
            const i = o.i % model.length;
            expect(d.removeAt(i)).toBe(model.splice(i, 1)[0]);
          }
          expect(d.toArray()).toEqual(model);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a buffered channel of capacity 3 keeps its values (regression: masks need a power of two)", () => {
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" } });
    const ch = sim.chan<number>("c", 3);
    const got: (number | undefined)[] = [];
    sim.go("p", function* () {
      for (const v of [1, 2, 3]) yield* send(ch, v);
      for (let i = 0; i < 3; i++) got.push((yield* recv(ch)).value);
    });
    sim.run();
    expect(got).toEqual([1, 2, 3]);
  });
});
