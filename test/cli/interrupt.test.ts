// Interrupted runs leave no files: SIGINT, SIGTERM and SIGHUP during `run --out` remove the
// temporary file before the process dies of the signal; after kill -9 the next run that writes the
// same target removes what the killed one left. The run is driven in slices so the handlers get to
// run; slicing never changes the trace.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadScenarioText } from "../../src/scenario/index.ts";
import { startSimulation, simulate } from "../../src/simulate.ts";
import { runInSlices } from "../../src/cli/session.ts";
import { processAlive, tempName, tempOwner } from "../../src/cli/atomic.ts";
import { nodeScenarioYaml } from "../../src/bench/node.ts";
import { clusterScenarioYaml } from "../../src/bench/workloads.ts";
import { cli, ROOT, tempDir } from "./helpers.ts";

/** A run long enough to interrupt: 30 pods with probes for an hour of virtual time. */
function longScenario(dir: string): string {
  const file = join(dir, "long.yaml");
  writeFileSync(file, nodeScenarioYaml(30, "1h"));
  return file;
}

const temps = (dir: string) => readdirSync(dir).filter((n) => n.endsWith(".tmp"));

/** Resolves once a file matching `ready` appears in `dir` (the run has opened its output), or the child ended. */
async function whenReady(child: ChildProcess, dir: string): Promise<void> {
  for (let i = 0; i < 600 && child.exitCode === null && child.signalCode === null; i++) {
    if (temps(dir).length > 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

describe("an interrupted run --out leaves no temporary file", () => {
  it.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)("%s removes it, and the process dies of the signal", async (signal) => {
    const dir = tempDir();
    const scenario = longScenario(dir);
    const out = join(dir, "trace.jsonl");
    const child = spawn(process.execPath, [join(ROOT, "bin", "kubelet-sim.mjs"), "run", scenario, "--format", "jsonl", "--out", out], { cwd: ROOT, stdio: "ignore" });
    await whenReady(child, dir);
    expect(temps(dir), "the run opened its temporary file").toHaveLength(1);
    child.kill(signal);
    const end = await exited(child);
    expect(end).toEqual({ code: null, signal });
    expect(temps(dir)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it("after kill -9, the next run writing the same target removes the stale file, and leaves a live writer's", async () => {
    const dir = tempDir();
    const scenario = longScenario(dir);
    const out = join(dir, "trace.jsonl");
    const child = spawn(process.execPath, [join(ROOT, "bin", "kubelet-sim.mjs"), "run", scenario, "--format", "jsonl", "--out", out], { cwd: ROOT, stdio: "ignore" });
    await whenReady(child, dir);
    child.kill("SIGKILL");
    await exited(child);
    const left = temps(dir);
    expect(left).toHaveLength(1);
    expect(tempOwner(left[0]!, "trace.jsonl")).toBe(child.pid);
    // A file of a writer that is still alive (this test's own parent), and one of another target.
    const live = tempName("trace.jsonl", process.ppid, 1);
    const other = tempName("other.jsonl", child.pid!, 1);
    writeFileSync(join(dir, live), "");
    writeFileSync(join(dir, other), "");
    const again = cli(["run", "test/fixtures/cli/pass.yaml", "--format", "jsonl", "--out", out]);
    expect(again.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(temps(dir).sort()).toEqual([live, other].sort());
  });

  it("knows its own temporary files by name, and which writers are alive", () => {
    expect(tempName("run.json", 42, 3)).toBe(".run.json.42-3.tmp");
    expect(tempOwner(".run.json.42-3.tmp", "run.json")).toBe(42);
    expect(tempOwner(".run.json.42-3.tmp", "run")).toBeNull();
    expect(tempOwner(".run.json.x-3.tmp", "run.json")).toBeNull();
    expect(tempOwner("run.json.42-3.tmp", "run.json")).toBeNull();
    expect(processAlive(process.pid)).toBe(true);
  });
});

describe("a big cluster's run stops on a signal, in its start-up", () => {
  // 20 nodes x 110 pods for 10 virtual minutes: 1,320,000 pod-seconds, so the first process starts
  // a second one (young.ts) unless NODE_OPTIONS chose a semi-space. Its first virtual second, all
  // start-up, used to be one slice of tens of seconds that no signal handler could interrupt.
  it.each([
    ["SIGTERM", "sent to the first process, which passes it on", {}],
    ["SIGINT", "in a process not started again", { NODE_OPTIONS: "--max-semi-space-size=16" }],
  ] as const)("%s (%s): one line on stderr, death by the signal, no --out or --record file", async (signal, _how, env) => {
    const dir = tempDir();
    const scenario = join(dir, "cluster.yaml");
    writeFileSync(scenario, clusterScenarioYaml({ nodes: 20, podsPerNode: 110 }, "10m"));
    const out = join(dir, "trace.jsonl");
    const args = ["run", scenario, "--format", "jsonl", "--out", out, "--record", join(dir, "run.json")];
    const child = spawn(process.execPath, [join(ROOT, "bin", "kubelet-sim.mjs"), ...args], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
    let err = "";
    child.stderr!.on("data", (d: Buffer) => void (err += d.toString()));
    // The temporary file of --out is the sign that the run has started (opened before the first slice).
    await whenReady(child, dir);
    expect(temps(dir), "the run opened its temporary file").toHaveLength(1);
    child.kill(signal);
    expect(await exited(child)).toEqual({ code: null, signal });
    expect(readdirSync(dir)).toEqual(["cluster.yaml"]);
    const lines = err.trimEnd().split("\n");
    expect(lines.at(-1)).toMatch(new RegExp(`^kubelet-sim: ${signal}: the run stopped at [\\d.hms]+ of virtual time, before its end; no output file was written$`));
    expect(lines.filter((l) => l.startsWith("kubelet-sim:"))).toHaveLength(1);
  });
});

describe("a run driven in slices", () => {
  it.each([
    ["scenarios/default.yaml", { name: "random" }, { ms: 37 }],
    ["scenarios/races/r05-pw-kill-pinning.yaml", { name: "pct", depth: 3, steps: 1000 }, { ms: 37 }],
    ["scenarios/basics/02-crash-loop-backoff.yaml", { name: "fifo" }, { ms: 37 }],
    ["scenarios/default.yaml", { name: "random" }, { ms: 1000, events: 7 }],
    ["examples/cluster/workloads.yaml", { name: "random" }, { ms: 24 * 3600_000, events: 13 }],
    ["examples/cluster/workloads.yaml", { name: "fifo" }, { ms: 5, events: 101 }],
  ] as const)("%s (%j) gives the trace of one uninterrupted run, pausing every %j", async (file, strategy, size) => {
    const { scenario } = loadScenarioText((await import("node:fs")).readFileSync(join(ROOT, file), "utf8"), file);
    const whole = simulate(scenario, { seed: 5, strategy });
    const sliced = await runInSlices(startSimulation(scenario, { seed: 5, strategy }), { ...size, adapt: false });
    expect(sliced.run.traceHash).toBe(whole.run.traceHash);
    expect(sliced.run.verdict).toBe(whole.run.verdict);
    expect(sliced.run.choices.encode()).toBe(whole.run.choices.encode());
    expect(sliced.ok).toBe(whole.ok);
  });
});
