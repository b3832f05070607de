// The trace digest (src/sim/digest.ts): a reference implementation of its specification
// (docs/outputs.md) built on a reference MurmurHash3, the digest of a frozen corpus pinned, and
// "same JSON line, same digest" over generated values and real traces.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import murmur from "murmurhash3js-revisited";
import { describe, expect, it } from "vitest";
import { digestRecords, Murmur3x86_128, stringDigest, TAG, TraceDigest } from "../../src/sim/digest.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { simulate } from "../../src/simulate.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const CORPUS = join(ROOT, "test", "fixtures", "trace-digest", "corpus.jsonl");

/** The words as the little-endian bytes MurmurHash3 reads. */
function bytesOf(words: readonly number[]): Uint8Array {
  const out = new Uint8Array(words.length * 4);
  const view = new DataView(out.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, w >>> 0, true));
  return out;
}

/** A string's 64-bit digest by the reference: the first two words of hash128 over its UTF-16LE bytes. */
function refString(s: string): [number, number] {
  const hex = murmur.x86.hash128(new Uint8Array(Buffer.from(s, "utf16le")));
  return [parseInt(hex.slice(0, 8), 16), parseInt(hex.slice(8, 16), 16)];
}

/** The canonical encoding, written from the specification as plainly as possible. */
function refEncode(v: unknown, out: number[]): boolean {
  if (v === null) out.push(TAG.null);
  else if (typeof v === "boolean") out.push(v ? TAG.true : TAG.false);
  else if (typeof v === "string") out.push(TAG.string, ...refString(v));
  else if (typeof v === "number") {
    if (!Number.isFinite(v)) out.push(TAG.null);
    else if (Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31) out.push(TAG.int, v | 0);
    else {
      const b = Buffer.alloc(8);
      b.writeDoubleLE(v);
      out.push(TAG.float, b.readUInt32LE(0), b.readUInt32LE(4));
    }
  } else if (Array.isArray(v)) {
    out.push(TAG.array, v.length);
    for (const x of v) if (!refEncode(x, out)) out.push(TAG.null);
  } else if (typeof v === "object") {
    out.push(TAG.object);
    for (const [k, x] of Object.entries(v as object)) {
      if (x === undefined || typeof x === "function" || typeof x === "symbol") continue;
      out.push(TAG.key, ...refString(k));
      refEncode(x, out);
    }
    out.push(TAG.end);
  } else return false;
  return true;
}

function refDigest(records: readonly unknown[]): string {
  const words: number[] = [];
  for (const r of records) refEncode(r, words);
  return murmur.x86.hash128(bytesOf(words)).slice(0, 16);
}

const corpus = () => readFileSync(CORPUS, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as unknown);

describe("MurmurHash3_x86_128 over words", () => {
  it("matches the reference for every length of stream, across block and buffer boundaries", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 2100 }), (words) => {
        const h = new Murmur3x86_128();
        for (const w of words) h.word(w);
        const hex = h.digestWords().map((x) => x.toString(16).padStart(8, "0")).join("");
        expect(hex).toBe(murmur.x86.hash128(bytesOf(words)));
      }),
      { numRuns: 60 },
    );
  });

  it("matches the reference for strings as UTF-16LE bytes, odd lengths and surrogates included", () => {
    const out = new Int32Array(2);
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (s) => {
        stringDigest(s, out);
        expect([out[0]! >>> 0, out[1]! >>> 0]).toEqual(refString(s));
      }),
      { numRuns: 300 },
    );
  });
});

