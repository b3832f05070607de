// A long run is started again in a `node` with a larger young generation (src/cli/young.ts): which
// runs, how the user's own size wins, and that the re-run keeps what the user sees exact: stdout,
// stderr, the exit code, a signal, the trace hash.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clusterScenarioYaml } from "../../src/bench/workloads.ts";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { SEMI_SPACE_MB, WEIGHT_THRESHOLD, scenarioWeight, semiSpaceChosen, semiSpaceFor } from "../../src/cli/young.ts";
import { RUN_RECORD_FORMAT } from "../../src/cli/run_record.ts";
import { DEFAULT_INLINING, inliningFlagsFor } from "../../src/cli/inlining.ts";
import { VERSION } from "../../src/version.ts";
import { cli, FIXTURES, ROOT, tempDir } from "./helpers.ts";

const DRIVER = join(ROOT, "test/fixtures/young/driver.ts");
/** NODE_OPTIONS that keep V8's default semi-space (16 MB on 64-bit) and so turn the re-run off. */
const OVERRIDE = { NODE_OPTIONS: "--max-semi-space-size=16" };

/** A cluster big enough to be re-run: the bench's 10 × 110 pods for 10 virtual minutes (660,000 pod-seconds). */
function bigCluster(dir: string, edit: (yaml: string) => string = (y) => y): string {
  const file = join(dir, "big.yaml");
  writeFileSync(file, edit(clusterScenarioYaml({ nodes: 10, podsPerNode: 110 }, "10m")));
  return file;
}

/**
 * A run record of the big cluster whose tape holds one choice the run does not make: its replay
 * loads the whole cluster, starts, and diverges at once (exit 3), so that a test sees where it ran
 * without waiting for 10 virtual minutes of 1,100 pods.
 */
function bigRecord(dir: string): string {
  const scenario = bigCluster(dir);
  const record = join(dir, "big-run.json");
  const sha = createHash("sha256").update(readFileSync(scenario, "utf8")).digest("hex");
  const key = "kubelet-sim run big.yaml --seed 1 --strategy fifo";
  const fields = { format: RUN_RECORD_FORMAT, tool: VERSION, scenario: "big.yaml", scenarioSha256: sha, seed: 1, strategy: "fifo", untilMs: 600_000, choices: "v9/10" };
  writeFileSync(record, JSON.stringify({ ...fields, verdict: "until", ok: true, traceHash: "0123456789abcdef", replayKey: key }));
  return record;
}

describe("which runs are started again, and the user's choice", () => {
  it.each([
    [[], "", false],
    [["--max-semi-space-size=64"], "", true],
    [[], "--max-semi-space-size=128", true],
    [[], "--trace-gc --max_semi_space_size=8", true],
    [[], "--min-semi-space-size=4", true],
    [["--max-old-space-size=4096"], "--semi-space-growth-factor=2", false],
    [[], "--max-semi-space-size-x=1", false],
  ] as const)("node's flags %j, NODE_OPTIONS %j: chosen %s", (execArgv, nodeOptions, chosen) => {
    expect(semiSpaceChosen(execArgv, nodeOptions)).toBe(chosen);
  });

  it("weighs a scenario in pod-seconds: replicas, a Job's parallelism, a DaemonSet's pod on every node", () => {
    const workloads = loadScenarioFile("examples/cluster/workloads.yaml").scenario;
    // Deployment 6 + StatefulSet 3 + DaemonSet on 3 nodes + Job parallelism 2, for 60 s.
    expect(scenarioWeight(workloads, workloads.untilMs)).toBe((6 + 3 + 3 + 2) * 60);
    expect(semiSpaceFor(workloads, workloads.untilMs)).toBeNull();
    const one = loadScenarioFile("scenarios/basics/01-pod-starts.yaml").scenario;
    expect(scenarioWeight(one, 60_000)).toBe(60);
    const big = loadScenarioFile(bigCluster(tempDir())).scenario;
    expect(scenarioWeight(big, big.untilMs)).toBe(1100 * 600);
    expect(semiSpaceFor(big, big.untilMs)).toBe(SEMI_SPACE_MB);
    // --until shortens it below the line.
    expect(semiSpaceFor(big, (WEIGHT_THRESHOLD / 1100 - 1) * 1000)).toBeNull();
  });
});

