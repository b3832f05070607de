// The fuzz property in CI: a bounded number of mutants of the bundled scenarios and example
// snapshots, each run through the CLI in-process. `npm run fuzz` runs many more (scripts/fuzz.ts);
// a counterexample it finds becomes a case in regressions.test.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, it } from "vitest";
import { mutations } from "./mutate.ts";
import { checkMutant, loadSeeds } from "./property.ts";

/** Enough to touch every seed file a few times in about ten seconds on the CI machine. */
const RUNS = Number(process.env.KUBELET_SIM_FUZZ_RUNS ?? 60);

describe("hostile scenarios (fuzz)", () => {
  const seeds = loadSeeds();
  const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-fuzz-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`every mutant runs to a verdict or is refused with a located error (${RUNS} mutants)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), mutations, async (i, muts) => {
        const problem = await checkMutant(seeds[i]!, muts, dir);
        if (problem !== null) throw new Error(`${seeds[i]!.file} with ${JSON.stringify(muts)}: ${problem}`);
      }),
      { numRuns: RUNS, seed: Number(process.env.KUBELET_SIM_FUZZ_SEED ?? 16), endOnFailure: true },
    );
  });
});
