// The run record's tape read back with bounds: every token checked and the choices counted before
// anything is built, so a few characters of run-length text cannot ask for unbounded memory.
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeTape, MAX_TAPE_CHOICES, tapeLength, TapeError } from "../../src/record/tape.ts";
import { parseRunRecord, RunRecordError } from "../../src/record/run_record.ts";
import { ChoiceLog, type ChoiceKind } from "../../src/sim/index.ts";

afterEach(() => vi.restoreAllMocks());

const choice = fc.record({ kind: fc.constantFrom<ChoiceKind>("proc", "select", "value"), n: fc.integer({ min: 2, max: 6 }) }).chain(({ kind, n }) =>
  fc.record({ kind: fc.constant(kind), n: fc.constant(n), index: fc.integer({ min: 0, max: n - 1 }) }),
);

describe("decodeTape", () => {
  it("reads back what ChoiceLog.encode writes, runs of equal choices included", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(choice, fc.integer({ min: 1, max: 5 })), { maxLength: 40 }), (runs) => {
        const log = ChoiceLog.from(runs.flatMap(([c, times]) => Array.from({ length: times }, () => c)));
        const text = log.encode();
        expect(tapeLength(text)).toBe(log.length);
        expect(decodeTape(text).toArray()).toEqual(log.toArray());
      }),
      { seed: 27, numRuns: 200 },
    );
  });

  it("refuses a repeat count beyond the bound before building any of it", () => {
    const push = vi.spyOn(ChoiceLog.prototype, "push");
    expect(() => decodeTape("p0/2 p1/2 p0/2*99999999999999 s0/3")).toThrow(TapeError);
    expect(() => decodeTape("p0/2*99999999999999")).toThrow(`"p0/2*99999999999999" alone asks for more than ${MAX_TAPE_CHOICES} choices, the most a run record holds`);
    expect(push).not.toHaveBeenCalled();
  });

  it("counts to the bound exactly: MAX_TAPE_CHOICES is read, one more is refused", () => {
    expect(tapeLength(`p0/2*${MAX_TAPE_CHOICES}`)).toBe(MAX_TAPE_CHOICES);
    expect(tapeLength(`p0/2*${MAX_TAPE_CHOICES - 1} v1/3`)).toBe(MAX_TAPE_CHOICES);
    expect(() => tapeLength(`p0/2*${MAX_TAPE_CHOICES - 1} v1/3 v1/3`)).toThrow("the tape holds more than");
    // Many tokens that each ask for little still add up.
    expect(() => tapeLength(`p0/2*${MAX_TAPE_CHOICES / 2} `.repeat(3))).toThrow("the tape holds more than");
  });

  it.each([
    ["p2/2", "the option taken must be below the options offered"],
    ["s0/1", "the option taken must be below the options offered"],
    [`v0/${2 ** 32}`, "at most 4294967295"],
    ["p0/2*0", "a repeat count is at least 1"],
    ["p0/2*", 'expected e.g. "p0/2" or "s1/3*4"'],
    ["x0/2", 'expected e.g. "p0/2" or "s1/3*4"'],
    ["p-1/2", 'expected e.g. "p0/2" or "s1/3*4"'],
    ["p0/2*1e9", 'expected e.g. "p0/2" or "s1/3*4"'],
    [`p${"9".repeat(500)}/2`, "the option taken must be below"],
  ])("refuses the token %s, in one line", (tok, why) => {
    let message = "";
    try {
      tapeLength(`p0/2 ${tok}`);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain(why);
    expect(message).not.toContain("\n");
    expect(message.length).toBeLessThan(200);
  });

  it("takes an empty tape (a run without choices) and any whitespace between tokens", () => {
    expect(decodeTape("").length).toBe(0);
    expect(decodeTape(" \n\t ").length).toBe(0);
    expect(decodeTape(" p0/2\n\ts1/3*2 ").toArray()).toEqual([
      { kind: "proc", n: 2, index: 0 },
      { kind: "select", n: 3, index: 1 },
      { kind: "select", n: 3, index: 1 },
    ]);
  });
});

describe("parseRunRecord's tape", () => {
  const record = (choices: string) =>
    JSON.stringify({
      format: "kubelet-sim/run-record/v1", tool: "0.1.0", scenario: "x.yaml", scenarioSha256: "a".repeat(64), seed: 1, strategy: "fifo",
      untilMs: 1000, choices, verdict: "until", ok: true, traceHash: "b".repeat(16), replayKey: "kubelet-sim run x.yaml",
    });

  it("refuses an unbounded repeat count with one line naming the file and the field", () => {
    const push = vi.spyOn(ChoiceLog.prototype, "push");
    expect(() => parseRunRecord(record("p0/2 p0/2*99999999999999"), "run.json")).toThrow(RunRecordError);
    expect(() => parseRunRecord(record("p0/2 p0/2*99999999999999"), "run.json")).toThrow(/^run\.json: choices: "p0\/2\*99999999999999" alone asks for more than \d+ choices, the most a run record holds$/);
    expect(push).not.toHaveBeenCalled();
  });

  it("names a format version it does not read in one line, and lists the fields of what is no record", () => {
    const older = JSON.stringify({ ...JSON.parse(record("p0/2")), format: "kubelet-sim/run-record/v0", seed: -1 });
    expect(() => parseRunRecord(older, "old.json")).toThrow(/^old\.json: format "kubelet-sim\/run-record\/v0": this kubelet-sim \(\S+\) reads "kubelet-sim\/run-record\/v1" records only; record the run again with it$/);
    const other = JSON.stringify({ format: "something", seed: -1 });
    expect(() => parseRunRecord(other, "x.json")).toThrow(/x\.json: format: expected format "kubelet-sim\/run-record\/v1"\n(.|\n)*x\.json: seed: /);
  });

  it("refuses an untilMs past the longest run a scenario may ask for (a replay runs to it)", () => {
    const day = 24 * 60 * 60 * 1000;
    expect(parseRunRecord(JSON.stringify({ ...JSON.parse(record("p0/2")), untilMs: day }), "u.json").record.untilMs).toBe(day);
    const bad = JSON.stringify({ ...JSON.parse(record("p0/2")), untilMs: 1e15 });
    expect(() => parseRunRecord(bad, "u.json")).toThrow(`u.json: untilMs: expected at most ${day} (24h, the longest run a scenario may ask for)`);
  });

  it("refuses a verdict no run ends with", () => {
    const bad = JSON.stringify({ ...JSON.parse(record("p0/2")), verdict: "PASS" });
    expect(() => parseRunRecord(bad, "v.json")).toThrow(/v\.json: verdict: expected a verdict: one of completed, quiescent, until/);
  });
});
