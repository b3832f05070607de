// `kubelet-sim run --record` then `replay`: the identical trace hash; a tampered tape or a changed
// scenario is reported clearly, never replayed silently.
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { executeReplay } from "../../src/cli/replay.ts";
import { runRequest } from "../../src/cli/commands/run.ts";
import { RUN_RECORD_FORMAT, readRunRecord } from "../../src/cli/run_record.ts";
import { executeRun, type OutputRequest, type RunRequest } from "../../src/cli/session.ts";
import { ChoiceLog } from "../../src/sim/index.ts";
import { cli, FIXTURES, inProcess, noStackTrace, tempDir } from "./helpers.ts";
import { resolveLevel } from "../../src/cli/play_level.ts";
import { timedLevel } from "../../src/play/compile.ts";
import { exportRecord } from "../../src/play/export.ts";
import { playToEnd } from "../../src/play/session.ts";

const PASS = `${FIXTURES}/pass.yaml`;
const PODS: OutputRequest = { formats: ["pods"], render: {}, outFile: null, explain: false };

function request(file: string, args: Record<string, unknown> = {}): RunRequest {
  return runRequest({ file, verbosity: "normal", explain: false, format: ["pods"], ...args } as Parameters<typeof runRequest>[0]);
}

/** Runs FILE with --record into a fresh folder; returns the record's path and the run's output. */
function record(file: string, args: Record<string, unknown> = {}) {
  const path = join(tempDir(), "run.json");
  const ran = inProcess((io) => executeRun(request(file, { ...args, record: path }), io).exitCode);
  return { path, ran };
}

const replay = (recordFile: string, scenario: string | null = null) =>
  inProcess((io) => executeReplay({ recordFile, scenario, output: PODS }, io));

