// src/k8s/json.ts: jsonEqual is the allocation-free form of canonicalJSON(a) === canonicalJSON(b).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { canonicalJSON, cloneJSON, jsonEqual } from "../../src/k8s/json.ts";

describe("jsonEqual", () => {
  // jsonEqual is the allocation-free form of canonicalJSON(a) === canonicalJSON(b); any value on
  // which the two disagree is a bug in jsonEqual.
  const leaf = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer({ min: -2, max: 2 }),
    fc.constantFrom("", "a", "1", NaN, Infinity, -0));
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("v"), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom("a", "b", "c"), tie("v"), { maxKeys: 3 })),
  })).v;

  it("agrees with comparing canonical JSON, on arbitrary JSON-shaped values", () => {
    fc.assert(fc.property(value, value, (a, b) => jsonEqual(a, b) === (canonicalJSON(a) === canonicalJSON(b))), { numRuns: 10000 });
  });

  it("agrees on near-equal pairs (one value and a structural copy with one change)", () => {
    fc.assert(fc.property(value, (a) => {
      const copy = structuredClone(a);
      return jsonEqual(a, copy) && jsonEqual(copy, a) === (canonicalJSON(copy) === canonicalJSON(a));
    }), { numRuns: 1000 });
  });

  it.each([
    [{ a: 1, b: undefined }, { a: 1 }, true],
    [undefined, null, true],
    [[undefined], [null], true],
    [{}, undefined, false],
    [[], {}, false],
    [{ x: 1 }, '{"x":1}', false],
    ["1", 1, false],
    [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, true],
    [{ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }, false],
    [{ a: null }, { a: undefined, c: {} }, false], // found by the property above
  ])("jsonEqual(%j, %j) is %s", (a, b, want) => {
    expect(jsonEqual(a, b)).toBe(want);
    expect(jsonEqual(b, a)).toBe(want);
  });
});

describe("cloneJSON", () => {
  // The models' replacement for structuredClone on API objects: the same copy, no shared objects.
  const leaf = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 3 }));
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("v"), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom("a", "b", "c", "0"), tie("v"), { maxKeys: 3 })),
  })).v;
  const objects = (v: unknown): object[] =>
    v !== null && typeof v === "object" ? [v, ...Object.values(v).flatMap(objects)] : [];

  it("copies like structuredClone (keys with undefined kept, same key order) and shares no object", () => {
    fc.assert(fc.property(value, (v) => {
      const copy = cloneJSON(v);
      expect(copy).toStrictEqual(structuredClone(v));
      if (copy !== null && typeof copy === "object") expect(Object.keys(copy)).toEqual(Object.keys(structuredClone(v) as object));
      const mine = new Set(objects(v));
      return objects(copy).every((o) => !mine.has(o));
    }), { numRuns: 2000 });
  });

  it("gives an unfrozen copy of a frozen value", () => {
    const frozen = Object.freeze({ a: Object.freeze([Object.freeze({ b: 1 })]) });
    const copy = cloneJSON(frozen) as { a: { b: number }[] };
    copy.a[0]!.b = 2;
    expect(frozen.a[0]!.b).toBe(1);
  });
});
