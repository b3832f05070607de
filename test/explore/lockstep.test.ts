// Lockstep batches (src/explore/lockstep.ts): runs advanced a few events at a time, round robin,
// are each the run they are alone (the same trace hash, choices and verdict), and an exploration
// made of batches reports what the one-by-one loop reported, down to where it stops.
import { describe, expect, it } from "vitest";
import { simulate, startSimulation } from "../../src/simulate.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import {
  advanceInLockstep, exploreSync, lockstepRuns, LOCKSTEP_MAX_SIZE, LOCKSTEP_RUNS, makePlan, makeRunner, RunContext, type RunSummary,
} from "../../src/explore/index.ts";
import { canaryInvariant, TWO_PODS } from "./canary.ts";

const fields = (r: RunSummary) => ({ ...r });

describe("advanceInLockstep", () => {
  for (const file of ["scenarios/races/hunt/r10-hunt.yaml", "examples/cluster/partition.yaml", TWO_PODS]) {
    for (const turn of [1, 4, 13]) {
      it(`leaves each run of ${file} as it is alone (turns of ${turn} events)`, () => {
        const { scenario } = loadScenarioFile(file);
        const seeds = [1, 2, 3];
        const alone = seeds.map((seed) => simulate(scenario, { seed, sinks: [], keepRecords: false }).run);
        const handles = seeds.map((seed) => startSimulation(scenario, { seed, sinks: [], keepRecords: false }));
        advanceInLockstep(handles.map((h) => h.sim), turn);
        const together = handles.map((h) => h.finish().run);
        expect(together.map((r) => [r.traceHash, r.verdict, r.events, r.choices.digest()])).toEqual(alone.map((r) => [r.traceHash, r.verdict, r.events, r.choices.digest()]));
        // The seeds make different runs, so a run's result cannot have come from its neighbour's.
        expect(new Set(alone.map((r) => r.traceHash)).size).toBe(seeds.length);
      });
    }
  }
});

describe("RunContext.runBatch", () => {
  it("gives runIndex's summaries, full runs and sampled failing re-runs included", () => {
    // Every run of R05's hunt form fails: index 0 and 8 are sampled (run again in full), 3 is kept whole.
    const ctx = new RunContext(makePlan({ source: { file: "scenarios/races/hunt/r05-hunt.yaml" }, strategy: "pct", seed: 2 }));
    expect(ctx.lockstep).toBe(LOCKSTEP_RUNS);
    const indices = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    const batch = ctx.runBatch(indices, (i) => i === 3);
    const alone = indices.map((i) => ctx.runIndex(i, i === 3));
    expect(batch.map(fields)).toEqual(alone.map(fields));
    expect(batch.every((r) => r.failure !== null)).toBe(true);
    expect(batch.filter((r) => r.traceHash !== null).map((r) => r.index)).toEqual([0, 3, 8]);
    expect(batch[3]!.lines!.length).toBeGreaterThan(0);
  });

  it("notes each run's new coverage features in index order, as one by one", () => {
    const plan = makePlan({ source: { file: TWO_PODS }, strategy: "random", seed: 5, coverage: true });
    const batched = makeRunner(new RunContext(plan), true).runBatch([0, 1, 2, 3, 4, 5], new Set());
    const oneByOne = makeRunner(new RunContext(plan), true);
    expect(batched.map(fields)).toEqual([0, 1, 2, 3, 4, 5].map((i) => fields(oneByOne.runIndex(i, false))));
    expect(batched[0]!.newFeatures!.length).toBeGreaterThan(0);
  });
});

describe("an exploration in batches", () => {
  it("stops at the first failure inside a batch, as the one-by-one loop does", () => {
    // The planted canary fails about one random schedule in fifteen: find the first, one by one.
    const opts = { source: { file: TWO_PODS }, runs: 200, strategy: "random" as const, seed: 2, invariants: [], extraInvariants: [canaryInvariant], shrink: false as const, outDir: null };
    const ctx = new RunContext(makePlan(opts), [canaryInvariant]);
    let first = -1;
    const alone: RunSummary[] = [];
    while (first < 0 && alone.length < 200) {
      const r = ctx.runIndex(alone.length);
      alone.push(r);
      if (r.failure !== null) first = r.index;
    }
    // Not the last of its batch, so the batch ran runs past it that the report must not carry.
    expect(first % LOCKSTEP_RUNS).not.toBe(LOCKSTEP_RUNS - 1);
    const report = exploreSync(opts);
    expect(report.runs.map(fields)).toEqual(alone.map(fields));
    expect(report.stoppedBy).toBe("failure");
    expect(report.first!.index).toBe(first);
  });
});

describe("lockstepRuns", () => {
  it("batches a small scenario and runs a big one alone", () => {
    const { scenario } = loadScenarioFile(TWO_PODS);
    expect(lockstepRuns(scenario)).toBe(LOCKSTEP_RUNS);
    const big = { ...scenario, pods: Array.from({ length: LOCKSTEP_MAX_SIZE }, () => scenario.pods[0]!) };
    expect(lockstepRuns(big)).toBe(1);
    // Counted by the pods it makes: one entry with many replicas is a big scenario.
    const replicated = { ...scenario, pods: [{ ...scenario.pods[0]!, replicas: LOCKSTEP_MAX_SIZE }] };
    expect(lockstepRuns(replicated)).toBe(1);
  });
});
