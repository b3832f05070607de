// `kubelet-sim explore` with the generic swarm, the guided strategy, coverage and the HTML view, as
// a user runs them: what wins when a file has its own swarm ranges, the usage errors, the page.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.ts";
import { TWO_PODS } from "./canary.ts";
import { HANG_MS } from "../setup/hang.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const out = mkdtempSync(join(tmpdir(), "kubelet-sim-discovery-cli-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(ROOT, "bin/kubelet-sim.mjs"), ...args], { cwd: ROOT, encoding: "utf8", timeout: HANG_MS });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("explore --swarm auto --strategy guided", () => {
  it("prints the coverage reached, in the summary and the JSON line", () => {
    // Under the generic swarm, b's delete may land during its sandbox or pull: race R01, a failure
    // (exit 1) in kubelet 1.30. The summary carries the coverage either way.
    const human = cli(["explore", TWO_PODS, "--runs", "8", "--strategy", "guided", "--swarm", "auto", "--keep-going", "--no-shrink", "--out", out]);
    expect([0, 1], human.stderr).toContain(human.code);
    expect(human.stdout).toMatch(/strategy guided:4, seed \d+, swarm auto/);
    expect(human.stdout).toMatch(/^coverage: \d+ features \(api \d+, .*\), the last new one in run \d+ of 8$/m);
    expect(human.stdout).not.toContain("stopped growing"); // 8 runs are fewer than the threshold
    const json = cli(["explore", TWO_PODS, "--runs", "8", "--strategy", "guided", "--swarm", "auto", "--keep-going", "--no-shrink", "--json", "--out", out]);
    const line = JSON.parse(json.stdout.trim());
    expect(line.strategy).toBe("guided:4");
    expect(line.coverage.features).toBeGreaterThan(0);
  });

  it("says so in the summary and the JSON line when coverage stopped growing", () => {
    // One pod, no swarm: every schedule reaches the same few states within the first runs, so
    // the last 100 of 200 runs (plateauRuns(200)) add nothing.
    const args = ["explore", "scenarios/basics/01-pod-starts.yaml", "--runs", "200", "--coverage", "--no-shrink", "--out", out];
    const human = cli(args);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^coverage stopped growing: no new feature in the last (\d+) runs \(the threshold is 100\)/m);
    const json = JSON.parse(cli([...args, "--json"]).stdout.trim());
    expect(json.coverage.plateau).toBeGreaterThanOrEqual(100);
    expect(json.coverage.plateau).toBe(200 - json.coverage.lastNewRun);
  });

  it("leaves a file's own swarm ranges out when asked, and says so on stderr; the file's win otherwise", () => {
    const hunt = "scenarios/races/hunt/r05-hunt.yaml";
    const auto = cli(["explore", hunt, "--runs", "2", "--swarm", "auto", "--invariants", "lost-wakeup", "--no-shrink", "--out", out]);
    expect(auto.stderr).toContain("note: scenarios/races/hunt/r05-hunt.yaml: its swarm ranges are left out: --swarm auto draws the generic knobs instead");
    expect(auto.stdout).toContain("swarm auto");
    const own = cli(["explore", hunt, "--runs", "2", "--invariants", "lost-wakeup", "--no-shrink", "--out", out]);
    expect(own.stderr).toBe("");
    expect(own.stdout).toMatch(/seed \d+, swarm\n/);
  });

  it("takes `swarm: auto` in the file as --swarm auto", () => {
    const file = join(out, "auto.yaml");
    writeFileSync(file, `${readFileSync(join(ROOT, TWO_PODS), "utf8")}\nswarm: auto\n`);
    const r = cli(["explore", file, "--runs", "3", "--json", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    // Its eventually: expectation was written for the file's timings, which every run now moves.
    expect(r.stderr).toContain("1 of its expectations (eventually, at) are left out");
    const run = cli(["explore", file, "--runs", "3", "--out", out]);
    expect(run.stdout).toContain("swarm auto");
  });

  it("writes the HTML view, with a coverage line per compared strategy", () => {
    const page = join(out, "view.html");
    const r = cli(["explore", TWO_PODS, "--runs", "6", "--strategy", "guided", "--swarm", "auto", "--keep-going", "--no-shrink", "--html", page, "--compare", "pos", "--out", out]);
    expect([0, 1], r.stderr).toContain(r.code);
    const html = readFileSync(page, "utf8");
    expect(html.match(/<polyline class="coverage"/g)).toHaveLength(2);
    expect(html).toContain('data-strategy="guided:4"');
    expect(html).toContain('data-strategy="pos"');
  });

  it.each([
    [["--islands", "4"], /--islands: only with --strategy guided/],
    [["--strategy", "guided", "--islands", "0"], /--islands 0: expected a whole number from 1 to 256/],
    [["--strategy", "guided", "--islands", "2", "--shard", "3/3"], /at most 2 shards/],
    [["--compare", "pos"], /--compare: only with --html/],
    [["--swarm", "sometimes"], /Invalid values|swarm/],
  ])("exits 2 on a usage error: %j", async (flags, message) => {
    let err = "";
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((s) => {
      err += String(s);
      return true;
    });
    try {
      expect(await main(["explore", TWO_PODS, "--runs", "1", "--out", out, ...flags])).toBe(2);
    } finally {
      stderr.mockRestore();
    }
    expect(err).toMatch(message);
    expect(existsSync(join(out, "view.html.tmp"))).toBe(false);
  });
});
