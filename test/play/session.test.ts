// Play mode's runs in Node: every catalogued race is a level whose recorded win breaks its invariant
// with the deviations its notes say (and whose fifo run does not, where the notes promise a win by
// choice); a pause shows the choice and the state; undo (the shorter prefix) gives the identical
// pause; the end of a fifo prefix is the fifo run, hash for hash; the export is a run record.
import { describe, expect, it } from "vitest";
import { RACES } from "../../src/races/catalog.ts";
import { levelNotes, resolveLevel } from "../../src/cli/play_level.ts";
import { deviations, fifoUntil, playTo, playToEnd, strategyLabel } from "../../src/play/session.ts";
import { exportRecord } from "../../src/play/export.ts";
import { timedLevel } from "../../src/play/compile.ts";
import { winSize } from "../../src/play/levels.ts";
import { parseRunRecord } from "../../src/record/run_record.ts";
import { ChoiceLog } from "../../src/sim/index.ts";
import { simulate } from "../../src/simulate.ts";

describe("every catalogued race is a level", () => {
  it.each(RACES.map((r) => r.id))("%s: its recorded win, at its timing, breaks the invariant with the deviations its notes say", (id) => {
    const level = resolveLevel(id.toLowerCase());
    const notes = levelNotes(id);
    const win = ChoiceLog.decode(notes.win).toArray();
    expect(deviations(win)).toBe(notes.deviations);
    const timed = timedLevel(level, notes.knobs).level;
    expect(playToEnd(timed, win).broken?.invariant).toBe(level.invariant);
    // A level that promises a win of the learner's own makes fifo keep the invariant at the written timing.
    if (winSize(notes) > 0) expect(playToEnd(level, []).broken).toBeNull();
    for (const id of Object.keys(notes.knobs)) expect(level.knobs.map((k) => k.id)).toContain(id);
    // A level won by order changes no timing, and offers no seed to change.
    if (notes.mode === "order") expect([Object.keys(notes.knobs), notes.deviations > 0, level.knobs.some((k) => k.kind === "seed")]).toEqual([[], true, false]);
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

  it("shows what a prober race turns on (the probe workers) and what R24 does (the runtime's fault window)", () => {
    const prober = playToEnd(resolveLevel("r16"), []);
    expect(prober.state.map((s) => s.title)).toContain("probe workers");
    const r24 = resolveLevel("r24");
    const end = playToEnd(r24, []);
    const faults = end.state.find((s) => s.title === "runtime faults")!;
    expect(faults.rows.map(([who]) => who)).toEqual(r24.scenario.runtime.faults.map((f) => [f.method, f.pod ?? "any pod", f.container].filter((x) => x !== null).join(" ")));
    expect(faults.rows[0]![1]).toMatch(/^fails every call, \d+ms to \d+ms · now (INSIDE|outside) the window$/);
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
    const first = playTo(level, []);
    if (first.kind !== "pause") throw new Error("expected a pause");
    const mine = [{ ...first.choice, index: 1 }];
    const end = playToEnd(level, mine);
    const { record, tape } = parseRunRecord(exportRecord(level, end), "export");
    expect([record.scenario, record.strategy, record.traceHash, tape.encode()]).toEqual([level.scenarioFile, "play", end.traceHash, ChoiceLog.from(end.tape).encode()]);
    expect(tape.get(0).index).toBe(1);
    expect(strategyLabel(mine)).toBe("play");
  });
});

describe("a level at the learner's timing", () => {
  const level = resolveLevel("r01");

  it("offers the hunt form's swarm ranges as knobs", () => {
    expect(level.knobs.map((k) => [k.id, k.minMs, k.maxMs, k.writtenMs])).toEqual([
      ["latency.PullImage", 1000, 11000, 8000],
      ["step@10000", 10000, 11000, 10000],
      ["seed", 0, 2 ** 32 - 1, 1],
    ]);
  });

  it("exports a record that carries the scenario text it ran, which `parseRunRecord` checks against its sha256", () => {
    const { level: timed, text } = timedLevel(level, { "latency.PullImage": 11000 });
    expect(text).toContain("PullImage: 11000ms");
    const end = playToEnd(timed, []);
    const { record } = parseRunRecord(exportRecord(timed, end, text), "export");
    expect([record.scenario, record.scenarioText, record.traceHash]).toEqual([level.scenarioFile, text, end.traceHash]);
    expect(record.scenarioSha256).not.toBe(level.scenarioSha256);
    const edited = exportRecord(timed, end, text).replace("11000ms", "10999ms");
    expect(() => parseRunRecord(edited, "edited.json")).toThrow(/edited\.json: scenarioText: its sha256 is not the record's scenarioSha256/);
  });

  it("at the written timing exports a record that names the file and carries no text", () => {
    const { level: same, text } = timedLevel(level, { "latency.PullImage": 8000 });
    expect(text).toBeNull();
    const { record } = parseRunRecord(exportRecord(same, playToEnd(same, []), text), "export");
    expect([record.scenarioSha256, record.scenarioText]).toEqual([level.scenarioSha256, undefined]);
  });

  it("'fifo to t=' answers fifo's way up to the first choice at or after that time", () => {
    const prefix = fifoUntil(level, [], 10_000);
    expect(prefix.every((c) => c.index === 0)).toBe(true);
    const at = playTo(level, prefix);
    if (at.kind !== "pause") throw new Error("expected a pause");
    expect(at.nowMs).toBeGreaterThanOrEqual(10_000);
    const before = playTo(level, prefix.slice(0, -1));
    expect(before.kind === "pause" && before.nowMs).toBeLessThan(10_000);
  });
});

describe("a scenario file as a level", () => {
  it("wins on any invariant's violation: the deterministic R05 breaks lost-wakeup under fifo", () => {
    const level = resolveLevel("scenarios/races/r05-pw-kill-pinning.yaml");
    expect([level.invariant, level.scenarioFile]).toEqual([null, "scenarios/races/r05-pw-kill-pinning.yaml"]);
    // A level runs without kubelet flags: its export names none.
    expect(parseRunRecord(exportRecord(level, playToEnd(level, [])), "export").record.kubelet).toBeUndefined();
    expect(playToEnd(level, []).broken?.invariant).toBe("lost-wakeup");
  });
});
