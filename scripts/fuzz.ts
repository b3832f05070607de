// `npm run fuzz [-- RUNS [SEED [scenarios|records]]]`: the hostile-input properties of test/fuzz,
// many more times than `npm test` runs them (default 2000 mutants of each), for releases: mutants
// of the bundled scenarios and example snapshots (`run`, `actions`), then mutants of real run
// records (`replay`, `diff`). A failure prints fast-check's seed and path (paste them back to
// replay it) and the shrunk mutant's text, ready to become a case in test/fuzz/regressions.test.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { mutations } from "../test/fuzz/mutate.ts";
import { MAX_MS, checkMutant, loadSeeds, mutantText } from "../test/fuzz/property.ts";
import { recordMutations } from "../test/fuzz/record_mutate.ts";
import { checkRecordMutant, makeRecordSeeds, recordMutantText } from "../test/fuzz/record_property.ts";

const runs = Number(process.argv[2] ?? 2000);
const seed = Number(process.argv[3] ?? Date.now() % 2 ** 31); // host-time-ok: a fresh seed per release run, printed to replay it
const which = process.argv[4] ?? "both";
if (!["scenarios", "records", "both"].includes(which)) {
  process.stderr.write(`usage: npm run fuzz -- [RUNS [SEED [scenarios|records]]]; not "${which}"\n`);
  process.exit(2);
}

/** Checks a property and prints the outcome; returns whether it held. */
async function report<T extends unknown[]>(what: string, property: fc.IAsyncPropertyWithHooks<T>, shrunk: (counterexample: T) => string): Promise<boolean> {
  const details = await fc.check(property, { numRuns: runs, seed });
  if (!details.failed) {
    process.stdout.write(`fuzz: every ${what} held the property\n`);
    return true;
  }
  process.stdout.write(`fuzz: FAILED after ${details.numRuns} ${what}s; replay with seed ${details.seed}, path "${details.counterexamplePath}"\n`);
  process.stdout.write(`${String(details.errorInstance)}\n\n${shrunk(details.counterexample!)}\n`);
  return false;
}

const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-fuzz-"));
let ok = true;
try {
  if (which !== "records") {
    const seeds = loadSeeds();
    process.stdout.write(`fuzz: ${runs} mutants of ${seeds.length} files, seed ${seed}\n`);
    const property = fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), mutations, async (i, muts) => {
      const problem = await checkMutant(seeds[i]!, muts, dir, MAX_MS);
      if (problem !== null) throw new Error(`${seeds[i]!.file} with ${JSON.stringify(muts)}: ${problem}`);
    });
    ok = (await report("scenario mutant", property, ([i, muts]) => `the shrunk mutant of ${seeds[i]!.file}:\n${mutantText(seeds[i]!, muts)}`)) && ok;
  }
  if (which !== "scenarios") {
    const seeds = await makeRecordSeeds(dir);
    process.stdout.write(`fuzz: ${runs} mutants of ${seeds.length} run records, seed ${seed}\n`);
    const commands = fc.constantFrom("replay" as const, "replay" as const, "diff" as const);
    const property = fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), recordMutations, commands, async (i, muts, command) => {
      const problem = await checkRecordMutant(seeds[i]!, muts, command, dir, MAX_MS);
      if (problem !== null) throw new Error(`${command} of ${seeds[i]!.name} with ${JSON.stringify(muts).slice(0, 3000)}: ${problem}`);
    });
    ok = (await report("record mutant", property, ([i, muts, command]) => `${command} of the shrunk mutant of ${seeds[i]!.name}:\n${recordMutantText(seeds[i]!, muts).slice(0, 20_000)}`)) && ok;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (!ok) process.exitCode = 1;
