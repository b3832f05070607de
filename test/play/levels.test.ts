// The levels' promises, checked by running them: a level won by order keeps the invariant under
// fifo at every timing its knobs allow (every whole millisecond of every knob, in every
// combination: src/play/claim.ts), and its stored win breaks it with no timing changed; no level's
// written timing already breaks an invariant of the run (the harm it asks for is not there before
// the learner makes it); every level states its goal in one sentence.
import { describe, expect, it } from "vitest";
import { RACES } from "../../src/races/catalog.ts";
import { levelNotes, resolveLevel, tutorialLevel } from "../../src/cli/play_level.ts";
import { claimSize, claimTimings, MAX_CLAIM_RUNS } from "../../src/play/claim.ts";
import { timedLevel } from "../../src/play/compile.ts";
import { playToEnd } from "../../src/play/session.ts";
import { ChoiceLog } from "../../src/sim/index.ts";
import { sideOverrides } from "../../src/races/catalog.ts";
import { loadScenarioTextWithOverrides } from "../../src/scenario/overrides.ts";
import { simulate } from "../../src/simulate.ts";
import type { Scenario } from "../../src/scenario/resolve.ts";

/** Each pod as the run ends: gone, or its kubectl get columns. */
function podsAtEnd(scenario: Scenario): string[] {
  const last = new Map<string, string>();
  for (const r of simulate(scenario, { strategy: { name: "fifo" } }).records!) {
    if (r.kind === "PodView") last.set(String(r["pod"]), r["deleted"] === true ? "gone" : `${String(r["ready"])} ${String(r["status"])}`);
  }
  return [...last].map(([pod, v]) => `${pod} ${v}`).sort();
}

const ORDER = RACES.map((r) => r.id).filter((id) => levelNotes(id).mode === "order");

describe("levels won by order", () => {
  it("are ten or more", () => {
    expect(ORDER.length).toBeGreaterThanOrEqual(10);
  });

  it.each(ORDER)("%s: fifo keeps the invariant at every timing its knobs allow, and its win, with no timing changed, breaks it", (id) => {
    const level = resolveLevel(id);
    expect(claimSize(level.knobs)).toBeLessThanOrEqual(MAX_CLAIM_RUNS);
    for (const values of claimTimings(level.knobs)) expect(playToEnd(timedLevel(level, values).level, []).broken, JSON.stringify(values)).toBeNull();
    const notes = levelNotes(id);
    expect(notes.knobs).toEqual({});
    expect(playToEnd(level, ChoiceLog.decode(notes.win).toArray()).broken?.invariant).toBe(level.invariant);
  });
});

describe("every level", () => {
  it.each(RACES.map((r) => r.id))("%s: its goal is one sentence, and its written timing breaks no invariant of the run under fifo, unless it is the race's deterministic form", (id) => {
    const level = resolveLevel(id);
    expect(level.goal).toMatch(/^[A-Z][^.]*\(the invariant [a-z-]+ breaks\)\.$/);
    const end = playToEnd(level, []);
    if (level.mode === "demo") expect(end.broken).not.toBeNull();
    else expect(end.violations.map((v) => v.invariant)).toEqual([]);
    expect(level.why?.length ?? 0).toBeGreaterThan(80);
  });

  it.each(RACES.map((r) => r.id).filter((id) => levelNotes(id).mode !== "demo"))("%s: at its written timing every pod ends as under the fixed kubelet, or the page says why not", (id) => {
    const level = resolveLevel(id);
    const race = RACES.find((r) => r.id === id)!;
    const fixed = loadScenarioTextWithOverrides(level.scenarioText!, level.scenarioFile, sideOverrides(race.fixed)).scenario;
    const [buggyEnd, fixedEnd] = [podsAtEnd(level.scenario), podsAtEnd(fixed)];
    if (level.caveat === null) expect(buggyEnd).toEqual(fixedEnd);
    else expect(buggyEnd).not.toEqual(fixedEnd);
  });

  it("the first level teaches the controls in three steps, on a level won by order", () => {
    const t0 = tutorialLevel();
    expect(t0.lesson).toHaveLength(3);
    expect(t0.mode).toBe("order");
    expect(t0.lesson![2]).toMatch(/^Type \d+ in "fifo to t=" and click it; (press fifo step .*?, then )?choose \S+ \(option \d+\)/);
  });
});
