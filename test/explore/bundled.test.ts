// Every bundled scenario is healthy (its expectations and every invariant hold under fifo) and shows no
// failure over random and pct runs, and its runs are deterministic. CI runs RUNS of each strategy
// per scenario; docs/exploring.md gives the 5,000-run figures measured by hand.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exploreSync, makePlan, RunContext, describeFailure } from "../../src/explore/index.ts";

const RUNS = 15;
const ROOT = join(import.meta.dirname, "..", "..");
// The race scenarios run a buggy kubelet on purpose; test/races/ checks them under both kubelets.
const files = ["scenarios/default.yaml", ...["basics"].flatMap((d) =>
  readdirSync(join(ROOT, "scenarios", d)).filter((f) => f.endsWith(".yaml")).sort().map((f) => `scenarios/${d}/${f}`))];

/** Healthy: a fifo run passes every expectation and every registered invariant. */
function healthy(file: string): boolean {
  const plan = makePlan({ source: { file: join(ROOT, file) }, strategy: "random" });
  const ctx = new RunContext(plan);
  return ctx.run(ctx.base, plan.seed, { strategy: { name: "fifo" }, strategyLabel: "fifo" }).failure === null;
}

describe.each(files)("%s", (file) => {
  it(`is healthy under fifo, has no failure over ${RUNS} random and ${RUNS} pct runs, and replays them identically`, () => {
    expect(healthy(file), "a fifo run fails an expectation or an invariant").toBe(true);
    for (const strategy of ["random", "pct"] as const) {
      const r = exploreSync({ source: { file: join(ROOT, file) }, runs: RUNS, strategy, checkDeterminism: strategy === "pct", shrink: false, outDir: null });
      const failure = r.first?.failure;
      expect(failure === undefined || failure === null ? null : `run ${r.first!.index} (seed ${r.first!.seed}, ${r.strategy}): ${describeFailure(failure)}`).toBeNull();
      expect(r.runs).toHaveLength(RUNS);
      if (r.determinism !== null) expect(r.determinism.mismatches).toEqual([]);
    }
  });
});