describe("kubelet-sim replay", () => {
  it("reproduces a recorded run: the same outputs and the identical trace hash", () => {
    const { path, ran } = record("scenarios/default.yaml", { seed: 11, strategy: "pct:3:1000" });
    expect(ran.code).toBe(0);
    const rec = readRunRecord(path).record;
    expect(rec).toMatchObject({ format: RUN_RECORD_FORMAT, scenario: "scenarios/default.yaml", seed: 11, strategy: "pct:3:1000", untilMs: 90_000, ok: true });
    expect(rec.replayKey).toBe("kubelet-sim run scenarios/default.yaml --seed 11 --strategy pct:3:1000");
    expect(ChoiceLog.decode(rec.choices).length).toBeGreaterThan(10);
    const again = replay(path);
    expect(again.code).toBe(0);
    const lines = again.out.split("\n");
    expect(lines[0]).toBe(`# replay: kubelet-sim replay ${path}`);
    expect(lines[1]).toBe(`# replaying ${ChoiceLog.decode(rec.choices).length} recorded choices of: ${rec.replayKey}`);
    expect(again.out).toContain(`# reproduced: the identical trace, ${rec.traceHash}\n`);
    // Everything between the header lines and the verdict is the same as the original run printed.
    expect(again.out.split("\n").slice(2, -2)).toEqual(ran.out.split("\n").slice(1, -1));
  });

  it("works through the binary, and keeps a random run's overrides (seed, strategy, until)", () => {
    const dir = tempDir();
    const path = join(dir, "run.json");
    const first = cli(["run", PASS, "--seed", "9", "--strategy", "random", "--until", "15s", "--format", "events", "--record", path]);
    expect(first.code).toBe(0);
    expect(first.out.split("\n")[0]).toBe(`# replay: kubelet-sim run ${PASS} --seed 9 --strategy random --until 15s`);
    const again = cli(["replay", path, "--format", "events"]);
    expect(again.code).toBe(0);
    expect(again.out).toContain(`# reproduced: the identical trace, ${readRunRecord(path).record.traceHash}`);
  });

  it("exits 1 when the reproduced run fails an expectation, as the original did", () => {
    const { path, ran } = record(`${FIXTURES}/fail.yaml`);
    expect(ran.code).toBe(1);
    expect(replay(path).code).toBe(1);
  });

  it("reproduces a run that hit a kernel bound, with exit 3", () => {
    const path = join(tempDir(), "run.json");
    const ran = inProcess((io) => executeRun({ ...request(PASS, { record: path }), bounds: { maxEvents: 40 } }, io).exitCode);
    expect(ran.code).toBe(3);
    const again = inProcess((io) => executeReplay({ recordFile: path, scenario: null, output: PODS, bounds: { maxEvents: 40 } }, io));
    expect(again.code).toBe(3);
    expect(again.out).toContain("# reproduced: the identical trace");
  });

  it("reports a divergence when the recorded choices were tampered with (exit 3)", () => {
    const { path } = record("scenarios/default.yaml", { seed: 4, strategy: "random" });
    const rec = JSON.parse(readFileSync(path, "utf8"));
    const tape = ChoiceLog.decode(rec.choices).toArray();
    // Claim the first choice had one more option than the run offers.
    tape[0] = { ...tape[0]!, n: tape[0]!.n + 1 };
    writeFileSync(path, JSON.stringify({ ...rec, choices: ChoiceLog.from(tape).encode() }));
    const r = replay(path);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/the run ended with verdict diverged at \S+, the recorded choices no longer fit this run:\n {2}replay diverged at choice #0: /);
    expect(r.err).toContain(`kubelet-sim: replay of ${path} diverged: its choices were edited`);
    noStackTrace(r.err);
  });

  it("reports a divergence when the tape is cut short", () => {
    const { path } = record("scenarios/default.yaml", { seed: 4, strategy: "random" });
    const rec = JSON.parse(readFileSync(path, "utf8"));
    const tape = ChoiceLog.decode(rec.choices).toArray();
    writeFileSync(path, JSON.stringify({ ...rec, choices: ChoiceLog.from(tape.slice(0, tape.length - 5)).encode() }));
    const r = replay(path);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/replay diverged at choice #\d+: the recording has \d+ choices, but the run asks for another/);
  });

  it("refuses a record whose verdict, ok or choice count was edited, naming the field (exit 2)", () => {
    const { path } = record("scenarios/default.yaml", { seed: 4, strategy: "random" });
    const rec = JSON.parse(readFileSync(path, "utf8"));
    const edited = (fields: Record<string, unknown>) => {
      writeFileSync(path, JSON.stringify({ ...rec, ...fields }));
      const r = replay(path);
      noStackTrace(r.err);
      return r;
    };
    const failed = edited({ ok: false });
    expect(failed.code).toBe(2);
    expect(failed.err).toContain(`kubelet-sim: ${path}: ok: the record says false and the rerun says true; the record was edited\n`);
    expect(failed.out).not.toContain("# reproduced");
    const verdict = edited({ verdict: "completed" });
    expect(verdict.code).toBe(2);
    expect(verdict.err).toContain(`${path}: verdict: the record says "completed" and the rerun ended "until"; the record was edited`);
    const n = ChoiceLog.decode(rec.choices).length;
    const appended = edited({ choices: `${rec.choices} p0/2 p1/2` });
    expect(appended.code).toBe(2);
    expect(appended.out).toContain(`# replaying ${n + 2} recorded choices`);
    expect(appended.err).toContain(`${path}: choices: the record holds ${n + 2} choices and the rerun made ${n}; the record was edited (choices added after the run's last)`);
    // The record as written still replays.
    expect(edited({}).code).toBe(0);
  });

  it("refuses a tape that asks for more choices than a record holds, in one line, before building it (exit 2)", () => {
    const { path } = record(PASS);
    const rec = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(path, JSON.stringify({ ...rec, choices: "p0/2*99999999999999 p0/2" }));
    const r = replay(path);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^kubelet-sim: \S*run\.json: choices: "p0\/2\*99999999999999" alone asks for more than \d+ choices, the most a run record holds\n$/);
    expect(r.out).toBe("");
  });

  it("refuses a record of another format version in one line naming it (exit 2)", () => {
    const { path } = record(PASS);
    const rec = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(path, JSON.stringify({ ...rec, format: "kubelet-sim/run-record/v0" }));
    const r = replay(path);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^kubelet-sim: \S*run\.json: format "kubelet-sim\/run-record\/v0": this kubelet-sim \(\S+\) reads "kubelet-sim\/run-record\/v1" records only; record the run again with it\n$/);
  });

  it("refuses a record whose scenario names a folder, naming the record and its field (a fuzz counterexample: the folder alone was named)", () => {
    const { path } = record(PASS);
    const rec = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(path, JSON.stringify({ ...rec, scenario: "scenarios" }));
    const r = replay(path);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`kubelet-sim: ${path}: scenario: cannot read scenarios: expected a scenario file, found a directory\n`);
  });

  it("reports another trace hash as a divergence even when every choice fits", () => {
    const { path } = record(PASS);
    const rec = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(path, JSON.stringify({ ...rec, traceHash: "0".repeat(16) }));
    const r = replay(path);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/diverged: trace [0-9a-f]{16}, the record says 0000000000000000; /);
  });

  it("checks a record from before the trace digest by the sha256 of the JSON lines it carries", () => {
    const { path } = record(PASS);
    const rec = JSON.parse(readFileSync(path, "utf8"));
    const jsonl = join(tempDir(), "trace.jsonl");
    inProcess((io) => executeRun(request(PASS, { format: ["jsonl"], out: jsonl }), io).exitCode);
    const lines = readFileSync(jsonl, "utf8").trimEnd().split("\n");
    const sha = createHash("sha256").update(lines.slice(0, -1).map((l) => `${l}\n`).join("")).digest("hex");
    writeFileSync(path, JSON.stringify({ ...rec, traceHash: sha }));
    const r = replay(path);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`# reproduced: the identical trace, sha256 of the JSON lines ${sha}\n`);
    writeFileSync(path, JSON.stringify({ ...rec, traceHash: "0".repeat(64) }));
    const bad = replay(path);
    expect(bad.code).toBe(3);
    expect(bad.err).toMatch(/diverged: sha256 of the JSON lines [0-9a-f]{64}, the record says 0{64}; /);
  });

  it("refuses to replay against a scenario whose text changed (exit 2)", () => {
    const dir = tempDir();
    const scenario = join(dir, "s.yaml");
    copyFileSync(PASS, scenario);
    const { path } = record(scenario);
    writeFileSync(scenario, readFileSync(scenario, "utf8").replace("pullTime: 1s", "pullTime: 2s"));
    const r = replay(path);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^kubelet-sim: .*run\.json: the scenario changed since this run was recorded: .*s\.yaml has sha256 [0-9a-f]{12}, the record pins [0-9a-f]{12}/);
    expect(r.out).toBe("");
  });

  it("finds a moved scenario with --scenario, and checks its text too", () => {
    const { path } = record(PASS);
    const moved = join(tempDir(), "moved.yaml");
    copyFileSync(PASS, moved);
    expect(replay(path, moved).code).toBe(0);
    expect(replay(path, join(tempDir(), "missing.yaml")).code).toBe(2);
  });

  it("says what is wrong with a file that is not a run record (exit 2)", () => {
    const dir = tempDir();
    const notJson = join(dir, "a.json");
    writeFileSync(notJson, "choices: p0/2\n");
    expect(replay(notJson).err).toMatch(/^kubelet-sim: .*a\.json: not a run record: not JSON/);
    const wrong = join(dir, "b.json");
    writeFileSync(wrong, JSON.stringify({ format: "something-else", seed: -1 }));
    const r = replay(wrong);
    expect(r.code).toBe(2);
    expect(r.err).toContain('b.json: format: expected format "kubelet-sim/run-record/v1"');
    expect(r.err).toContain("b.json: seed: ");
    const { path } = record(PASS);
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), choices: "p5/2" }));
    expect(replay(path).err).toMatch(/run\.json: choices: bad choice token "p5\/2"/);
    expect(replay(join(dir, "absent.json")).err).toMatch(/cannot read .*absent\.json: no such file/);
  });
});