describe("the re-run (respawn) keeps the command's exits exact", () => {
  it("passes the flag and the arguments, stdout and stderr through, and exits with the child's code", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", DRIVER, "exit", "7"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
    expect(r.status).toBe(7);
    expect(r.stderr).toBe("child: exit\n");
    const seen = JSON.parse(r.stdout) as { execArgv: string[]; argv: string[] };
    expect(seen.execArgv).toEqual(["--import", "tsx", "--max-semi-space-size=32"]);
    expect(seen.argv).toEqual(["exit", "7"]);
  });

  it("passes a SIGTERM on and dies of it as the child did", async () => {
    const dir = tempDir();
    const note = join(dir, "signal.txt");
    const driver = spawn(process.execPath, ["--import", "tsx", DRIVER, "wait", note], { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, NODE_OPTIONS: "" } });
    let out = "";
    await new Promise<void>((resolve) => driver.stdout.on("data", (d: Buffer) => ((out += d.toString()).includes("waiting\n") ? resolve() : undefined)));
    const end = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => driver.once("exit", (code, signal) => resolve({ code, signal })));
    driver.kill("SIGTERM");
    expect(await end).toEqual({ code: null, signal: "SIGTERM" });
    expect(readFileSync(note, "utf8")).toBe("SIGTERM");
  });

  it("a user error found by the re-run: exit 2 and the same stderr as without it", () => {
    const file = bigCluster(tempDir());
    const args = ["run", file, "--pod", "nosuch", "--json"];
    const log = join(tempDir(), "starts.log");
    const preload = join(ROOT, "test/fixtures/young/log_start.cjs");
    const rerun = cli(args, { NODE_OPTIONS: `--require ${preload}`, YOUNG_TEST_LOG: log });
    // Two processes: the command, then the command again with the larger semi-space.
    expect(readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as string[])).toEqual([[], [`--max-semi-space-size=${SEMI_SPACE_MB}`]]);
    const here = cli(args, OVERRIDE);
    expect(rerun.code).toBe(2);
    expect(rerun.err).toMatch(/^kubelet-sim: --pod nosuch: no such pod in this scenario \(pods: default\/bench-00-/);
    expect(rerun).toEqual(here);
  });

  it("replay of a big run starts again too, and says what it says without the re-run", () => {
    const record = bigRecord(tempDir());
    const log = join(tempDir(), "starts.log");
    const preload = join(ROOT, "test/fixtures/young/log_start.cjs");
    const rerun = cli(["replay", record], { NODE_OPTIONS: `--require ${preload}`, YOUNG_TEST_LOG: log });
    expect(readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as string[])).toEqual([[], [`--max-semi-space-size=${SEMI_SPACE_MB}`]]);
    expect(rerun.code).toBe(3);
    expect(rerun.err).toMatch(/^kubelet-sim: replay of .*big-run\.json diverged: /m);
    expect(rerun).toEqual(cli(["replay", record], OVERRIDE));
  });

  it("explore of a big scenario starts again too (no run asked for: the test sees only where it went)", () => {
    const file = bigCluster(tempDir());
    const args = ["explore", file, "--runs", "0", "--strategy", "random", "--json", "--out", tempDir()];
    const log = join(tempDir(), "starts.log");
    const preload = join(ROOT, "test/fixtures/young/log_start.cjs");
    const rerun = cli(args, { NODE_OPTIONS: `--require ${preload}`, YOUNG_TEST_LOG: log });
    // The second process keeps V8's own inlining limits (a cluster's hot code gains from them: inlining.ts).
    expect(readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as string[])).toEqual([[], [`--max-semi-space-size=${SEMI_SPACE_MB}`, ...DEFAULT_INLINING]]);
    expect(inliningFlagsFor("explore", [...DEFAULT_INLINING], "")).toBeNull();
    expect(rerun.code).toBe(0);
    expect(JSON.parse(rerun.out)).toMatchObject({ runs: 0 });
    expect(rerun).toEqual(cli(args, OVERRIDE));
  });

  it("diff with a big side starts again too, and says what it says without the re-run", () => {
    const dir = tempDir();
    const record = bigRecord(dir);
    // Side A replays the big record, which diverges at once (exit 3); side B is never reached.
    const args = ["diff", record, "scenarios/basics/01-pod-starts.yaml"];
    const log = join(tempDir(), "starts.log");
    const preload = join(ROOT, "test/fixtures/young/log_start.cjs");
    const rerun = cli(args, { NODE_OPTIONS: `--require ${preload}`, YOUNG_TEST_LOG: log });
    expect(readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as string[])).toEqual([[], [`--max-semi-space-size=${SEMI_SPACE_MB}`]]);
    expect(rerun.code).toBe(3);
    expect(rerun).toEqual(cli(args, OVERRIDE));
  });

  it("diff of two small sides runs in one process", () => {
    const args = ["diff", "scenarios/races/r05-pw-kill-pinning.yaml", "--kubelet-version", "1.20", "--vs", "1.22"];
    const log = join(tempDir(), "starts.log");
    const preload = join(ROOT, "test/fixtures/young/log_start.cjs");
    const r = cli(args, { NODE_OPTIONS: `--require ${preload}`, YOUNG_TEST_LOG: log });
    expect(readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as string[])).toEqual([[]]);
    expect(r.code).toBe(1);
  });

  it("a bad scenario file, big or small, is reported by the first process: exit 2, every error located", () => {
    const big = bigCluster(tempDir(), (y) => y.replace("until: 10m", "until: 10"));
    const r = cli(["run", big], { NODE_OPTIONS: "" });
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(
      `${big}:2:8: until: expected a duration such as "500ms" or "1m30s", found the number 10; add a unit, e.g. "10s" or "10ms"\n` +
        `kubelet-sim: ${big} has 1 error; nothing was run (see docs/scenarios.md)\n`,
    );
    expect(cli(["run", big], OVERRIDE)).toEqual(r);
    const small = cli(["run", `${FIXTURES}/malformed.yaml`], { NODE_OPTIONS: "" });
    expect(small.code).toBe(2);
    expect(small.err).toContain(`${FIXTURES}/malformed.yaml:3:8: until:`);
  });

  it("the young generation's size changes no run: the same trace hash with a 1 MB and a 64 MB semi-space", () => {
    const hash = (nodeOptions: string) => (JSON.parse(cli(["run", "scenarios/default.yaml", "--json"], { NODE_OPTIONS: nodeOptions }).out) as { traceHash: string }).traceHash;
    const small = hash("--max-semi-space-size=1");
    expect(small).toMatch(/^[0-9a-f]{16}$/);
    expect(hash("--max-semi-space-size=64")).toBe(small);
  });
});