describe("the trace digest", () => {
  it("of the frozen corpus is pinned (a change here changes every trace hash)", () => {
    const records = corpus();
    expect(digestRecords(records)).toBe("37a03b7547fd5e5f");
    expect(digestRecords(records.slice(0, 1))).toBe("307e59da1f9e198b");
    expect(digestRecords([])).toBe("0000000000000000");
  });

  it("is the specification's: the reference encoding hashed by the reference MurmurHash3", () => {
    expect(digestRecords(corpus())).toBe(refDigest(corpus()));
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), (records) => {
        expect(digestRecords(records)).toBe(refDigest(records));
      }),
      { numRuns: 200 },
    );
  });

  it("stays the specification's past its string memo's bound and its word buffer", () => {
    // Strings in arrays and keys go through the memo (a field's string value is hashed anew).
    const records = Array.from({ length: 20_000 }, (_, i) => ({ t: i, kind: `k${i}`, msg: `message number ${i}`, again: "message number 7", tags: [`tag ${i}`, "message number 7", `tag ${i % 97}`] }));
    expect(digestRecords(records)).toBe(refDigest(records));
    // A small bound: the memo's words grow, then it starts again many times (mid-record too).
    for (const bound of [1, 7, 64, 1500]) {
      const d = new TraceDigest(bound);
      for (const r of records.slice(0, 3000)) d.add(r);
      expect(d.hex(), `bound ${bound}`).toBe(refDigest(records.slice(0, 3000)));
    }
  });

  it("stays the specification's past its key trie's bound, mid-object and nested", () => {
    // Two new keys a record, one of them in a nested object: the trie starts again (4,096 nodes)
    // while an object is being walked.
    const records = Array.from({ length: 5_000 }, (_, i) => ({ t: i, [`k${i}`]: "x", [`j${i}`]: { [`n${i}`]: i, t: "y" }, last: i }));
    expect(digestRecords(records)).toBe(refDigest(records));
  });

  it("stays the specification's over interleaved key lists and recurring values (its key nodes' last values)", () => {
    // Records that share key prefixes and then part, values that recur under a key list, equal
    // strings built anew (not the same string object) and values of other types under the same key.
    const pods = ["default/pod-1", "default/pod-2", "kube-system/pod-1"];
    const build = (s: string) => [...s].join("");
    const record = fc.record({
      kind: fc.constantFrom("ProbeRun", "Probe", "ProbeResult"),
      pod: fc.oneof(fc.constantFrom(...pods), fc.constantFrom(...pods).map(build), fc.integer(), fc.constant(undefined)),
      uid: fc.oneof(fc.constantFrom("u1", "u2"), fc.constant(null), fc.double()),
      more: fc.option(fc.dictionary(fc.constantFrom("a", "b", "c"), fc.constantFrom("x", "y", 1, true)), { nil: undefined }),
    });
    const keyOrders = [["t", "kind", "pod", "uid", "more"], ["t", "kind", "uid", "pod"], ["t", "kind", "pod"], ["t", "pod", "kind", "more"]];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(keyOrders.length - 1), record), { maxLength: 40 }), (drawn) => {
        const recs = drawn.map(([o, r], i) => Object.fromEntries(keyOrders[o]!.map((k) => [k, k === "t" ? i : (r as Record<string, unknown>)[k]])));
        expect(digestRecords(recs)).toBe(refDigest(recs));
        const d = new TraceDigest(2);
        for (const r of recs) d.add(r);
        expect(d.hex()).toBe(refDigest(recs));
      }),
      { numRuns: 200 },
    );
  });

  it("stays the specification's over repeated and colliding key lists", () => {
    // Same key count and last key (one cache slot) with another key before it; the same list again;
    // keys left out as JSON leaves them (undefined); key strings built anew each time.
    const shapes = [
      (i: number) => ({ a: i, b: "x", z: true }),
      (i: number) => ({ c: i, b: "y", z: false }),
      (i: number) => ({ a: i, b: undefined, z: null }),
      (i: number) => ({ [["a", "a"].join("")]: i, b: [i, "b"], z: { a: i } }),
      (i: number) => ({ a: i, b: "x" }),
      // The slot's shape with its first key the same and its second not (a miss found mid-object).
      (i: number) => ({ a: i, q: "m", z: 1 }),
    ];
    const records = Array.from({ length: 200 }, (_, i) => shapes[(i * 7) % shapes.length]!(i));
    expect(digestRecords(records)).toBe(refDigest(records));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...shapes.map((f, k) => f(k))), { maxLength: 30 }), (recs) => {
        expect(digestRecords(recs)).toBe(refDigest(recs));
      }),
      { numRuns: 100 },
    );
  });

  it("reads own keys only, as JSON does, whatever an object's prototype lists (its for-in loops)", () => {
    // An inherited enumerable key that would complete a known shape's key list in a for-in loop;
    // a null-prototype object; a class instance with an own field.
    const withInherited = Object.assign(Object.create({ z: "inherited" }) as Record<string, unknown>, { a: 1, b: "x" });
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 2, b: "y", z: false });
    class Box {
      a = 3;
      b = "z";
    }
    const records = [{ a: 0, b: "w", z: true }, withInherited, bare, new Box(), { a: 4, b: "v", z: null }, withInherited];
    expect(digestRecords(records)).toBe(refDigest(records));
    expect(digestRecords(records)).toBe(digestRecords(records.map((x) => JSON.parse(JSON.stringify(x)) as unknown)));
  });

  it("is the same for a record and its JSON line read back", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.double(), fc.constant(-0))), (rec) => {
        expect(digestRecords([rec])).toBe(digestRecords([JSON.parse(JSON.stringify(rec))]));
      }),
      { numRuns: 300 },
    );
  });

  it("is the same for every record of a real trace and its JSON line read back", () => {
    const { scenario } = loadScenarioFile(join(ROOT, "scenarios/basics/02-crash-loop-backoff.yaml"));
    const r = simulate(scenario);
    const records = r.records!.slice(0, -1);
    expect(digestRecords(records)).toBe(r.run.traceHash);
    expect(digestRecords(records.map((x) => JSON.parse(JSON.stringify(x)) as unknown))).toBe(r.run.traceHash);
  });

  it("tells apart what JSON tells apart: boundaries, order, types, nesting", () => {
    const d = (...records: unknown[]) => digestRecords(records);
    const pairs: [unknown[], unknown[]][] = [
      [[{ a: "bc" }], [{ ab: "c" }]],
      [[{ a: 1, b: 2 }], [{ b: 2, a: 1 }]],
      [[{ a: 1 }], [{ a: "1" }]],
      [[{ a: null }], [{}]],
      [[[1, [2]]], [[[1], 2]]],
      [[{ a: 1 }, { b: 2 }], [{ a: 1, b: 2 }]],
      [[{ a: 0.5 }], [{ a: 1 }]],
      [[{ a: true }], [{ a: 1 }]],
      [[{ a: [] }], [{ a: {} }]],
    ];
    for (const [x, y] of pairs) expect(d(...x), JSON.stringify([x, y])).not.toBe(d(...y));
    expect(d({ a: -0 })).toBe(d({ a: 0 }));
    expect(d({ a: 1, b: undefined })).toBe(d({ a: 1 }));
    expect(d([undefined])).toBe(d([null]));
    expect(d({ a: NaN })).toBe(d({ a: null }));
  });

  it("is incremental: a digest taken midway does not disturb the rest", () => {
    const records = corpus();
    const t = new TraceDigest();
    records.forEach((r, i) => {
      t.add(r);
      expect(t.hex()).toBe(digestRecords(records.slice(0, i + 1)));
    });
  });

  it("refuses what JSON refuses", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect(() => digestRecords([cyclic])).toThrow(/nested 256 deep/);
    expect(() => digestRecords([{ n: 1n }])).toThrow(/BigInt/);
  });
});
