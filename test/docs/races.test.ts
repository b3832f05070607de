// Every race of the catalog: the buggy kubelet breaks the invariant at the scenario's seed, the
// fixed one does not, and the docs page's diagrams are fresh renders of those two runs.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RACES, raceScenario } from "../../src/races/catalog.ts";
import { withFreshDiagrams } from "../../src/races/diagrams.ts";
import { simulate } from "../../src/simulate.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe.each(RACES.map((r) => [r.id, r] as const))("race %s", (_id, race) => {
  it(`breaks ${race.invariant} under the buggy kubelet (${race.buggy.label})`, () => {
    const r = simulate(raceScenario(race, "buggy"));
    expect(r.checks.violations.map((v) => v.invariant)).toContain(race.invariant);
  });

  it(`holds ${race.invariant} under the fixed kubelet (${race.fixed.label})`, () => {
    const r = simulate(raceScenario(race, "fixed"));
    expect(r.checks.violations.filter((v) => v.invariant === race.invariant)).toEqual([]);
  });

  it("has a docs page whose diagrams are current (node --import tsx scripts/update-race-docs.ts)", () => {
    const page = readFileSync(join(ROOT, "docs", "races", `${race.id.toLowerCase()}.md`), "utf8");
    expect(withFreshDiagrams(page, race)).toBe(page);
  });
});
