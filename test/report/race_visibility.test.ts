// The default timeline (`normal`) hides housekeeping and second views of a step; it must never hide
// what a race's story rests on. For each catalogued race (src/races/catalog.ts), run its buggy
// side, then find the records its violation rests on by taking them away: a kind is
// violation-relevant when removing every record of that kind from the trace changes what the
// race's invariant monitor reports; a record of such a kind is a key record when removing just it
// does. Every key record, and the checker's InvariantViolated record, must show at `normal`. A
// monitor that reads the apiserver's objects (observeApi: fields no record carries, such as the
// Ready condition) cannot be replayed over records; its key records are the ones its message names
// (the links of the HTML view).
import { describe, expect, it } from "vitest";
import { RACES, raceScenario } from "../../src/races/catalog.ts";
import { simulate } from "../../src/simulate.ts";
import { makeMonitors } from "../../src/check/invariants.ts";
import { hideReasons } from "../../src/report/index.ts";
import type { Scenario } from "../../src/scenario/index.ts";
import type { TraceRecord } from "../../src/sim/index.ts";
import { linkedRecords } from "../../src/report/timeline/links.ts";

/** What the monitor reports over the records left when `skip` says no: "pod: message", or null. */
function verdict(scenario: Scenario, invariant: string, records: readonly TraceRecord[], skip: (i: number) => boolean): string | null {
  const monitor = makeMonitors([invariant], scenario)[0]!;
  for (let i = 0; i < records.length; i++) {
    if (skip(i)) continue;
    const v = monitor.observe(records[i]!);
    if (v !== null) return `${v.pod}: ${v.message}`;
  }
  return null;
}

const kindOf = (r: TraceRecord) => `${r.component}/${r.kind}`;

describe.each(RACES.map((r) => [r.id, r]))("%s keeps its key records visible at normal verbosity", (_id, race) => {
  const scenario = raceScenario(race, "buggy");
  const result = simulate(scenario);
  const records = result.records!;
  const violation = result.checks.violations.find((v) => v.invariant === race.invariant);
  const reasons = hideReasons(records, { verbosity: "normal" });

  it("the buggy side violates the race's invariant", () => {
    expect(violation).toBeDefined();
  });

  it("shows every key record, and the violation itself", () => {
    if (makeMonitors([race.invariant], scenario)[0]!.observeApi !== undefined) {
      const flaggedRec = records.find((r) => r.component === "check" && r.kind === "InvariantViolated" && r["invariant"] === race.invariant)!;
      const named = linkedRecords(flaggedRec, records);
      expect(named.length).toBeGreaterThan(0);
      const hiddenNamed = named.map((seq) => records.findIndex((r) => r.seq === seq)).filter((i) => reasons[i] !== null);
      expect(hiddenNamed.map((i) => `${records[i]!.t}ms ${kindOf(records[i]!)} (${reasons[i]})`)).toEqual([]);
      expect(reasons[records.indexOf(flaggedRec)]).toBeNull();
      return;
    }
    const base = verdict(scenario, race.invariant, records, () => false);
    expect(base).not.toBeNull();
    const untilMs = violation!.t;
    const kinds = [...new Set(records.filter((r) => r.t <= untilMs).map(kindOf))].sort();
    const relevant = kinds.filter((k) => verdict(scenario, race.invariant, records, (i) => kindOf(records[i]!) === k) !== base);
    expect(relevant.length).toBeGreaterThan(0);
    const key: number[] = [];
    records.forEach((r, i) => {
      if (r.t > untilMs || !relevant.includes(kindOf(r))) return;
      if (verdict(scenario, race.invariant, records, (j) => j === i) !== base) key.push(i);
    });
    expect(key.length).toBeGreaterThan(0);
    const hidden = key.filter((i) => reasons[i] !== null).map((i) => `${records[i]!.t}ms ${kindOf(records[i]!)} (${reasons[i]})`);
    expect(hidden).toEqual([]);
    const flagged = records.findIndex((r) => r.component === "check" && r.kind === "InvariantViolated" && r["invariant"] === race.invariant);
    expect(flagged).toBeGreaterThanOrEqual(0);
    expect(reasons[flagged]).toBeNull();
  });
});
