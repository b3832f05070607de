// `kubelet-sim run`: the replay key first, then the outputs, then the expectations; exit codes
// 0/1/2/3; the same seed gives the same bytes in every format; --out appears whole or not at all.
import { digestRecords } from "../../src/sim/index.ts";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AtomicFile } from "../../src/cli/atomic.ts";
import { paletteFor } from "../../src/cli/colour.ts";
import { runRequest } from "../../src/cli/commands/run.ts";
import { main } from "../../src/cli/main.ts";
import { executeRun, type RunRequest } from "../../src/cli/session.ts";
import { FORMATS } from "../../src/report/index.ts";
import { cli, FIXTURES, inProcess, noStackTrace, tempDir } from "./helpers.ts";

const PASS = `${FIXTURES}/pass.yaml`;
const FAIL = `${FIXTURES}/fail.yaml`;

/** A run request as the flags would make it; `args` are the parsed flags (camelCase). */
function request(file: string, args: Record<string, unknown> = {}): RunRequest {
  return runRequest({ file, verbosity: "normal", explain: false, ...args } as Parameters<typeof runRequest>[0]);
}

describe("kubelet-sim run: exit codes", () => {
  it("exits 0 when every expectation holds: replay key first, timeline, Events, PASS lines, verdict", () => {
    const r = cli(["run", PASS]);
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[0]).toBe(`# replay: kubelet-sim run ${PASS} --seed 1 --strategy fifo`);
    expect(lines[1]).toMatch(/^scenario cli-pass {2}seed 1 {2}strategy fifo/);
    expect(r.out).toContain("\nEvents:\n");
    expect(r.out).toContain("expectations (2 of 2 held):\n  PASS  ");
    expect(lines.at(-2)).toMatch(/^verdict: PASS {2}every expectation held; the run ended at 20\.000s \(until\)/);
    expect(r.err).toBe("");
    expect(r.out).not.toContain("\u001b["); // not a terminal: no colour
  });

  it("exits 1 when an expectation fails, and says which", () => {
    const r = cli(["run", FAIL, "--format", "pods"]);
    expect(r.code).toBe(1);
    // Durations as the scenario writes them, and what the pod was at the deadline.
    expect(r.out).toContain("  FAIL       -  eventually default/web: phase=Succeeded by 10s\n                seen at 10s: phase=Running\n");
    expect(r.out).toMatch(/\nverdict: FAIL {2}1 of 2 expectations failed; /);
  });

  it("prints the result as one JSON object with --json: each failed expectation with what was seen at its deadline", () => {
    const r = cli(["run", FAIL, "--json"]);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split("\n");
    expect(lines).toHaveLength(1);
    const json = JSON.parse(lines[0]!) as { ok: boolean; expectations: Array<Record<string, unknown>> };
    expect(json.ok).toBe(false);
    expect(json.expectations[1]).toEqual({
      index: 1,
      expectation: "eventually default/web: phase=Succeeded by 10s",
      ok: false,
      atMs: null,
      observed: { at: "10s", atMs: 10_000, text: "phase=Running", value: { exists: true, phase: "Running" } },
    });
    expect(json.expectations[0]).toMatchObject({ ok: true, observed: null });
    expect(r.err).toContain("# replay: kubelet-sim run ");
  });

  it("exits 2 on a malformed scenario: every located error, no stack trace, nothing run", () => {
    const r = cli(["run", `${FIXTURES}/malformed.yaml`]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err.split("\n")).toEqual([
      `${FIXTURES}/malformed.yaml:3:8: until: expected a duration such as "500ms" or "1m30s", found the number 20; add a unit, e.g. "20s" or "20ms"`,
      `${FIXTURES}/malformed.yaml:10:23: timeline[0].create: no pod "wbe" in this scenario's pods; did you mean "web"?`,
      `kubelet-sim: ${FIXTURES}/malformed.yaml has 2 errors; nothing was run (see docs/scenarios.md)`,
      "",
    ]);
    noStackTrace(r.err);
  });

  it("exits 2 on an unknown invariant id, naming the known ones", () => {
    const r = cli(["run", `${FIXTURES}/unknown-invariant.yaml`]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^kubelet-sim: test\/fixtures\/cli\/unknown-invariant.yaml:12:12: expect\[0\]\.never: unknown invariant "no-such-invariant"; known: start-after-termination-requested, /);
    noStackTrace(r.err);
  });

  it("exits 2 on bad flags, each with a message that names the flag", () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ seed: -1 }, /^kubelet-sim: --seed -1: expected a whole number from 0 to 4294967295/],
      [{ seed: 1.5 }, /^kubelet-sim: --seed 1.5: /],
      [{ strategy: "dfs" }, /^kubelet-sim: --strategy: unknown strategy "dfs"/],
      [{ until: "10" }, /^kubelet-sim: --until: duration "10" has no unit/],
      [{ pod: "wbe" }, /^kubelet-sim: --pod wbe: no such pod in this scenario \(pods: default\/web\)/],
      [{ maxMessages: 0 }, /^kubelet-sim: --max-messages 0: /],
    ];
    for (const [args, message] of bad) {
      const r = inProcess((io) => executeRun(request(PASS, args), io).exitCode);
      expect(r.code, JSON.stringify(args)).toBe(2);
      expect(r.err).toMatch(message);
    }
    const viaCli = cli(["run", PASS, "--format", "text,bogus"]);
    expect(viaCli.code).toBe(2);
    expect(viaCli.err).toContain("--format bogus: expected one of text, events, pods, jsonl, mermaid");
    noStackTrace(viaCli.err);
    expect(cli(["run"]).code).toBe(2);
  });

  it("exits 3 when the run hits a kernel bound: the diagnosis and the replay key on stderr", () => {
    // The CLI has no flag for the kernel's bounds, so they are injected here, as a test of a bug would.
    const r = inProcess((io) => executeRun({ ...request(PASS), bounds: { maxEvents: 50 } }, io).exitCode);
    expect(r.code).toBe(3);
    expect(r.out.split("\n")[0]).toBe(`# replay: kubelet-sim run ${PASS} --seed 1 --strategy fifo`);
    expect(r.out).toMatch(/\nverdict: ERROR {2}the run ended at \S+ \(max-events\) after 51 events; .*the diagnosis is on stderr\n$/);
    expect(r.err).toMatch(/^kubelet-sim: the run ended with verdict max-events at \S+, a bug in kubelet-sim or its models:\n {2}stopped after 50 events/);
    expect(r.err.trimEnd().split("\n").at(-1)).toBe(`replay: kubelet-sim run ${PASS} --seed 1 --strategy fifo`);
  });
});

