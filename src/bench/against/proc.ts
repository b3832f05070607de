// Child processes of `--against`, started asynchronously so that Ctrl-C is handled between and
// during measurements, and remembered so that the clean-up ends exactly the processes this command
// started (by their ids), never others. A command runs in a process group of its own, so that the
// clean-up also ends what it started (npm's shell and tsc under `npm run build`), and none of them
// goes on writing into a worktree that is being removed.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

/** The children still running, each with whether it leads a process group of its own. */
const live = new Map<ChildProcess, boolean>();

/** Remembers a child until it exits; for children started elsewhere (the runners' fork). */
export function track(child: ChildProcess, ownGroup = false): void {
  live.set(child, ownGroup);
  child.once("exit", () => live.delete(child));
}

/** Ends every child this command started that is still running (with its process group, if it has one). */
export function killChildren(): void {
  for (const [child, ownGroup] of live) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
    try {
      if (ownGroup) process.kill(-child.pid, "SIGTERM");
      else child.kill("SIGTERM");
    } catch {
      // it ended meanwhile
    }
  }
  live.clear();
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  wallMs: number;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

/** Runs a command to its end, collecting its output. */
export function run(command: string, args: readonly string[], opts: RunOptions): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const startMs = performance.now();
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    track(child, true);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => void (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => void (stderr += s));
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr, wallMs: performance.now() - startMs }));
  });
}

/** Parses bash's `times`: its own user and system time, then its children's; returns the children's in ms. */
export function childrenCpuMs(times: string): number {
  const lines = times.trim().split("\n");
  const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(lines[1]?.trim() ?? "");
  if (lines.length !== 2 || m === null) throw new Error(`unexpected output of bash's times: ${JSON.stringify(times)}`);
  const s = (min: string, sec: string) => Number(min) * 60 + Number(sec);
  return Math.round((s(m[1]!, m[2]!) + s(m[3]!, m[4]!)) * 1000);
}

let timed = 0;

/** Bash's script for runTimed and runTimedSync: run the command, write `times` to $1, exit with the command's status. */
const TIMES_SCRIPT = 'f=$1; shift; "$@"; s=$?; times > "$f"; exit $s';

/**
 * Runs a command through bash, which then reports with `times` the CPU time (user + system) the
 * command used, its threads included: a figure that a busy machine disturbs far less than wall
 * time. Node cannot ask the kernel for a child's CPU time itself.
 */
export async function runTimed(command: string, args: readonly string[], opts: RunOptions): Promise<Finished & { cpuMs: number }> {
  const file = join(tmpdir(), `kubelet-sim-bench-times-${process.pid}-${timed++}.txt`);
  try {
    const r = await run("bash", ["-c", TIMES_SCRIPT, "bash", file, command, ...args], opts);
    return { ...r, cpuMs: childrenCpuMs(readFileSync(file, "utf8")) };
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * runTimed for the plain `npm run bench` lines, which run one command at a time: synchronous, the
 * child in this process's group (an interrupt reaches it directly). Output is collected as text.
 */
export function runTimedSync(command: string, args: readonly string[], opts: RunOptions): Finished & { cpuMs: number } {
  const file = join(tmpdir(), `kubelet-sim-bench-times-${process.pid}-${timed++}.txt`);
  try {
    const startMs = performance.now();
    const r = spawnSync("bash", ["-c", TIMES_SCRIPT, "bash", file, command, ...args], { cwd: opts.cwd, env: opts.env ?? process.env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    const wallMs = performance.now() - startMs;
    if (r.error !== undefined) throw r.error;
    return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, wallMs, cpuMs: childrenCpuMs(readFileSync(file, "utf8")) };
  } finally {
    rmSync(file, { force: true });
  }
}

/** Runs a command that must succeed; otherwise throws with what it said last. */
export async function mustRun(what: string, command: string, args: readonly string[], opts: RunOptions): Promise<Finished> {
  const r = await run(command, args, opts);
  if (r.code !== 0) throw new Error(`${what} failed (${r.signal ?? `exit ${String(r.code)}`}):\n${tail(`${r.stdout}\n${r.stderr}`)}`);
  return r;
}

/** The last lines of a command's output, for an error message. */
export function tail(text: string, lines = 20): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}
