// replayRunRecord through the library: a record reproduces only when the rerun gives its trace,
// its verdict, its `ok` and its number of choices; an edited record is named by its field.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../src/scenario/index.ts";
import { simulate, type SimulationResult } from "../../src/simulate.ts";
import { makeRunRecord, recordMismatch, replayRunRecord } from "../../src/record/replay.ts";
import { RunRecordError, type RunRecord } from "../../src/record/run_record.ts";
import { MAX_TAPE_CHOICES } from "../../src/record/tape.ts";

const text = readFileSync("test/fixtures/cli/pass.yaml", "utf8");
const { scenario } = loadScenarioText(text, "pass.yaml");

function recorded(): { record: RunRecord; result: SimulationResult } {
  const result = simulate(scenario, { seed: 3, strategy: { name: "random" } });
  const record = makeRunRecord({ scenarioText: text, scenario: "pass.yaml", seed: 3, strategy: "random", untilMs: scenario.untilMs, replayKey: "k" }, result);
  return { record, result };
}

describe("replayRunRecord", () => {
  it("reproduces an unedited record", () => {
    const { record } = recorded();
    expect(replayRunRecord(record, text).divergence).toBeNull();
  });

  it("names the field of an edit the trace cannot show: verdict, ok, choices added", () => {
    const { record, result } = recorded();
    const n = result.run.choices.length;
    expect(replayRunRecord({ ...record, ok: !record.ok }, text).divergence).toBe(`ok: the record says ${!record.ok} and the rerun says ${record.ok}; the record was edited`);
    expect(replayRunRecord({ ...record, verdict: "deadlock" }, text).divergence).toBe(`verdict: the record says "deadlock" and the rerun ended "${record.verdict}"; the record was edited`);
    expect(replayRunRecord({ ...record, choices: `${record.choices} v0/2` }, text).divergence).toBe(
      `choices: the record holds ${n + 1} choices and the rerun made ${n}; the record was edited (choices added after the run's last)`,
    );
    expect(recordMismatch(record, result)).toBeNull();
  });

  it("refuses an unbounded tape before running, as a RunRecordError naming the field", () => {
    const { record } = recorded();
    expect(() => replayRunRecord({ ...record, choices: "p0/2*99999999999999" }, text)).toThrow(/^the run record: choices: .* alone asks for more than/);
  });

  it("will not record a run whose tape is longer than a record holds", () => {
    const { result } = recorded();
    // A tape of that many choices is 75 MB; a stand-in that only says its length is enough here.
    const choices = { length: MAX_TAPE_CHOICES + 1, encode: () => "" };
    const long = { ...result, run: { ...result.run, choices } } as unknown as SimulationResult;
    expect(() => makeRunRecord({ scenarioText: text, scenario: "pass.yaml", seed: 3, strategy: "random", untilMs: 1, replayKey: "k" }, long)).toThrow(RunRecordError);
  });
});
