// Every race's hunt form, explored as `kubelet-sim explore FILE --invariants <its invariant>` under
// its buggy kubelet (the flags its catalog entry names): the first failure is the race's invariant
// (the form's own expectations never stop the hunt first), and the key printed first, "replay the run
// as found", reproduces that very run: the identical trace and the same failure, swarm draws and
// explored invariants included. Then R20's hunt at seed 4 (a swarm run a `run` command once failed
// to reproduce) with shrinking: both printed keys reproduce, and the repro says what it keeps.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exploreSync, humanSummary, loadRepro, replayRepro, summarize } from "../../src/explore/index.ts";
import { sameFailure } from "../../src/explore/failure.ts";
import { RACES, sideOverrides } from "../../src/races/catalog.ts";

const out = mkdtempSync(join(tmpdir(), "kubelet-sim-hunt-keys-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Enough runs for every hunt form at seed 1 (R15, the hardest, needs about a hundred). */
const MAX_RUNS = 400;

/** The keys a human summary prints: the run as found first, then the repro's. */
function printedKeys(text: string): { asFound: string | null; repro: string | null } {
  const asFound = /^# replay the run as found: kubelet-sim replay (\S+)$/m.exec(text)?.[1] ?? null;
  const repro = /^# replay: kubelet-sim replay (\S+)$/m.exec(text)?.[1] ?? null;
  return { asFound, repro };
}

describe("every race's hunt form: its invariant is what the hunt finds, and the printed key replays the run as found", () => {
  it.each(RACES.map((r) => [r.id, r] as const))("%s", (id, race) => {
    const report = exploreSync({
      source: { file: race.hunt.file }, kubelet: sideOverrides(race.buggy), runs: MAX_RUNS, strategy: "pct", seed: 1,
      invariants: [race.invariant], shrink: false, outDir: join(out, id),
    });
    const first = report.first;
    expect(first, `${id}: no failure in ${MAX_RUNS} runs`).not.toBeNull();
    expect({ kind: first!.failure!.kind, id: first!.failure!.id }).toEqual({ kind: "invariant", id: race.invariant });
    const text = humanSummary(summarize(report));
    const keys = printedKeys(text);
    expect(keys.asFound, text).not.toBeNull();
    const again = replayRepro(loadRepro(keys.asFound!));
    expect(again.reproduced).toBe(true);
    expect(sameFailure(again.failure, first!.failure)).toBe(true);
    expect(again.failure!.atMs).toBe(first!.failure!.atMs);
  });
});

describe("R20's hunt at seed 4, shrunk", () => {
  it("prints two keys that reproduce: the run as found (its swarm draws) and the repro, which says what it keeps", () => {
    const report = exploreSync({ source: { file: "scenarios/races/hunt/r20-hunt.yaml" }, runs: 200, strategy: "pct", seed: 4, outDir: join(out, "r20"), shrink: { maxRuns: 80 } });
    const text = humanSummary(summarize(report));
    const keys = printedKeys(text);
    expect(keys.asFound).toMatch(/-as-found\.json$/);
    const found = replayRepro(loadRepro(keys.asFound!));
    expect(found.reproduced).toBe(true);
    expect(sameFailure(found.failure, report.first!.failure)).toBe(true);
    const repro = replayRepro(loadRepro(keys.repro!));
    expect(repro.reproduced).toBe(true);
    expect(text).toMatch(/^ {2}kept: invariant init-containers-out-of-order \(default\/web\)$/m);
  });
});
