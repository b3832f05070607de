// The guided strategy (src/explore/guided.ts): run i is a function of the plan and i alone (its
// island's runs before it), so threads and shards give the same runs, merge gives the same
// coverage, and a failing run is reproduced from its genome wherever it ran.
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  coverageOf, runSeed, exploreParallel, exploreSync, guidedShardIndices, jsonLine, loadRepro, mergeShards, replayRepro, summarize, type ExploreOptions, type RunSummary,
} from "../../src/explore/index.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RACES, raceRawScenario } from "../../src/races/catalog.ts";
import { TWO_PODS } from "./canary.ts";

const RUNS = 16;
const base: ExploreOptions = { source: { file: TWO_PODS }, runs: RUNS, strategy: "guided", islands: 4, swarm: "auto", seed: 5, keepGoing: true, shrink: false, outDir: null };
const ids = (runs: readonly RunSummary[]) => runs.map((r) => `${r.index}:${r.seed}:${r.identity}`);

describe("guided runs", () => {
  const whole = exploreSync(base);

  it("are runs 0..N-1, some of them mutants of earlier runs of their island", () => {
    expect(whole.runs.map((r) => r.index)).toEqual([...Array(RUNS).keys()]);
    // A mutant keeps its parent's seed (or draws one of its own), so run seeds are not all runSeed(S, i).
    expect(whole.strategy).toBe("guided:4");
    expect(whole.runs.filter((r) => r.seed !== runSeed(5, r.index)).length).toBeGreaterThan(0);
  });

  it("are the same with two worker threads as in one thread", async () => {
    const two = (await promisify(exploreParallel)({ ...base, jobs: 2 }))!;
    expect(ids(two.runs)).toEqual(ids(whole.runs));
    expect(coverageOf(two.runs, true)).toEqual(coverageOf(whole.runs, true));
  });

  it("are the union of shards that take whole islands, and merge to the same coverage", () => {
    const shards = [1, 2].map((index) => exploreSync({ ...base, shard: { index, count: 2 } }));
    expect(shards[0]!.runs.every((r) => r.index % 4 === 0 || r.index % 4 === 2)).toBe(true);
    const union = shards.flatMap((s) => s.runs).sort((a, b) => a.index - b.index);
    expect(ids(union)).toEqual(ids(whole.runs));
    const files = shards.map((s, i) => ({ path: `shard-${i + 1}`, file: { format: "kubelet-sim/explore-shard/v1" as const, tool: "x", shard: { index: i + 1, count: 2 }, runsTotal: RUNS, keepGoing: true, summary: summarize(s) } }));
    const merged = mergeShards(files);
    expect(jsonLine(merged).coverage).toEqual(jsonLine(summarize(whole)).coverage);
    expect(jsonLine(merged).runsDigest).toBe(jsonLine(summarize(whole)).runsDigest);
  });

  it("measure coverage, which grows and is carried by the JSON line", () => {
    const line = jsonLine(summarize(whole));
    expect(line.coverage).not.toBeNull();
    expect(line.coverage!.features).toBeGreaterThan(20);
    expect(Object.keys(line.coverage!.byFamily)).toEqual(expect.arrayContaining(["api", "slot", "state"]));
    expect(line.coverage!.lastNewRun).toBeGreaterThan(1);
  });

  it("are the same when some of them are run with every record built (a determinism check samples them)", () => {
    const checked = exploreSync({ ...base, checkDeterminism: true });
    expect(checked.determinism?.ok).toBe(true);
    expect(ids(checked.runs)).toEqual(ids(whole.runs));
    expect(coverageOf(checked.runs, true)).toEqual(coverageOf(whole.runs, true));
  });

  it("change with the exploration seed", () => {
    const other = exploreSync({ ...base, seed: 6, runs: 4 });
    expect(ids(other.runs)).not.toEqual(ids(whole.runs.slice(0, 4)));
  });
});

describe("guided shards", () => {
  it("take whole islands: islands k with k mod n = i-1, and together every run once", () => {
    const a = guidedShardIndices(20, 4, { index: 1, count: 2 });
    const b = guidedShardIndices(20, 4, { index: 2, count: 2 });
    expect(a).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect([...a, ...b].sort((x, y) => x - y)).toEqual([...Array(20).keys()]);
    expect(guidedShardIndices(20, 4, { index: 2, count: 3 })).toEqual([1, 5, 9, 13, 17]);
  });

  it("are at most one per island", () => {
    expect(() => guidedShardIndices(20, 4, { index: 1, count: 5 })).toThrow(/at most 4 shards/);
  });
});

describe("the first guided failure", () => {
  it("is the same with two threads (which own islands and may run past it) as in one", async () => {
    const race = RACES.find((r) => r.id === "R05")!;
    const { swarm: _s, ...raw } = raceRawScenario(race, "buggy", "hunt");
    const opts: ExploreOptions = { source: { raw: { ...raw, expect: [] }, label: race.hunt.file }, runs: 200, strategy: "guided", swarm: "auto", seed: 3, invariants: [race.invariant], shrink: false, outDir: null };
    const one = exploreSync(opts);
    const two = (await promisify(exploreParallel)({ ...opts, jobs: 2 }))!;
    expect(one.first).not.toBeNull();
    expect(two.first?.index).toBe(one.first!.index);
    expect(ids(two.runs)).toEqual(ids(one.runs));
  });
});

describe("a guided failure", () => {
  it("is written as found, shrunk and written from its genome, and both records replay to the same failure", () => {
    const race = RACES.find((r) => r.id === "R01")!;
    const { swarm: _s, ...raw } = raceRawScenario(race, "buggy", "hunt");
    const out = mkdtempSync(join(tmpdir(), "kubelet-sim-guided-"));
    try {
      const report = exploreSync({
        source: { raw: { ...raw, expect: [] }, label: race.hunt.file }, runs: 60, strategy: "guided", swarm: "auto", seed: 2,
        invariants: [race.invariant], shrink: { maxRuns: 60 }, outDir: out,
      });
      expect(report.first, "guided finds R01 under the generic swarm").not.toBeNull();
      expect(report.first!.genome).toBeDefined();
      expect(report.repro).not.toBeNull();
      const replayed = replayRepro(loadRepro(report.repro!.path));
      expect(replayed.reproduced).toBe(true);
      expect(loadRepro(report.repro!.path).record.strategy).toBe("guided:4");
      // The run as found (knobs and tape as the island drew them) is written too and replays exactly.
      expect(report.asFound).not.toBeNull();
      const asFound = replayRepro(loadRepro(report.asFound!.path));
      expect(asFound.reproduced).toBe(true);
      expect(asFound.failure!.atMs).toBe(report.first!.failure!.atMs);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
