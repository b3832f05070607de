// The arithmetic of --against: medians, the pairs' ratios new/old, what is refused, and the order of a pair.
import { describe, expect, it } from "vitest";
import { compare, geomean, median, unmeasured } from "../../src/bench/against/compare.ts";
import { pairOrder } from "../../src/bench/against/context.ts";

describe("median", () => {
  it.each([
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[10, 10, 1000], 10],
  ])("%j → %d", (xs, m) => expect(median(xs)).toBe(m));
  it("refuses no samples", () => expect(() => median([])).toThrow("median of no samples"));
});

describe("geomean", () => {
  it.each([
    [[4], 4],
    [[1, 100], 10],
    [[2, 8, 4], 4],
  ])("%j → %d", (xs, g) => expect(geomean(xs)).toBeCloseTo(g, 12));
});

describe("compare", () => {
  it("takes the median of the pairs' ratios, not the ratio of the medians", () => {
    // Pair 2 ran while the machine was busy: both members slow, its ratio still near 1.
    const c = compare("explore", "runs/s --jobs 1", "higher", [100, 50, 110], [101, 52, 99]);
    expect(c.old).toBe(100);
    expect(c.new).toBe(99);
    expect(c.ratio).toBeCloseTo(1.01, 12);
    expect(c.ratioMin).toBeCloseTo(0.9, 12);
    expect(c.ratioMax).toBeCloseTo(1.04, 12);
    expect(c).toMatchObject({ name: "explore", figure: "runs/s --jobs 1", better: "higher", oldSamples: [100, 50, 110], newSamples: [101, 52, 99] });
    expect("note" in c).toBe(false);
  });

  it("is new/old for a time too: below 1 is faster", () => {
    const c = compare("cli-startup", "--version ms", "lower", [80, 82], [40, 41], "bare node 60 ms");
    expect(c.ratio).toBeCloseTo(0.5, 12);
    expect(c.note).toBe("bare node 60 ms");
  });

  it.each([
    [[1, 2], [1], /2 old samples against 1 new/],
    [[], [], /no samples/],
    [[1, 0], [1, 1], /a sample of 0/],
    [[1, Number.NaN], [1, 1], /a sample of NaN/],
    [[1], [Infinity], /a sample of Infinity/],
  ])("refuses old %j, new %j", (o, n, message) => {
    expect(() => compare("x", "y", "higher", o, n)).toThrow(message);
  });
});

describe("unmeasured", () => {
  it("keeps what one side gave, no ratio, and says why", () => {
    expect(unmeasured("hunt-speed", "r26-hunt runs/s", "higher", "the old tree exited 2", [], [40, 44])).toEqual({
      name: "hunt-speed", figure: "r26-hunt runs/s", better: "higher", old: null, new: 42, ratio: null, ratioMin: null, ratioMax: null,
      oldSamples: [], newSamples: [40, 44], note: "the old tree exited 2",
    });
  });
});

describe("pairOrder", () => {
  it.each([
    [0, ["old", "new"]],
    [1, ["new", "old"]],
    [2, ["old", "new"]],
    [7, ["new", "old"]],
  ])("pair %i measures %j", (i, order) => expect(pairOrder(i, "old", "new")).toEqual(order));
});
