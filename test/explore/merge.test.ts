// Exploration past one machine: four shards of an exploration, each its own process as on four
// machines, merged by `kubelet-sim merge`, say what the unsharded exploration says: the same runs
// (runsDigest), the same first failure and the same repro.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin/kubelet-sim.mjs");
const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-merge-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// r15 under random with seed 1: runs 11 and 19 fail, so the first failure is in shard 4 of 4 and
// the other shards run past it. Only R15's own invariant is checked: its kubelet (1.22) also has the
// bugs of races R11 and R12, which ready-with-terminal-phase and
// terminal-phase-before-containers-stopped catch in every run.
const SCENARIO = "scenarios/races/r15-status-write-to-recreated-pod.yaml";
// Shrinking is bounded by its 40 runs alone: under the default --shrink-time of 60 s, a loaded host
// could stop one process's shrinking by the clock and not the other's, and the repros would differ.
const ARGS = ["--runs", "24", "--strategy", "random", "--seed", "1", "--shrink-runs", "40", "--shrink-time", "24h", "--invariants", "kubelet-write-to-other-uid", "--json"];

interface Ran { code: number | null; stdout: string; stderr: string }

function run(args: string[]): Promise<Ran> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [BIN, ...args], { cwd: ROOT });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("error", fail);
    p.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** What must agree: everything but rates, times and the folder the repro went to. */
function comparable(line: Record<string, unknown>): Record<string, unknown> {
  const { runsPerSec: _r, timeToFirstViolationMs: _t, repro, reproAsFound, ...rest } = line;
  const base = (p: unknown) => (typeof p === "string" ? basename(p) : p);
  return { ...rest, repro: base(repro), reproAsFound: base(reproAsFound) };
}

/** A repro record without what depends on the wall clock or the folder it was written to. */
function record(path: string): unknown {
  const r = JSON.parse(readFileSync(path, "utf8").replaceAll(`${dir}/whole`, "OUT").replaceAll(`${dir}/shard-4`, "OUT"));
  delete r.repro.shrink.ms;
  delete r.scenarioSha256; // of the scenario text, which names the folder; the text itself is compared
  return r;
}

describe("explore --shard i/4 on four processes, then kubelet-sim merge", () => {
  it("says what the unsharded exploration says: the same runs, first failure and repro", async () => {
    const shards = await Promise.all([1, 2, 3, 4].map((i) => run(["explore", SCENARIO, ...ARGS, "--shard", `${i}/4`, "--out", join(dir, `shard-${i}`)])));
    expect(shards.map((s) => s.code), shards.map((s) => s.stderr).join("")).toEqual([0, 0, 0, 1]);
    const whole = await run(["explore", SCENARIO, ...ARGS, "--out", join(dir, "whole")]);
    expect(whole.code, whole.stderr).toBe(1);
    const merged = spawnSync(process.execPath, [BIN, "merge", ...[4, 2, 3, 1].map((i) => join(dir, `shard-${i}`)), "--json"], { cwd: ROOT, encoding: "utf8" });
    expect(merged.status, merged.stderr).toBe(1);
    const m = JSON.parse(merged.stdout) as Record<string, unknown>;
    const w = JSON.parse(whole.stdout) as Record<string, unknown>;
    expect(comparable(m)).toEqual(comparable(w));
    expect(m).toMatchObject({ runs: 12, violations: 1, stoppedBy: "failure" });
    expect(m.repro).toContain("shard-4");
    expect(record(m.repro as string)).toEqual(record(w.repro as string));
    // The human summary too, up to rates and folders.
    const text = spawnSync(process.execPath, [BIN, "merge", join(dir, "shard-1"), join(dir, "shard-2"), join(dir, "shard-3"), join(dir, "shard-4")], { cwd: ROOT, encoding: "utf8" });
    expect(text.stdout).toMatch(/^FAIL run 11 \(seed \d+\), 1 failing of 12 runs/m);
  });

  it("refuses a missing, repeated or foreign shard with exit 2 and says which", () => {
    const merge = (...paths: string[]) => spawnSync(process.execPath, [BIN, "merge", ...paths], { cwd: ROOT, encoding: "utf8" });
    const missing = merge(join(dir, "shard-1"), join(dir, "shard-3"), join(dir, "shard-4"));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^kubelet-sim: merge: missing shard 2\/4 \(have 1\/4, 3\/4, 4\/4\)/);
    expect(merge(join(dir, "shard-1"), join(dir, "shard-1"), join(dir, "shard-2"), join(dir, "shard-3")).stderr).toMatch(/shard 1\/4 is given twice/);
    const foreign = join(dir, "foreign");
    const f = JSON.parse(readFileSync(join(dir, "shard-2", "explore-shard-2-of-4.json"), "utf8"));
    f.summary.plan.seed = 2;
    spawnSync("mkdir", ["-p", foreign]);
    writeFileSync(join(foreign, "explore-shard-2-of-4.json"), JSON.stringify(f));
    expect(merge(join(dir, "shard-1"), foreign, join(dir, "shard-3"), join(dir, "shard-4")).stderr).toMatch(/are shards of different explorations/);
    const empty = merge(join(dir, "whole"));
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/no shard file/);
  });
});
