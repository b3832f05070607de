// Every race's hunt form: as written (fifo, the file's own latencies and step times) it passes; an
// exploration under the buggy kubelet finds the race within a few hundred runs; under the fixed
// kubelet the same exploration finds nothing. Small run counts here; `npm run hunt-table` measures
// the median over 20 seeds for random, pct and pos (docs/exploring.md).
import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { RACES } from "../../src/races/catalog.ts";
import { fifoBreaks, huntTableMarkdown, huntViolations, median, runsToFirstViolation } from "../../src/races/hunt.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";

const ROOT = join(import.meta.dirname, "..", "..");
/** Runs an exploration may take to find the race (the slowest, R15, needs about 100 with seed 1). */
const FIND_RUNS = 400;
const FIXED_RUNS = 40;

describe.each(RACES.map((r) => [r.id, r] as const))("%s's hunt form", (_id, race) => {
  it("is a scenario file that declares swarm ranges", () => {
    expect(existsSync(join(ROOT, race.hunt.file))).toBe(true);
    expect(loadScenarioFile(join(ROOT, race.hunt.file)).scenario.swarm).toBeDefined();
  });

  it(`passes as written under fifo, on both sides`, () => {
    expect(fifoBreaks(race, "buggy")).toBe(false);
    expect(fifoBreaks(race, "fixed")).toBe(false);
  });

  it(`is found by pct under the buggy kubelet (${race.buggy.label}) within ${FIND_RUNS} runs`, () => {
    const n = runsToFirstViolation(race, "pct", 1, FIND_RUNS);
    expect(n, `no run of ${FIND_RUNS} broke ${race.invariant}`).not.toBeNull();
    expect(n!).toBeGreaterThan(0);
  });

  it(`holds ${race.invariant} under the fixed kubelet (${race.fixed.label}) over ${FIXED_RUNS} runs`, () => {
    expect(huntViolations(race, "fixed", "pct", FIXED_RUNS)).toBe(0);
  });
});

describe("the hunt table", () => {
  it("takes the median with a seed that found nothing as infinitely many runs", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([1, null, 2, null])).toBeNull();
    expect(median([1, 2, null])).toBe(2);
    expect(median([])).toBeNull();
  });

  it("renders one row per race with the median and the seeds that found it", () => {
    const race = RACES[0]!;
    const row = {
      race: race.id, invariant: race.invariant, fifoBreaks: false,
      cells: [
        { strategy: "random" as const, runs: [1, 3, 2], median: 2, found: 3 },
        { strategy: "pct" as const, runs: [null, null, 4], median: null, found: 1 },
        { strategy: "pos" as const, runs: [1, 1, 1], median: 1, found: 3 },
      ],
    };
    const md = huntTableMarkdown([row], RACES, { seeds: 3, maxRuns: 50 }).split("\n");
    expect(md[0]).toBe("| race | invariant | the hunt needs | fifo | random | pct | pos |");
    expect(md[2]).toBe(`| ${race.id} | \`${race.invariant}\` | ${race.hunt.needs} | passes | 2 (3/3) | > 50 (1/3) | 1 (3/3) |`);
  });
});
