// The set of runs is a function of (scenario, strategy, seed, runs) alone: the same run hashes
// whatever the number of worker threads or the shard split (a run is named by its identity: the
// digest of its choices and its verdict).
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { exploreParallel, exploreSync, type ExploreOptions, type RunSummary } from "../../src/explore/index.ts";
import { TWO_PODS } from "./canary.ts";

const RUNS = 12;
const base: ExploreOptions = { source: { file: TWO_PODS }, runs: RUNS, strategy: "pct", seed: 7, keepGoing: true, shrink: false, outDir: null };
const hashes = (runs: readonly RunSummary[]) => runs.map((r) => `${r.index}:${r.seed}:${r.identity}`);

describe("the set of runs", () => {
  const whole = exploreSync(base);

  it("covers runs 0..N-1 once each, each with its own seed", () => {
    expect(whole.runs.map((r) => r.index)).toEqual([...Array(RUNS).keys()]);
    expect(new Set(whole.runs.map((r) => r.seed)).size).toBe(RUNS);
  });

  it("is the same with two worker threads as in one thread", async () => {
    const two = (await promisify(exploreParallel)({ ...base, jobs: 2 }))!;
    expect(hashes(two.runs)).toEqual(hashes(whole.runs));
    expect(two.strategy).toBe(whole.strategy);
  });

  it("is the union of its shards", () => {
    const s1 = exploreSync({ ...base, shard: { index: 1, count: 2 } });
    const s2 = exploreSync({ ...base, shard: { index: 2, count: 2 } });
    const union = [...s1.runs, ...s2.runs].sort((a, b) => a.index - b.index);
    expect(hashes(union)).toEqual(hashes(whole.runs));
    expect(s1.runs.every((r) => r.index % 2 === 0)).toBe(true);
  });

  it("changes with the exploration seed", () => {
    const other = exploreSync({ ...base, runs: 2, seed: 8 });
    expect(other.runs[0]!.seed).not.toBe(whole.runs[0]!.seed);
  });
});