describe("kubelet-sim replay of a run with --kubelet-version and --variant", () => {
  it("records the overrides and replays under them", () => {
    const { path, ran } = record("scenarios/races/r05-pw-kill-pinning.yaml", { kubeletVersion: "1.22", variant: ["proberReadsLatestPod=false"] });
    expect(ran.code).toBe(0);
    const rec = readRunRecord(path).record;
    expect(rec.kubelet).toEqual({ version: "1.22", variants: { proberReadsLatestPod: false } });
    expect(rec.replayKey).toMatch(/ --kubelet-version 1\.22 --variant proberReadsLatestPod=false$/);
    const again = replay(path);
    expect(again.code).toBe(0);
    expect(again.out).toContain("# reproduced: the identical trace");
  });
});

describe("kubelet-sim replay of a record that carries its scenario text (a play-mode export at the learner's timing)", () => {
  const exported = () => {
    const level = resolveLevel("r01");
    const { level: timed, text } = timedLevel(level, { "latency.PullImage": 10_100 });
    const path = join(tempDir(), "r01-play.json");
    writeFileSync(path, exportRecord(timed, playToEnd(timed, []), text));
    return { path, text: text! };
  };

  it("reproduces the run from the text alone: the level's file is nowhere it looks", () => {
    const { path } = exported();
    const again = replay(path);
    expect(again.err).toBe("");
    expect(again.out).toContain(`# reproduced: the identical trace, ${readRunRecord(path).record.traceHash}`);
    expect(again.code).toBe(1);
  });

  it("refuses a record whose text was edited after the export, naming the field", () => {
    const { path, text } = exported();
    const record = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...record, scenarioText: text.replace("10100ms", "10200ms") }));
    const again = replay(path);
    expect(again.code).toBe(2);
    expect(again.err).toContain(`${path}: scenarioText: its sha256 is not the record's scenarioSha256`);
    noStackTrace(again.err);
  });
});
