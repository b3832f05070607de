// `kubelet-sim diff`: one scenario under two kubelets, or two run records replayed; the first
// difference in text, both runs in one HTML page; bad requests refused clearly.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { executeDiff, type DiffRequest } from "../../src/cli/diff.ts";
import { executeRun } from "../../src/cli/session.ts";
import { runRequest } from "../../src/cli/commands/run.ts";
import { cli, FIXTURES, inProcess, noStackTrace, tempDir } from "./helpers.ts";
import { resolveLevel } from "../../src/cli/play_level.ts";
import { timedLevel } from "../../src/play/compile.ts";
import { exportRecord } from "../../src/play/export.ts";
import { playToEnd } from "../../src/play/session.ts";

const R05 = "scenarios/races/r05-pw-kill-pinning.yaml";
const PASS = `${FIXTURES}/pass.yaml`;

const diff = (req: Partial<DiffRequest> & Pick<DiffRequest, "left" | "right">) => inProcess((io) => executeDiff({ html: false, outFile: null, ...req }, io));

describe("kubelet-sim diff", () => {
  it("runs a scenario under two kubelets and prints where the traces part (exit 1: they differ)", () => {
    const ran = diff({ left: { file: R05, kubelet: { version: "1.21" } }, right: { file: R05, kubelet: { version: "1.22" } } });
    expect(ran.code).toBe(1);
    expect(ran.out).toMatch(/^# A: kubelet 1\.21: kubelet-sim run .* --kubelet-version 1\.21\n/);
    expect(ran.out).toMatch(/\n# B: kubelet 1\.22: /);
    expect(ran.out).toMatch(/first difference at \d+\.\d{3}s, after \d+ identical steps:\n {2}A kubelet 1\.21 +\d/);
    expect(ran.out.match(/first difference at/g)).toHaveLength(1);
  });

  it("takes a bundled scenario by name, as run does (r05: the catalog's buggy 1.20 against the fixed 1.22)", () => {
    const ran = cli(["diff", "r05", "--kubelet-version", "1.20", "--vs", "1.22"]);
    expect(ran.code, ran.err).toBe(1);
    // The replay command names it as the user did, as run's replay key does.
    expect(ran.out).toMatch(/^# A: kubelet 1\.20: kubelet-sim run r05 --kubelet-version 1\.20\n/);
    expect(ran.out).toMatch(/first difference at/);
  });

  it("writes both runs into one HTML page with --format html --out", () => {
    const out = join(tempDir(), "diff.html");
    const ran = diff({ left: { file: R05, kubelet: { version: "1.21" } }, right: { file: R05, kubelet: { version: "1.22" } }, html: true, outFile: out });
    expect(ran.code).toBe(1);
    const page = readFileSync(out, "utf8");
    expect(page).toContain("<title>kubelet-sim: kubelet 1.21 vs kubelet 1.22:");
    expect(page).toMatch(/"isDiff":true/);
  });

  it("replays two run records, each with its own choices", () => {
    const dir = tempDir();
    const records = ["random", "fifo"].map((strategy, i) => {
      const path = join(dir, `run${i}.json`);
      inProcess((io) => executeRun(runRequest({ file: PASS, verbosity: "normal", explain: false, format: ["pods"], strategy, seed: 5, record: path } as Parameters<typeof runRequest>[0]), io).exitCode);
      return path;
    });
    const ran = diff({ left: { file: records[0]! }, right: { file: records[1]! } });
    expect(ran.err).toBe("");
    expect(ran.out).toContain(`# A: run0.json (kubelet`);
    expect(ran.out).toContain(`kubelet-sim replay ${records[1]}`);
    expect([0, 1]).toContain(ran.code);
  });

  it("compares two play-mode exports: one at the learner's timing (the record carries its text), one at the level's file", () => {
    const dir = tempDir();
    const level = resolveLevel("r01");
    const exported = (values: Record<string, number>, name: string) => {
      const { level: timed, text } = timedLevel(level, values);
      const path = join(dir, name);
      writeFileSync(path, exportRecord(timed, playToEnd(timed, []), text));
      return path;
    };
    const won = exported({ "latency.PullImage": 10_100 }, "won.json");
    const written = exported({}, "written.json");
    const ran = diff({ left: { file: won }, right: { file: written } });
    expect(ran.err).toBe("");
    expect(ran.code).toBe(1);
    expect(ran.out).toMatch(/^# A: won\.json \(kubelet 1\.30\): kubelet-sim replay /);
    expect(ran.out).toMatch(/first difference at/);
  });

  it("refuses a record whose tape asks for unbounded choices, or that was edited, in one line", () => {
    const dir = tempDir();
    const a = join(dir, "a.json");
    const b = join(dir, "b.json");
    expect(inProcess((io) => executeRun(runRequest({ file: PASS, verbosity: "normal", explain: false, format: ["events"], record: a } as Parameters<typeof runRequest>[0]), io).exitCode).code).toBe(0);
    const rec = JSON.parse(readFileSync(a, "utf8"));
    writeFileSync(b, JSON.stringify({ ...rec, choices: `${rec.choices} p0/2*99999999999999` }));
    const huge = diff({ left: { file: a }, right: { file: b } });
    expect(huge.code).toBe(2);
    expect(huge.err).toMatch(/^kubelet-sim: \S*b\.json: choices: "p0\/2\*99999999999999" alone asks for more than \d+ choices, the most a run record holds\n$/);
    writeFileSync(b, JSON.stringify({ ...rec, verdict: "deadlock" }));
    const edited = diff({ left: { file: a }, right: { file: b } });
    expect(edited.code).toBe(2);
    expect(edited.err).toContain('b.json: verdict: the record says "deadlock" and the rerun ended "until"; the record was edited');
    writeFileSync(b, JSON.stringify({ ...rec, scenario: "scenarios" }));
    const folder = diff({ left: { file: a }, right: { file: b } });
    expect(folder.code).toBe(2);
    expect(folder.err).toBe(`kubelet-sim: ${b}: scenario: cannot read scenarios: expected a scenario file, found a directory\n`);
  });

  it("refuses to compare a run with itself", () => {
    const ran = diff({ left: { file: PASS }, right: { file: PASS } });
    expect(ran.code).toBe(2);
    expect(ran.err).toMatch(/same run/);
  });

  it("from the command line: flags, exit codes, no stack trace on a bad file", () => {
    const ran = cli(["diff", "no-such.yaml", "--vs", "1.22"]);
    expect(ran.code).toBe(2);
    expect(ran.err).toMatch(/no-such\.yaml: no such file/);
    noStackTrace(ran.err);
    expect(cli(["diff", PASS, "--out", "x.html"]).err).toMatch(/--format html/);
    expect(existsSync(join(tempDir(), "x.html"))).toBe(false);
  });
});
