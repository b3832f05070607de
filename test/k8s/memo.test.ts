// The memo helpers: a pure function computed once per frozen object, or per primitive key in a
// bounded map; an unfrozen object and a call that throws are never kept.
import { describe, expect, it } from "vitest";
import { perFrozenObject, perKey } from "../../src/k8s/memo.ts";

describe("perFrozenObject", () => {
  it("computes once per frozen object and every time for an unfrozen one", () => {
    let calls = 0;
    const size = perFrozenObject((o: { items: number[] }) => (calls++, o.items.length));
    const frozen = Object.freeze({ items: [1, 2] });
    const open = { items: [1] };
    expect([size(frozen), size(frozen), size(open), size(open)]).toEqual([2, 2, 1, 1]);
    expect(calls).toBe(3);
  });
});

describe("perKey", () => {
  it("computes once per key", () => {
    let calls = 0;
    const twice = perKey((k: number) => (calls++, k * 2), 10);
    expect([twice(1), twice(2), twice(1), twice(2)]).toEqual([2, 4, 2, 4]);
    expect(calls).toBe(2);
  });

  it("empties its map when full, so it never holds more than maxEntries, and answers the same after", () => {
    let calls = 0;
    const upper = perKey((k: string) => (calls++, k.toUpperCase()), 2);
    expect(["a", "b", "c", "a"].map(upper)).toEqual(["A", "B", "C", "A"]);
    // "c" emptied the map (it held a and b), so "a" was computed again.
    expect(calls).toBe(4);
  });

  it("keeps nothing for a call that throws", () => {
    let calls = 0;
    const parse = perKey((k: string) => {
      calls++;
      if (k === "bad") throw new RangeError("bad key");
      return k.length;
    }, 10);
    expect(() => parse("bad")).toThrow("bad key");
    expect(() => parse("bad")).toThrow("bad key");
    expect(calls).toBe(2);
  });
});
