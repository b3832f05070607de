// What the generated scenarios find today (docs/testing.md): over N scenarios fast-check draws
// from scenarioArb (with a fixed seed) and their run seeds, each run under `schedules` schedules
// as assertInvariantHolds runs them (fifo, then pct), every registered invariant checked, which
// invariants fire and in how many scenarios. test/docs/generated_findings.test.ts holds the page's
// sentence to it; `node --import tsx scripts/generated_findings.ts` prints it.
import fc from "fast-check";
import { resolveInvariantIds, ALL_INVARIANTS } from "../src/check/invariants/index.ts";
import { countKind } from "../src/explore/plan.ts";
import { runSeed } from "../src/explore/seeds.ts";
import { simulate } from "../src/simulate.ts";
import { isFailureVerdict, type StrategySpec } from "../src/sim/index.ts";
import { scenarioArb, scenarioFromObject, type ScenarioArbOptions } from "../src/testing/index.ts";

export interface FindingsSetup {
  scenarios: number;
  schedules: number;
  seed: number;
  arb: ScenarioArbOptions;
}

/** The setup docs/testing.md states. */
export const DOCS_SETUP: FindingsSetup = { scenarios: 100, schedules: 3, seed: 2024, arb: { pods: { min: 1, max: 2 }, untilMs: 60_000 } };

/** Invariant id (or `verdict:<v>`) → the scenarios (of the sample, by index) in which some schedule broke it. */
export function generatedFindings(setup: FindingsSetup): Map<string, number[]> {
  const ids = resolveInvariantIds([ALL_INVARIANTS]);
  const sample = fc.sample(fc.tuple(scenarioArb(setup.arb), fc.nat({ max: 2 ** 32 - 1 })), { seed: setup.seed, numRuns: setup.scenarios });
  const found = new Map<string, number[]>();
  const note = (id: string, i: number) => {
    const list = found.get(id) ?? [];
    if (list.at(-1) !== i) list.push(i);
    found.set(id, list);
  };
  sample.forEach(([raw, seed], i) => {
    const expect = [...(Array.isArray(raw["expect"]) ? raw["expect"] : []), ...ids.map((id) => ({ never: id }))];
    const scenario = scenarioFromObject({ ...raw, expect });
    let steps = 1;
    for (let j = 0; j < setup.schedules; j++) {
      const strategy: StrategySpec = j === 0 ? { name: "fifo" } : { name: "pct", depth: 3, steps };
      const r = simulate(scenario, { seed: j === 0 ? seed : runSeed(seed, j), strategy, sinks: [], keepRecords: false, hash: false });
      if (j === 0) steps = Math.max(1, countKind(r.run.choices, "proc"));
      for (const v of r.checks.violations) note(v.invariant, i);
      if (isFailureVerdict(r.run.verdict)) note(`verdict:${r.run.verdict}`, i);
    }
  });
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = generatedFindings(DOCS_SETUP);
  for (const [id, scenarios] of [...found].sort()) process.stdout.write(`${id}: ${scenarios.length} of ${DOCS_SETUP.scenarios} scenarios\n`);
}
