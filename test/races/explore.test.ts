// Every race in the catalog is found by exploration under the buggy kubelet and not under the fixed
// one: `explore --strategy pct` on each side, checking the race's own invariant. The buggy side must
// break it within BUGGY_RUNS runs, and the failing run must replay to the same trace; the fixed side
// must hold for FIXED_RUNS runs. npm test runs 100 fixed runs per race; the catalog's claim of 2,000
// is checked with KUBELET_SIM_RACE_RUNS=2000 npx vitest run test/races/explore.test.ts (about 4 min).
import { describe, expect, it } from "vitest";
import { RACES, raceRawScenario, type RaceEntry } from "../../src/races/catalog.ts";
import { describeFailure, exploreSync, makePlan, RunContext, type ExploreReport } from "../../src/explore/index.ts";

const BUGGY_RUNS = 2000;
const FIXED_RUNS = Number(process.env.KUBELET_SIM_RACE_RUNS ?? 100);

function explore(race: RaceEntry, side: "buggy" | "fixed", runs: number): ExploreReport {
  return exploreSync({
    source: { raw: raceRawScenario(race, side), label: race.file },
    runs,
    strategy: "pct",
    invariants: [race.invariant],
    shrink: false,
    outDir: null,
  });
}

describe.each(RACES.map((r) => [r.id, r] as const))("%s under explore --strategy pct", (_id, race) => {
  it(`buggy (${race.buggy.label}): breaks ${race.invariant} within ${BUGGY_RUNS} runs, and the failing run replays exactly`, () => {
    const r = explore(race, "buggy", BUGGY_RUNS);
    expect(r.first, `no run of ${BUGGY_RUNS} broke ${race.invariant}`).not.toBeNull();
    const failure = r.first!.failure!;
    expect(failure.kind === "invariant" ? failure.id : describeFailure(failure)).toBe(race.invariant);
    // The same plan and run index give the same trace, in a fresh context.
    const again = new RunContext(makePlan({ source: { raw: raceRawScenario(race, "buggy"), label: race.file }, strategy: "pct", invariants: [race.invariant] }));
    expect(again.runIndex(r.first!.index).traceHash).toBe(r.first!.traceHash);
  });

  it(`fixed (${race.fixed.label}): ${race.invariant} holds over ${FIXED_RUNS} runs`, () => {
    const r = explore(race, "fixed", FIXED_RUNS);
    const first = r.first === null ? null : `run ${r.first.index} (seed ${r.first.seed}): ${describeFailure(r.first.failure!)}`;
    expect(first).toBeNull();
    expect(r.runs).toHaveLength(FIXED_RUNS);
  });
});
