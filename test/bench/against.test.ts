// `npm run bench -- --against HEAD` end to end with tiny workloads (--tiny; the figures mean nothing
// and nothing here reads them): the shape of what it prints, the worktree gone afterwards, and the
// same when it is interrupted. No wall time is asserted.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_AGAINST_LINES } from "../../src/bench/args.ts";
import { HUNT_GOAL_RUNS_PER_SEC } from "../../src/bench/against/hunt_speed.ts";

const ROOT = join(import.meta.dirname, "..", "..");

interface Ran { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** The bench as `npm run bench` runs it; `interrupt` sends SIGINT once stderr matches it. */
function bench(args: string[], interrupt?: RegExp): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/bench/main.ts", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (interrupt !== undefined && !sent && interrupt.test(stderr)) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The temporary worktree the bench named on stderr. */
function treeOf(stderr: string): string {
  const m = /^bench: (\/\S+\/tree): dependencies by (symlink|npm ci)/m.exec(stderr);
  if (m === null) throw new Error(`no worktree named in:\n${stderr}`);
  return m[1]!;
}

const worktrees = () => spawnSync("git", ["worktree", "list", "--porcelain"], { cwd: ROOT, encoding: "utf8" }).stdout;
const head = () => spawnSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim();

describe("bench --against HEAD --tiny --json", () => {
  let ran: Ran;
  let objects: Record<string, unknown>[];
  beforeAll(async () => {
    // --no-build: the suite's global set-up built this tree's dist/ already, and other test files run it.
    ran = await bench(["--against", "HEAD", "--tiny", "--no-build", "--json", "--repeat", "2"]);
    objects = ran.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  });

  it("exits 0, with HEAD's lock file shared by symlink", () => {
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/dependencies by symlink; npm run build/);
  });

  it("prints one object per figure, every line in order, then the host", () => {
    const lines = objects.slice(0, -1).map((o) => o["name"]);
    expect([...new Set(lines)]).toEqual([...DEFAULT_AGAINST_LINES]);
    expect(objects.slice(0, -1).map((o) => `${String(o["name"])}: ${String(o["figure"])}`)).toEqual(expect.arrayContaining([
      "kernel: events/s", "kernel: events per CPU second", "kernel: ratio to the bare loop (CPU time)", "kernel: bare loop events per CPU second",
      "explore: runs/s --jobs 1", "explore: runs per CPU second --jobs 1",
      "node-110-pods-1h: speedup (virtual/wall time)", "node-110-pods-1h: speedup by CPU time (virtual/CPU)",
      "cli-startup: --version ms", "cli-startup: --version CPU ms", "cli-startup: run 01-pod-starts ms", "cli-startup: run 01-pod-starts CPU ms",
      "hunt-speed: r01-hunt runs/s", "hunt-speed: r01-hunt runs per CPU second", "hunt-speed: slowest form runs/s", "hunt-speed: slowest form runs per CPU second", "hunt-speed: geometric mean runs/s (1 form)", "hunt-speed: geometric mean runs per CPU second",
      "hostile-input: quantity of 10^6 digits CPU ms", "hostile-input: quantity 1, 2×10^4 zeros, 1 CPU ms",
    ]));
  });

  it("gives every figure both values, two samples a side, the ratio of the pairs and both commits", () => {
    const commit = head();
    for (const o of objects.slice(0, -1)) {
      expect(o, JSON.stringify(o)).toMatchObject({
        figure: expect.any(String), better: expect.stringMatching(/^(higher|lower)$/),
        old: expect.any(Number), new: expect.any(Number), ratio: expect.any(Number), ratioMin: expect.any(Number), ratioMax: expect.any(Number),
        oldCommit: commit, newCommit: commit,
      });
      expect(o["oldSamples"]).toHaveLength(2);
      expect(o["newSamples"]).toHaveLength(2);
      const [a, b] = (o["oldSamples"] as number[]).map((x, i) => (o["newSamples"] as number[])[i]! / x);
      expect(o["ratio"]).toBeCloseTo((a! + b!) / 2, 9);
      expect(o["ratioMin"]).toBe(Math.min(a!, b!));
    }
    const slowest = objects.find((o) => o["figure"] === "slowest form runs/s")!;
    expect(slowest["note"]).toBe(`slowest by median: r01-hunt on the old tree, r01-hunt on the new; goal: ≥ ${HUNT_GOAL_RUNS_PER_SEC} runs/s on every form`);
  });

  it("ends with the host: CPU, cores, Node, the load at start and end, both commits", () => {
    const host = objects.at(-1)!;
    expect(host).toMatchObject({
      name: "host", cpu: expect.any(String), cores: expect.any(Number), node: process.version, repeat: 2,
      old: { rev: "HEAD", commit: head(), dirty: false }, new: { rev: "HEAD", commit: head(), dirty: expect.any(Boolean) },
    });
    expect(host["loadAverageStart"]).toHaveLength(3);
    expect(host["loadAverageEnd"]).toHaveLength(3);
  });

  it("removes its worktree", () => {
    const tree = treeOf(ran.stderr);
    expect(existsSync(tree)).toBe(false);
    expect(existsSync(join(tree, ".."))).toBe(false);
    expect(worktrees()).not.toContain(tree);
  });
});

describe("bench --against a tree from before clusters (nodes:)", () => {
  /** The commit before `nodes:` came (e9a35a2), with this tree's package-lock: its node_modules are linked, not installed. */
  const BEFORE_CLUSTERS = "dea91ae";

  it("prints cluster-100x110-1h as not applicable, each figure with why, and exits 0", async () => {
    const ran = await bench(["--against", BEFORE_CLUSTERS, "cluster-100x110-1h", "--tiny", "--no-build", "--json", "--repeat", "1"]);
    expect(ran.code, ran.stderr).toBe(0);
    const rows = ran.stdout.trim().split("\n").map((l) => JSON.parse(l) as { name: string; figure?: string; ratio?: number | null; note?: string });
    const cluster = rows.filter((r) => r.name === "cluster-100x110-1h");
    expect(cluster.map((r) => r.figure)).toEqual(["speedup (virtual/wall time)", "speedup by CPU time (virtual/CPU)", "peak RSS MB (lower is better)"]);
    for (const r of cluster) {
      expect(r.ratio).toBeNull();
      expect(r.note).toMatch(/^not applicable: the old tree has no clusters \(nodes:\): /);
    }
  });
});

describe("bench --against, interrupted", () => {
  it("stops on SIGINT while building the old tree, with exit 130 and the worktree removed", async () => {
    const ran = await bench(["--against", "HEAD", "--tiny", "--no-build", "kernel"], /dependencies by \S+; npm run build/);
    expect(ran.code, ran.stderr).toBe(130);
    expect(ran.stderr).toMatch(/SIGINT: stopping, removing the temporary worktree/);
    const tree = treeOf(ran.stderr);
    expect(existsSync(join(tree, ".."))).toBe(false);
    expect(worktrees()).not.toContain(tree);
  });
});

describe("bench --against, refused", () => {
  it.each([
    [["--against", "no-such-revision-here"], /^bench: --against no-such-revision-here: not a commit of the repository at /m],
    [["--against", "HEAD", "hunt-speed", "--forms", "r99"], /^bench: --forms r99: there is no hunt form scenarios\/races\/hunt\/r99-hunt\.yaml$/m],
    [["--against", "HEAD", "select-heavy"], /^bench: unknown line "select-heavy" for --against/m],
  ])("%j exits 2 before building anything", async (args, message) => {
    const ran = await bench(args);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(message);
    expect(ran.stderr).not.toMatch(/checking out/);
  });
});
