// The hostile-record property in CI: a bounded number of mutants of real run records (a passing
// run, a failing race, pct under a kubelet override, a manifest's run, a record that carries its
// scenario's text, an explore repro), each given to `replay` or to `diff` in-process. `npm run fuzz`
// runs many more (scripts/fuzz.ts); a counterexample it finds becomes a case in regressions.test.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkRecordMutant, judgeRecordRun, makeRecordSeeds, type RecordSeed } from "./record_property.ts";
import { recordMutations } from "./record_mutate.ts";

/** Each mutant replays a run or two (about a fifth of a second each): this many take a few seconds more than the scenarios' fuzz. */
const RUNS = Number(process.env.KUBELET_SIM_FUZZ_RUNS ?? 60);

describe("hostile run records (fuzz)", () => {
  const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-fuzz-records-"));
  let seeds: RecordSeed[] = [];
  beforeAll(async () => {
    seeds = await makeRecordSeeds(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("every unchanged record replays, and diffs identical with itself", async () => {
    for (const seed of seeds) {
      expect(await checkRecordMutant(seed, [{ op: "respell", separator: " " }], "replay", dir), seed.name).toBeNull();
    }
    expect(await checkRecordMutant(seeds[0]!, [{ op: "respell", separator: "\n" }], "diff", dir)).toBeNull();
  });

  it("the property can fail: an accepted record that no longer says what the run did, an exit 3 that is no divergence, a refusal without words", () => {
    const seed = seeds[0]!;
    const file = join(dir, "judged.json");
    const accepted = { code: 0, out: "", err: "", ms: 1 };
    const edit = (patch: Record<string, unknown>) => JSON.stringify({ ...seed.record, ...patch });
    expect(judgeRecordRun(seed, edit({}), "replay", file, accepted)).toBeNull();
    expect(judgeRecordRun(seed, edit({ verdict: "deadlock" }), "replay", file, accepted)).toMatch(/^accepted a record whose verdict is "deadlock"/);
    expect(judgeRecordRun(seed, edit({ ok: !seed.record["ok"] }), "diff", file, accepted)).toMatch(/^accepted a record whose ok is/);
    expect(judgeRecordRun(seed, edit({ choices: `${String(seed.record["choices"])} p0/2` }), "replay", file, accepted)).toMatch(/^accepted a record of \d+ choices for a run of \d+$/);
    expect(judgeRecordRun(seed, "{", "replay", file, accepted)).toBe("accepted a record that is not JSON");
    expect(judgeRecordRun(seed, edit({}), "replay", file, { ...accepted, code: 3, err: "kubelet-sim: internal error: x\n" })).toMatch(/^exit 3 that is no divergence/);
    expect(judgeRecordRun(seed, edit({}), "replay", file, { ...accepted, code: 2, err: "Error: x\n" })).toMatch(/^exit 2 without a kubelet-sim message/);
    expect(judgeRecordRun(seed, edit({}), "replay", file, { ...accepted, code: 2, err: "kubelet-sim: Error: x\n    at f (/a.js:1:2)" })).toMatch(/^a stack trace/);
    // Wall time is judged only when asked (npm run fuzz asks; npm test asserts no wall time).
    expect(judgeRecordRun(seed, edit({}), "replay", file, { ...accepted, ms: 40_000 })).toBeNull();
    expect(judgeRecordRun(seed, edit({}), "replay", file, { ...accepted, ms: 40_000 }, 30_000)).toBe("took 40000 ms (more than 30000 ms)");
  });

  it(`every mutant is refused in words, reported as a divergence, or accepted only as the run it records (${RUNS} mutants)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), recordMutations, fc.constantFrom("replay" as const, "replay" as const, "diff" as const), async (i, muts, command) => {
        const problem = await checkRecordMutant(seeds[i]!, muts, command, dir);
        if (problem !== null) throw new Error(`${command} of ${seeds[i]!.name} with ${JSON.stringify(muts).slice(0, 3000)}: ${problem}`);
      }),
      { numRuns: RUNS, seed: Number(process.env.KUBELET_SIM_FUZZ_SEED ?? 16), endOnFailure: true },
    );
  });
});
