// `npm run fuzz [-- RUNS [SEED]]`: the hostile-input property of test/fuzz, many more times than
// `npm test` runs it (default 2000 mutants), for releases. A failure prints fast-check's seed and
// path (paste them back to replay it) and the shrunk mutant's text, ready to become a case in
// test/fuzz/regressions.test.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { mutations } from "../test/fuzz/mutate.ts";
import { MAX_MS, checkMutant, loadSeeds, mutantText } from "../test/fuzz/property.ts";

const runs = Number(process.argv[2] ?? 2000);
const seed = Number(process.argv[3] ?? Date.now() % 2 ** 31);
const seeds = loadSeeds();
const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-fuzz-"));
process.stdout.write(`fuzz: ${runs} mutants of ${seeds.length} files, seed ${seed}\n`);

const property = fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), mutations, async (i, muts) => {
  const problem = await checkMutant(seeds[i]!, muts, dir, MAX_MS);
  if (problem !== null) throw new Error(`${seeds[i]!.file} with ${JSON.stringify(muts)}: ${problem}`);
});
const details = await fc.check(property, { numRuns: runs, seed });
rmSync(dir, { recursive: true, force: true });
if (!details.failed) {
  process.stdout.write(`fuzz: every mutant ran to a verdict or was refused with a located error\n`);
} else {
  const [i, muts] = details.counterexample!;
  process.stdout.write(`fuzz: FAILED after ${details.numRuns} mutants; replay with seed ${details.seed}, path "${details.counterexamplePath}"\n`);
  process.stdout.write(`${String(details.errorInstance)}\n\nthe shrunk mutant of ${seeds[i]!.file}:\n${mutantText(seeds[i]!, muts)}\n`);
  process.exitCode = 1;
}
