// Play mode's runs in Node: every catalogued race is a level whose recorded win breaks its invariant
// with the deviations its notes say (and whose fifo run does not, where the notes promise a win by
// choice); a pause shows the choice and the state; undo (the shorter prefix) gives the identical
// pause; the end of a fifo prefix is the fifo run, hash for hash; the export is a run record.
import { describe, expect, it } from "vitest";
import { RACES } from "../../src/races/catalog.ts";
import { levelNotes, resolveLevel } from "../../src/cli/play_level.ts";
import { deviations, playTo, playToEnd, strategyLabel } from "../../src/play/session.ts";
import { exportRecord } from "../../src/play/export.ts";
import { parseRunRecord } from "../../src/record/run_record.ts";
import { ChoiceLog } from "../../src/sim/index.ts";
import { simulate } from "../../src/simulate.ts";

describe("every catalogued race is a level", () => {
  it.each(RACES.map((r) => r.id))("%s: its recorded win breaks the invariant with the deviations its notes say", (id) => {
    const level = resolveLevel(id.toLowerCase());
    const notes = levelNotes(id);
    const win = ChoiceLog.decode(notes.win).toArray();
    expect(deviations(win)).toBe(notes.deviations);
    const end = playToEnd(level, win);
    expect(end.broken?.invariant).toBe(level.invariant);
    if (notes.deviations > 0) expect(playToEnd(level, []).broken).toBeNull();
  });
});

describe("a play-mode run", () => {
  const level = resolveLevel("r05");

  it("pauses at the first choice, naming each option's goroutine and the shared state", () => {
    const first = playTo(level, []);
    if (first.kind !== "pause") throw new Error("expected a pause");
    expect(first.choiceIndex).toBe(0);
    expect(first.options).toHaveLength(first.choice.n);
    expect(first.options.every((o) => o.who !== "" && o.does !== "")).toBe(true);
    expect(first.state.map((s) => s.title)).toEqual(["API object", "pod workers", "PLEG records", "pod status cache"]);
  });

  it("undo is the shorter prefix run again: the identical pause", () => {
    const first = playTo(level, []);
    if (first.kind !== "pause") throw new Error("expected a pause");
    const next = playTo(level, [{ ...first.choice, index: 1 }]);
    expect(next.kind === "pause" && next.choiceIndex).toBe(1);
    expect(playTo(level, [])).toEqual(first);
  });

  it("a prefix of fifo's answers, run to the end, is the fifo run", () => {
    const fifo = simulate(level.scenario, { strategy: { name: "fifo" } });
    const end = playToEnd(level, []);
    expect([end.traceHash, end.verdict, end.strategy]).toEqual([fifo.run.traceHash, fifo.run.verdict, "fifo"]);
    expect(playTo(level, end.tape)).toMatchObject({ kind: "end", traceHash: fifo.run.traceHash });
  });

  it("exports a run record that names the tape, the scenario file and the strategy 'play'", () => {
    const win = ChoiceLog.decode(levelNotes("R05").win).toArray();
    const end = playToEnd(level, win);
    const { record, tape } = parseRunRecord(exportRecord(level, end), "export");
    expect([record.scenario, record.strategy, record.traceHash, tape.encode()]).toEqual([level.scenarioFile, "play", end.traceHash, ChoiceLog.from(win).encode()]);
    expect(strategyLabel(win)).toBe("play");
  });
});

describe("a scenario file as a level", () => {
  it("wins on any invariant's violation: the deterministic R05 breaks lost-wakeup under fifo", () => {
    const level = resolveLevel("scenarios/races/r05-pw-kill-pinning.yaml");
    expect([level.invariant, level.scenarioFile, level.kubelet]).toEqual([null, "scenarios/races/r05-pw-kill-pinning.yaml", null]);
    expect(playToEnd(level, []).broken?.invariant).toBe("lost-wakeup");
  });
});
