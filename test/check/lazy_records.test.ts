// Lazy records (src/sim/trace.ts): when a run is not hashed, only the record kinds the checks read
// are built, and each goes only to the monitors that read its kind. Every monitor names the kinds it
// reads; a kind missing from that list would make
// exploration miss what a full run finds. So every bundled scenario (races under the buggy and the
// fixed kubelet) runs under pct both ways, with every invariant, and the findings, the choices and
// the end must be the same.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makePlan } from "../../src/explore/plan.ts";
import { RunContext } from "../../src/explore/context.ts";
import { runSeed } from "../../src/explore/seeds.ts";
import { INVARIANTS } from "../../src/check/invariants.ts";
import { Checker } from "../../src/check/checker.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { bundledScenarios, ROOT } from "../cli/golden_table.ts";

const RUNS = 3;

function compare(file: string, version?: string): void {
  const plan = makePlan({ source: { file: join(ROOT, file) }, strategy: "pct", seed: 5, ...(version === undefined ? {} : { kubelet: { version } }) });
  const ctx = new RunContext(plan);
  for (let i = 0; i < RUNS; i++) {
    const seed = runSeed(plan.seed, i);
    const { scenario } = ctx.scenarioFor(i);
    const full = ctx.run(scenario, seed, { hash: true });
    const lazy = ctx.run(scenario, seed, { hash: false });
    const what = `${file}${version === undefined ? "" : ` @${version}`} run ${i}`;
    expect(lazy.result.run.choices.encode(), `${what}: choices`).toBe(full.result.run.choices.encode());
    expect({ verdict: lazy.result.run.verdict, events: lazy.result.run.events, endMs: lazy.result.run.endMs }, what)
      .toEqual({ verdict: full.result.run.verdict, events: full.result.run.events, endMs: full.result.run.endMs });
    expect(lazy.result.checks, `${what}: checks`).toEqual(full.result.checks);
    expect(lazy.failure, `${what}: failure`).toEqual(full.failure);
    expect(lazy.result.run.traceHash).toBe("");
  }
}

describe("lazy records", () => {
  const files = bundledScenarios();
  it.each(files)("find what full records find: %s", (file) => compare(file));
  it.each(files.filter((f) => f.startsWith("scenarios/races/")))("find what full records find under the fixed kubelet: %s", (file) => compare(file, "1.30"));

  it("every registered invariant names the kinds it reads, so exploration builds fewer records", () => {
    expect(INVARIANTS.filter((i) => i.make(loadScenarioFile(join(ROOT, "scenarios/default.yaml")).scenario).reads === undefined).map((i) => i.id)).toEqual([]);
    const { scenario } = loadScenarioFile(join(ROOT, "scenarios/default.yaml"));
    const checker = new Checker(scenario, INVARIANTS.map((i) => i.id), { byKind: true });
    expect(checker.kinds).toBeDefined();
    expect(checker.kinds!.has("ListContainers")).toBe(false);
  });
});
