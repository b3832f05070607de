// Guided's covering designs (src/explore/guided_cover.ts): the array covers every t-tuple of
// levels, is a function of its seed, and a row's knobs take the classes the row names.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileRawOrThrow, knobSpaceFor, readRawScenario, type KnobSpace } from "../../src/explore/index.ts";
import { coverDesign, coveringArray, drawCoverKnobs } from "../../src/explore/guided_cover.ts";
import { Rng } from "../../src/sim/rng.ts";
import { ROOT } from "../cli/golden_table.ts";

/** The t-tuples of levels no row covers (as "factors=levels" strings). */
function missing(levels: readonly number[], t: number, rows: readonly (readonly number[])[]): string[] {
  const out: string[] = [];
  const tt = Math.min(t, levels.length);
  const rec = (from: number, fs: number[]) => {
    if (fs.length === tt) {
      const combos = fs.reduce<number[][]>((acc, f) => acc.flatMap((c) => Array.from({ length: levels[f]! }, (_, v) => [...c, v])), [[]]);
      for (const c of combos) if (!rows.some((r) => fs.every((f, j) => r[f] === c[j]))) out.push(`${fs.join(",")}=${c.join(",")}`);
      return;
    }
    for (let f = from; f < levels.length; f++) rec(f + 1, [...fs, f]);
  };
  rec(0, []);
  return out;
}

describe("coveringArray", () => {
  it.each([
    // levels, t, the least rows any such array has (the product of the t largest levels)
    [[4], 2, 4],
    [[4, 4], 2, 16],
    [[3, 3, 3, 3], 2, 9],
    [[5, 5, 4], 2, 25],
    [[2, 3, 4, 5, 3, 2], 2, 20],
    [[3, 3, 3, 3, 3], 3, 27],
    [[5, 4, 4, 2], 3, 80],
    [[2, 2, 2, 2, 2, 2, 2, 2, 2, 2], 2, 4],
  ] as const)("levels %j, t=%i: every t-tuple in some row", (levels, t, least) => {
    const rows = coveringArray(levels, t, new Rng("test", "cover"));
    expect(missing(levels, t, rows)).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(least);
    for (const r of rows) r.forEach((v, f) => expect(v).toBeLessThan(levels[f]!));
  });

  it("is a function of its seed", () => {
    const levels = [5, 4, 4, 3, 5];
    expect(coveringArray(levels, 2, new Rng("test", "a"))).toEqual(coveringArray(levels, 2, new Rng("test", "a")));
    expect(coveringArray(levels, 2, new Rng("test", "a"))).not.toEqual(coveringArray(levels, 2, new Rng("test", "b")));
  });

  it("the missing-tuple check finds a hole (a row removed)", () => {
    const rows = coveringArray([4, 4], 2, new Rng("test", "cover"));
    expect(missing([4, 4], 2, rows.slice(1))).toHaveLength(1);
  });
});

function space(file: string): KnobSpace {
  const { raw } = readRawScenario(join(ROOT, file));
  const plain = (({ swarm: _s, ...rest }) => rest)(raw);
  return knobSpaceFor("auto", plain, compileRawOrThrow(plain, file))!;
}

describe("coverDesign and drawCoverKnobs", () => {
  const s = space("scenarios/races/hunt/r05-hunt.yaml");

  it("takes the steps and the written latencies as factors, and is a function of the plan's seed", () => {
    const d = coverDesign(s, 3, { t: 2, classes: "split" });
    expect(d.factors.map((i) => s.defs[i]!.id)).toEqual(s.defs.filter((k) => k.near !== undefined).map((k) => k.id));
    expect(d).toEqual(coverDesign(s, 3, { t: 2, classes: "split" }));
    expect(missing(d.classes.map((c) => c.length), 2, d.rows)).toEqual([]);
  });

  it("a row's knobs take its classes, and are a function of the run's seed", () => {
    const d = coverDesign(s, 3, { t: 2, classes: "split" });
    for (const row of d.rows) {
      const k = drawCoverKnobs(s, 11, d, row);
      expect(k).toEqual(drawCoverKnobs(s, 11, d, row));
      d.factors.forEach((f, j) => {
        const def = s.defs[f]!;
        const at = def.boundaries!;
        const cls = d.classes[j]![row[j]!]!;
        if (cls === "low") expect(k[def.id]).toEqual(at[0]);
        if (cls === "high") expect(k[def.id]).toEqual(at[at.length - 1]);
        if (cls === "meet") expect(at.slice(1, -1)).toContainEqual(k[def.id]);
      });
    }
  });
});
