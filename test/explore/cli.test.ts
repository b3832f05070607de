// `kubelet-sim explore` as a user runs it: the JSON line, the exit codes, the repro file.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { loadRepro, replayRepro } from "../../src/explore/index.ts";
import { TWO_PODS } from "./canary.ts";
import { HANG_MS } from "../setup/hang.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const out = mkdtempSync(join(tmpdir(), "kubelet-sim-explore-cli-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(ROOT, "bin/kubelet-sim.mjs"), ...args], { cwd: ROOT, encoding: "utf8", timeout: HANG_MS });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("kubelet-sim explore", () => {
  it("prints one JSON line and exits 0 when no run fails", () => {
    const r = cli(["explore", TWO_PODS, "--runs", "6", "--strategy", "pct", "--json", "--out", out]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const line = JSON.parse(r.stdout.trim());
    expect(line).toMatchObject({ runs: 6, violations: 0, repro: null, invariant: null, timeToFirstViolationMs: null, strategy: expect.stringMatching(/^pct:3:\d+$/) });
    expect(line.runsPerSec).toBeGreaterThan(0);
  });

  it("exits 1 with a failure, shrinks it, and writes a repro that replays", () => {
    const r = cli(["explore", "scenarios/races/r02-pw-not-started-treated-as-terminated.yaml", "--runs", "20", "--json", "--out", out, "--shrink-runs", "60"]);
    expect(r.code).toBe(1);
    const line = JSON.parse(r.stdout.trim());
    expect(line.invariant).toBe("container-start-after-pod-deleted");
    expect(line.violations).toBe(1);
    expect(line.timeToFirstViolationMs).toBeGreaterThanOrEqual(0);
    expect(line.shrunk.runs).toBeLessThanOrEqual(60);
    expect(replayRepro(loadRepro(resolve(ROOT, line.repro))).reproduced).toBe(true);
  });

  it.each([
    [["--runs", "-1"]],
    [["--shard", "3/2"]],
    [["--strategy", "fifo"]],
    [["--time-budget", "soon"]],
    [["--invariants", "no-such-invariant"]],
    [["--jobs", "0"]],
  ])("exits 2 on a usage error: %j", async (flags) => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await main(["explore", TWO_PODS, "--runs", "1", ...flags])).toBe(2);
    } finally {
      stderr.mockRestore();
    }
  });

  it("names the run it found by a replay key whose record carries --kubelet-version and --variant, and that key shows the failure", () => {
    const file = "scenarios/races/r06-grace-period-shorten-ignored.yaml";
    const r = cli(["explore", file, "--runs", "2", "--no-shrink", "--out", out, "--kubelet-version", "1.30", "--variant", "killHonoursShortenedGrace=false"]);
    expect(r.code).toBe(1);
    const key = /^# replay the run as found: kubelet-sim (.*)$/m.exec(r.stdout)?.[1];
    expect(key).toMatch(/^replay \S+\.json$/);
    const record = JSON.parse(readFileSync(key!.slice("replay ".length), "utf8")) as { repro: { scenarioText: string } };
    expect(record.repro.scenarioText).toMatch(/version: "1\.30"/);
    expect(record.repro.scenarioText).toMatch(/killHonoursShortenedGrace: false/);
    const violation = /invariant shortened-grace-period-honoured at (\d+)ms/.exec(r.stdout)?.[1];
    const again = cli([...key!.split(" "), "--format", "text"]);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`still ran at ${violation}ms`);
    expect(again.stdout).toMatch(/reproduced: the identical trace/);
  });

  it("exits 2 on a scenario that does not load", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await main(["explore", "test/fixtures/scenarios/bad/missing-name.yaml", "--runs", "1"])).toBe(2);
    } finally {
      stderr.mockRestore();
    }
  });
});