describe("kubelet-sim run: the replay key", () => {
  it("names every override, so pasting it gives the same run", () => {
    const r = inProcess((io) => executeRun(request(PASS, { seed: 7, strategy: "pct:3", until: "15s", format: ["pods"] }), io).exitCode);
    expect(r.out.split("\n")[0]).toBe(`# replay: kubelet-sim run ${PASS} --seed 7 --strategy pct:3:1000 --until 15s`);
  });

  it("comes first even with --explain, which then says how to read each output", () => {
    const r = inProcess((io) => executeRun(request(PASS, { explain: true, verbosity: "brief" }), io).exitCode);
    const lines = r.out.split("\n");
    expect(lines[0]).toMatch(/^# replay: /);
    expect(r.out).toContain('# You are looking at one simulated run of scenario "cli-pass"');
    expect(r.out).toContain("# THE TIMELINE: ");
    expect(r.out).toMatch(/# {3}apiserver {4}the API server/);
    expect(r.out).toContain("# THE EVENTS: ");
    expect(r.out).toContain("# THE EXPECTATIONS: ");
  });
});

describe("kubelet-sim run: determinism", () => {
  it("gives identical bytes for the same seed, in every format", () => {
    for (const format of FORMATS) {
      const args = { seed: 5, strategy: "random", format: [format] };
      const a = inProcess((io) => executeRun(request("scenarios/default.yaml", args), io).exitCode);
      const b = inProcess((io) => executeRun(request("scenarios/default.yaml", args), io).exitCode);
      expect(a.code, format).toBe(0);
      expect(a.out.length, format).toBeGreaterThan(200);
      expect(b.out, format).toBe(a.out);
    }
  });

  it("gives identical bytes across two processes, all formats at once", () => {
    const args = ["run", "scenarios/default.yaml", "--seed", "3", "--strategy", "pct:2:500", "--format", FORMATS.join(",")];
    const a = cli(args);
    const b = cli(args);
    expect(a.code).toBe(0);
    expect(b.out).toBe(a.out);
    expect(b.err).toBe(a.err);
  });
});

describe("kubelet-sim run: where the outputs go", () => {
  it("--out writes the outputs to the file whole, leaves no temporary file, and keeps the summary on stdout", () => {
    const dir = tempDir();
    const target = join(dir, "run.txt");
    writeFileSync(target, "an old file\n");
    const toFile = inProcess((io) => executeRun(request(PASS, { format: ["text", "pods"], out: target }), io).exitCode);
    const toStdout = inProcess((io) => executeRun(request(PASS, { format: ["text", "pods"] }), io).exitCode);
    expect(toFile.code).toBe(0);
    expect(readdirSync(dir)).toEqual(["run.txt"]);
    const written = readFileSync(target, "utf8");
    expect(toStdout.out).toContain(written);
    expect(toFile.out).toContain(`# wrote text, pods to ${target}\n`);
    expect(toFile.out).toContain("verdict: PASS");
  });

  it("streams --format jsonl --out through the line sink: a complete trace whose hash checks", () => {
    const dir = tempDir();
    const target = join(dir, "trace.jsonl");
    const r = inProcess((io) => executeRun(request("scenarios/default.yaml", { format: ["jsonl"], out: target }), io).exitCode);
    expect(r.code).toBe(0);
    expect(readdirSync(dir)).toEqual(["trace.jsonl"]);
    const lines = readFileSync(target, "utf8").trimEnd().split("\n");
    const end = JSON.parse(lines.at(-1)!);
    expect(end.kind).toBe("end");
    // Every record is there: in seq order, they hash to the run's trace hash.
    const records = lines.slice(0, -1).map((l) => JSON.parse(l) as { seq: number });
    expect(records.map((r) => r.seq).sort((a, b) => a - b)).toEqual(records.map((_, i) => i));
    const digest = digestRecords([...records].sort((a, b) => a.seq - b.seq));
    expect(end.traceHash).toBe(digest);
    expect(r.out).toContain(`trace ${digest}`);
  });

  // Regression: the checker emits records from inside its sink write(); Trace.emit delivers them
  // after the current record, so every sink sees seq order and the file hashes as written.
  it("writes the JSON lines in seq order, so they hash to the trace hash as written", () => {
    const dir = tempDir();
    const target = join(dir, "trace.jsonl");
    inProcess((io) => executeRun(request("scenarios/default.yaml", { format: ["jsonl"], out: target }), io).exitCode);
    const lines = readFileSync(target, "utf8").trimEnd().split("\n");
    const digest = digestRecords(lines.slice(0, -1).map((l) => JSON.parse(l)));
    expect(JSON.parse(lines.at(-1)!).traceHash).toBe(digest);
  });

  it("leaves neither the target nor a temporary file when the run cannot start", () => {
    const dir = tempDir();
    const target = join(dir, "never.txt");
    const r = inProcess((io) => executeRun(request(`${FIXTURES}/unknown-invariant.yaml`, { out: target }), io).exitCode);
    expect(r.code).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses an --out in a folder that does not exist, before running", () => {
    const r = inProcess((io) => executeRun(request(PASS, { out: "/nonexistent-dir/x.txt" }), io).exitCode);
    expect(r.code).toBe(2);
    expect(r.err).toBe("kubelet-sim: cannot write /nonexistent-dir/x.txt: ENOENT\n");
  });

  it("keeps stdout pure JSON lines when jsonl goes there: the human lines move to stderr", () => {
    const r = cli(["run", PASS, "--format", "jsonl"]);
    expect(r.code).toBe(0);
    for (const line of r.out.trimEnd().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
    expect(r.err.split("\n")[0]).toBe(`# replay: kubelet-sim run ${PASS} --seed 1 --strategy fifo`);
    expect(r.err).toContain("verdict: PASS");
  });

  it("filters by pod", () => {
    const r = inProcess((io) => executeRun(request("scenarios/basics/07-restart-policy-never-onfailure.yaml", { format: ["pods"], pod: "once" }), io).exitCode);
    const rows = r.out.split("\n").filter((l) => /^\w+ +\d\/\d/.test(l));
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row.startsWith("once ")).toBe(true);
  });
});

describe("AtomicFile", () => {
  it("keeps the old content until commit, and nothing of the new after abort", () => {
    const dir = tempDir();
    const target = join(dir, "f.txt");
    writeFileSync(target, "old\n");
    const f = AtomicFile.open(target);
    f.write("new, part 1\n");
    expect(readFileSync(target, "utf8")).toBe("old\n");
    expect(existsSync(f.tempPath)).toBe(true);
    f.write("new, part 2\n");
    f.commit();
    expect(readFileSync(target, "utf8")).toBe("new, part 1\nnew, part 2\n");
    expect(readdirSync(dir)).toEqual(["f.txt"]);
    const g = AtomicFile.open(target);
    g.write("half");
    g.abort();
    expect(readFileSync(target, "utf8")).toBe("new, part 1\nnew, part 2\n");
    expect(readdirSync(dir)).toEqual(["f.txt"]);
  });
});

describe("colour", () => {
  it("only on a terminal, never with NO_COLOR set", () => {
    expect(paletteFor({ isTTY: true }, {}).enabled).toBe(true);
    expect(paletteFor({ isTTY: true }, { NO_COLOR: "1" }).enabled).toBe(false);
    expect(paletteFor({ isTTY: true }, { NO_COLOR: "" }).enabled).toBe(true);
    expect(paletteFor({ isTTY: false }, {}).enabled).toBe(false);
    expect(paletteFor({}, {}).red("x")).toBe("x");
    expect(paletteFor({ isTTY: true }, {}).red("x")).toBe("\u001b[31mx\u001b[39m");
  });
});

describe("--help and --version", () => {
  afterEach(() => vi.restoreAllMocks());

  async function captured(argv: string[]): Promise<{ code: number; out: string }> {
    let out = "";
    // yargs prints help and the version through console.log.
    vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => {
      out += `${parts.map(String).join(" ")}\n`;
    });
    const code = await main(argv);
    vi.restoreAllMocks();
    return { code, out };
  }

  it("shows examples on every command", async () => {
    for (const command of [[], ["run"], ["replay"], ["list"], ["validate"], ["conformance"], ["actions"]]) {
      const r = await captured([...command, "--help"]);
      expect(r.code, command.join(" ")).toBe(0);
      expect(r.out, command.join(" ")).toContain("\nExamples:\n");
      expect(r.out, command.join(" ")).toContain("Exit codes: 0 ");
    }
  });

  it("prints the version", async () => {
    const r = await captured(["--version"]);
    expect(r.out).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe("kubelet-sim run --kubelet-version / --variant", () => {
  const R05 = "scenarios/races/r05-pw-kill-pinning.yaml";

  it("runs a race's scenario under the fixed kubelet, and says so in the replay key", () => {
    const buggy = cli(["run", R05, "--format", "pods"]);
    expect(buggy.code).toBe(1);
    const fixed = cli(["run", R05, "--format", "pods", "--kubelet-version", "1.22"]);
    expect(fixed.code).toBe(0);
    expect(fixed.out.split("\n")[0]).toBe(`# replay: kubelet-sim run ${R05} --seed 1 --strategy fifo --kubelet-version 1.22`);
  });

  it("switches variants on and off", () => {
    const r = cli(["run", "scenarios/races/r16-probes-during-termination.yaml", "--format", "pods", "--variant", "proberReadsLatestPod"]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n")[0]).toMatch(/ --variant proberReadsLatestPod$/);
  });

  it("refuses a malformed flag, an unknown variant and an unknown version with exit 2 and no stack trace", () => {
    for (const args of [["--kubelet-version", "v1.22"], ["--variant", "Bad"], ["--variant", "noSuchVariant"], ["--kubelet-version", "1.99"]]) {
      const r = cli(["run", PASS, ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(/kubelet-version|variant|kubelet version/);
      noStackTrace(r.err);
    }
  });
});
