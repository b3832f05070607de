// The store's copy-on-write edits make what immer's produce makes from the same assignments: the
// same keys in the same order, the same object when nothing changed, shared unchanged subtrees,
// everything deep-frozen.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { produce } from "immer";
import { Edit, deepFreeze } from "../../src/apiserver/objects.ts";

type Obj = Record<string, unknown>;
type Step = { op: "set"; key: string; value: unknown } | { op: "delete"; key: string };

function viaImmer(base: Obj, steps: readonly Step[]): Obj {
  return produce(base, (d: Obj) => {
    for (const s of steps) {
      if (s.op === "set") d[s.key] = s.value;
      else delete d[s.key];
    }
  });
}

function viaEdit(base: Obj, steps: readonly Step[]): Obj {
  const e = new Edit(base);
  for (const s of steps) {
    if (s.op === "set") e.set(s.key, s.value);
    else e.delete(s.key);
  }
  return e.result();
}

/** Keys (in order), values and frozenness all the way down. */
function shape(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v === undefined ? "<undefined>" : v;
  const entries = Object.keys(v).map((k) => [k, shape((v as Obj)[k])]);
  return { frozen: Object.isFrozen(v), entries };
}

const shared = Object.freeze({ deep: Object.freeze({ x: 1 }) });

describe("Edit", () => {
  const table: { name: string; base: () => Obj; steps: Step[] }[] = [
    { name: "no change gives the base back", base: () => ({ a: 1, b: shared }), steps: [{ op: "set", key: "a", value: 1 }] },
    { name: "a changed value keeps its place", base: () => ({ a: 1, b: 2, c: 3 }), steps: [{ op: "set", key: "b", value: 9 }] },
    { name: "a new key goes last", base: () => ({ a: 1, b: 2 }), steps: [{ op: "set", key: "z", value: 0 }, { op: "set", key: "c", value: 1 }] },
    { name: "undefined on an absent key adds the key", base: () => ({ a: 1 }), steps: [{ op: "set", key: "o", value: undefined }] },
    { name: "undefined on an undefined key changes nothing", base: () => ({ a: 1, o: undefined }), steps: [{ op: "set", key: "o", value: undefined }] },
    { name: "delete of an absent key changes nothing", base: () => ({ a: 1 }), steps: [{ op: "delete", key: "x" }] },
    { name: "delete then set again moves the key last", base: () => ({ a: 1, b: 2 }), steps: [{ op: "delete", key: "a" }, { op: "set", key: "a", value: 1 }] },
    { name: "NaN set on NaN changes nothing", base: () => ({ n: NaN }), steps: [{ op: "set", key: "n", value: NaN }] },
    { name: "-0 on 0 is a change", base: () => ({ n: 0 }), steps: [{ op: "set", key: "n", value: -0 }] },
    { name: "a new unfrozen subtree is frozen, a shared one kept", base: () => ({ a: shared }), steps: [{ op: "set", key: "b", value: { c: [{ d: 1 }] } }] },
  ];
  for (const t of table) {
    it(t.name, () => {
      const b1 = t.base();
      const b2 = t.base();
      const fromImmer = viaImmer(b1, t.steps);
      const fromEdit = viaEdit(b2, t.steps);
      expect(shape(fromEdit)).toEqual(shape(fromImmer));
      expect(fromEdit === b2).toBe(fromImmer === b1);
      // Frozen in place, as immer freezes the base's untouched subtrees.
      expect(shape(b2)).toEqual(shape(b1));
    });
  }

  it("agrees with immer for any sequence of assignments on any JSON object", () => {
    const key = fc.constantFrom("a", "b", "c", "d", "e");
    const leaf = fc.oneof(fc.integer({ min: -2, max: 2 }), fc.constant(undefined), fc.constant(null), fc.constantFrom("x", "y"));
    const value = fc.oneof(leaf, fc.dictionary(key, leaf, { maxKeys: 3 }), fc.array(leaf, { maxLength: 3 }));
    const step = fc.oneof(
      fc.record({ op: fc.constant("set" as const), key, value }),
      fc.record({ op: fc.constant("delete" as const), key }),
    );
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 5 }), fc.boolean(), fc.array(step, { maxLength: 6 }), (base, frozen, steps) => {
        const copy = () => {
          const c = structuredClone(base);
          return frozen ? deepFreeze(c) : c;
        };
        const b1 = copy();
        const b2 = copy();
        const fromImmer = viaImmer(b1, steps);
        const fromEdit = viaEdit(b2, steps);
        expect(shape(fromEdit)).toEqual(shape(fromImmer));
        expect(fromEdit === b2).toBe(fromImmer === b1);
      }),
      { numRuns: 500 },
    );
  });

  it("shares unchanged subtrees and reads its own assignments", () => {
    const base = deepFreeze({ metadata: { name: "web" }, spec: { containers: [] as unknown[] } });
    const e = new Edit(base).set("metadata", { name: "web2" });
    expect(e.get("metadata")).toEqual({ name: "web2" });
    expect(e.changed).toBe(true);
    const out = e.result();
    expect(out.spec).toBe(base.spec);
    expect(Object.isFrozen(out.metadata)).toBe(true);
    expect(() => {
      (out.metadata as { name: string }).name = "x";
    }).toThrow(TypeError);
  });
});
