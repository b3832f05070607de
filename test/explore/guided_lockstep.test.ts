// Guided runs of distinct islands advanced together in lockstep (src/explore/guided.ts,
// GuidedRunner.runTogether; runner.ts, Guided.runBatch): each run, and what its island learns
// from it, is what the one-by-one loop gives (identity, new features, genome, failure), in one
// thread, two threads and a shard, and a stop at the first failure stops where it did.
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  exploreParallel, exploreSync, GuidedRunner, guidedShardIndices, lockstepGroups, LOCKSTEP_RUNS, makePlan, makeRunner, RunContext, runsDigest,
  type ExploreOptions, type PlanRequest, type RunSummary,
} from "../../src/explore/index.ts";
import { TWO_PODS } from "./canary.ts";

const fields = (r: RunSummary) => ({ ...r });

/** The runs one by one, in index order, through a runner that never batches: the reference. */
function oneByOne(req: PlanRequest, indices: readonly number[], keep: ReadonlySet<number> = new Set()): RunSummary[] {
  const runner = makeRunner(new RunContext(makePlan(req)), true, { oneByOne: true });
  expect(runner.batchRuns).toBe(1);
  return indices.map((i) => runner.runIndex(i, keep.has(i)));
}

const range = (n: number) => [...Array(n).keys()];

describe("lockstepGroups", () => {
  it("cuts consecutive runs into batches of distinct islands, at most max each, in order", () => {
    expect(lockstepGroups(range(10), 4, 8)).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]);
    expect(lockstepGroups(range(20), 16, 8)).toEqual([range(8), range(8).map((i) => i + 8), [16, 17, 18, 19]]);
    // A shard's indices are whole islands (here 0 and 3 of 4): a batch ends where an island comes round.
    expect(lockstepGroups(guidedShardIndices(12, 4, { index: 1, count: 3 }), 4, 4)).toEqual([[0, 3], [4, 7], [8, 11]]);
    expect(lockstepGroups([0, 1, 2], 1, 8)).toEqual([[0], [1], [2]]);
    expect(lockstepGroups(range(4), 4, 1)).toEqual([[0], [1], [2], [3]]);
  });
});

// With knobs (the generic swarm: covering rows, spread run, kept knobs), without (tapes flipped,
// spliced, reseeded), and a hunt form whose every run fails (sampled failing runs run again in full).
const PLANS: Record<string, PlanRequest> = {
  "two pods, --swarm auto": { source: { file: TWO_PODS }, strategy: "guided", islands: 4, swarm: "auto", seed: 5 },
  "two pods, no knobs": { source: { file: TWO_PODS }, strategy: "guided", islands: 4, swarm: "none", seed: 5 },
  "R05's hunt form, 12 islands": { source: { file: "scenarios/races/hunt/r05-hunt.yaml" }, strategy: "guided", islands: 12, swarm: "auto", seed: 2 },
};

describe("Guided.runBatch", () => {
  for (const [name, req] of Object.entries(PLANS)) {
    it(`gives the one-by-one summaries: ${name}`, () => {
      const runs = 40;
      const keep = new Set([3, 9, 16]);
      const runner = makeRunner(new RunContext(makePlan(req)), true);
      expect(runner.batchRuns).toBe(Math.min(req.islands!, LOCKSTEP_RUNS));
      const batched: RunSummary[] = [];
      for (let at = 0; at < runs; at += runner.batchRuns) batched.push(...runner.runBatch(range(runs).slice(at, at + runner.batchRuns), keep));
      const alone = oneByOne(req, range(runs), keep);
      expect(batched.map(fields)).toEqual(alone.map(fields));
      // The islands learned: some runs are made from earlier ones, and reach features first.
      expect(batched.filter((r) => r.newFeatures !== undefined).length).toBeGreaterThan(4);
      expect(batched.filter((r) => r.genome !== undefined).length).toBeGreaterThanOrEqual(keep.size);
    });
  }

  it("refuses a batch with two runs of one island (the second would be made before the island learned the first)", () => {
    const ctx = new RunContext(makePlan(PLANS["two pods, no knobs"]!));
    const islands = new GuidedRunner(ctx);
    expect(() => islands.runTogether([0, 4], () => false)).toThrow(/one run per island/);
  });

  it("runs one at a time for a single island", () => {
    expect(makeRunner(new RunContext(makePlan({ ...PLANS["two pods, no knobs"]!, islands: 1 })), true).batchRuns).toBe(1);
  });
});

describe("a guided exploration in lockstep batches", () => {
  const req = PLANS["two pods, --swarm auto"]!;
  const opts: ExploreOptions = { ...req, runs: 48, keepGoing: true, shrink: false, outDir: null };
  const alone = oneByOne(req, range(48));

  it("reports the one-by-one runs in one thread and in two", async () => {
    const one = exploreSync(opts);
    expect(one.runs.map(fields)).toEqual(alone.map(fields));
    const two = (await promisify(exploreParallel)({ ...opts, jobs: 2 }))!;
    expect(runsDigest(two.runs)).toBe(runsDigest(alone));
    expect(two.runs.map((r) => [r.index, r.identity, r.newFeatures, r.failure])).toEqual(alone.map((r) => [r.index, r.identity, r.newFeatures, r.failure]));
  });

  it("reports a shard's runs (whole islands, fewer than a batch) as one by one", () => {
    const shard = exploreSync({ ...opts, shard: { index: 1, count: 3 } });
    const indices = guidedShardIndices(48, 4, { index: 1, count: 3 });
    expect(shard.runs.map(fields)).toEqual(oneByOne(req, indices).map(fields));
  });

  it("stops at the first failure inside a batch, as the one-by-one loop does", () => {
    // R05's hunt form: guided fails within a few runs; find the first one by one.
    const hunt = { ...PLANS["R05's hunt form, 12 islands"]!, islands: 4 };
    const runner = makeRunner(new RunContext(makePlan(hunt)), true, { oneByOne: true });
    const ref: RunSummary[] = [];
    for (let i = 0; ref.every((r) => r.failure === null); i++) ref.push(runner.runIndex(i, false));
    const first = ref[ref.length - 1]!.index;
    // Inside its batch, not its last: the batch ran runs past it that the report must not carry.
    expect(first % 4).not.toBe(3);
    const report = exploreSync({ ...hunt, runs: 200, shrink: false, outDir: null });
    expect(report.first!.index).toBe(first);
    expect(report.runs.map(fields)).toEqual(ref.map(fields));
  });
});
