// Determinism on a cluster scenario: an exploration of examples/cluster/deployment.yaml (three
// kubelets, the scheduler stand-in, the ReplicaSet controller) gives the same runs whatever the
// number of worker threads or the shard split, and a run replays to the same trace.
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { exploreParallel, exploreSync, type ExploreOptions, type RunSummary } from "../../src/explore/index.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { simulate } from "../../src/simulate.ts";

const FILE = join(import.meta.dirname, "..", "..", "examples", "cluster", "deployment.yaml");
const RUNS = 6;
const base: ExploreOptions = { source: { file: FILE }, runs: RUNS, strategy: "random", seed: 3, keepGoing: true, shrink: false, outDir: null };
const hashes = (runs: readonly RunSummary[]) => runs.map((r) => `${r.index}:${r.seed}:${r.identity}`);

describe("a cluster scenario explored", () => {
  const whole = exploreSync(base);

  it("runs differ from one another (the schedule and the placements are choices)", () => {
    expect(new Set(whole.runs.map((r) => r.identity)).size).toBeGreaterThan(1);
  });

  it("is the same with two worker threads", async () => {
    const two = (await promisify(exploreParallel)({ ...base, jobs: 2 }))!;
    expect(hashes(two.runs)).toEqual(hashes(whole.runs));
  });

  it("is the union of its shards", () => {
    const s1 = exploreSync({ ...base, shard: { index: 1, count: 2 } });
    const s2 = exploreSync({ ...base, shard: { index: 2, count: 2 } });
    expect(hashes([...s1.runs, ...s2.runs].sort((a, b) => a.index - b.index))).toEqual(hashes(whole.runs));
  });

  it("gives one trace per seed and strategy, run after run", () => {
    const { scenario } = loadScenarioFile(FILE);
    const a = simulate(scenario, { seed: 11, strategy: { name: "random" } });
    const b = simulate(scenario, { seed: 11, strategy: { name: "random" } });
    expect(a.run.traceHash).toBe(b.run.traceHash);
    expect(a.ok).toBe(true);
  });
});
