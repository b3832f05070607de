// The guided strategy's moves (src/explore/guided.ts): with knobs, a run made from an entry keeps
// some of the entry's knobs and draws everything else afresh (its own seed, boundary-value knob
// draws, no tape); without knobs, the entry's tape is flipped, spliced or replayed under a new seed. Checked on the genomes
// the runs carry (every run's, as a determinism sample's).
import { describe, expect, it } from "vitest";
import { GuidedRunner, makePlan, RunContext, runSeed, type Genome } from "../../src/explore/index.ts";
import { drawBoundaryKnobs } from "../../src/explore/guided_knobs.ts";
import { COVER, SPREAD_RUNS } from "../../src/explore/guided.ts";
import { drawSpreadKnobs } from "../../src/explore/guided_first.ts";
import { coverDesign, drawCoverKnobs } from "../../src/explore/guided_cover.ts";
import { TWO_PODS } from "./canary.ts";

const RUNS = 48;

function genomes(swarm: "auto" | "none"): Genome[] {
  const plan = makePlan({ source: { file: TWO_PODS }, strategy: "guided", islands: 1, swarm, seed: 3 });
  const ctx = new RunContext(plan);
  const runner = new GuidedRunner(ctx);
  const out: Genome[] = [];
  for (let i = 0; i < RUNS; i++) out.push(runner.runIndex(i, true).genome!);
  return out;
}

describe("guided moves", () => {
  it("with knobs: the first run is a spread run, the next the covering design's rows of their indices, each with pos's seed of its index", () => {
    const plan = makePlan({ source: { file: TWO_PODS }, strategy: "guided", islands: 1, swarm: "auto", seed: 3 });
    const space = new RunContext(plan).space!;
    const design = coverDesign(space, 3, COVER);
    expect(design.rows.length).toBeGreaterThan(0);
    expect(design.rows.length).toBeLessThan(RUNS);
    const all = genomes("auto");
    expect(all[0]!.how).toBe("fresh (spread run 1)");
    expect(all[0]!.knobs).toEqual(drawSpreadKnobs(space, runSeed(3, 0)));
    all.forEach((g, i) => {
      const row = i < SPREAD_RUNS ? undefined : design.rows[i];
      expect(g.how.startsWith("fresh (covering row"), g.how).toBe(row !== undefined);
      if (row === undefined) return;
      expect(g.seed).toBe(runSeed(3, i));
      expect(g.knobs).toEqual(drawCoverKnobs(space, g.seed, design, row));
    });
  });

  it("with knobs: fresh runs are pos's seeds with boundary-value knobs, the others keep a parent's knobs and draw the rest from their own seed", () => {
    const plan = makePlan({ source: { file: TWO_PODS }, strategy: "guided", islands: 1, swarm: "auto", seed: 3 });
    const space = new RunContext(plan).space!;
    const all = genomes("auto");
    const moves = new Set(all.map((g) => g.how.split(" ")[0]));
    expect([...moves].sort()).toEqual(["fresh", "keep"]);
    const kept = all.filter((g) => g.how.startsWith("keep "));
    // One run in eight is fresh once the corpus has an entry, so most runs are kept-knob runs.
    expect(kept.length).toBeGreaterThan(RUNS / 2);
    all.forEach((g, i) => {
      if (g.how !== "fresh") return;
      expect(g.seed).toBe(runSeed(3, i));
      expect(g.knobs).toEqual(drawBoundaryKnobs(space, g.seed));
    });
    for (const g of kept) {
      const parent = all[g.parent!]!;
      const ids = new Set(g.how.slice("keep ".length).split(", "));
      expect(ids.size).toBeGreaterThan(0);
      expect(g.tape).toBeNull();
      expect(g.seed).not.toBe(parent.seed);
      const drawn = drawBoundaryKnobs(space, g.seed);
      for (const def of space.defs) expect(g.knobs![def.id], def.id).toEqual(ids.has(def.id) ? parent.knobs![def.id] : drawn[def.id]);
    }
  });

  it("without knobs: schedule moves of an entry's tape, and no kept-knob run", () => {
    const all = genomes("none");
    expect(all.every((g) => g.knobs === null)).toBe(true);
    const moves = new Set(all.map((g) => g.how.split(" ")[0]));
    expect(moves.has("keep")).toBe(false);
    expect(moves.has("fresh")).toBe(true);
    expect(moves.has("flip")).toBe(true);
    for (const g of all.filter((x) => x.how.startsWith("flip"))) expect(g.tape).not.toBeNull();
  });
});
