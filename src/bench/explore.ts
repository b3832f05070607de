// Exploration throughput: runs per second of `kubelet-sim explore` on a one-pod scenario of 60
// simulated seconds, with --jobs 1 (this thread) and --jobs 2 (two worker threads), and the speedup
// between them. Measured through the real command, worker start-up included (each thread loads
// the sources through tsx, about a second), so the runs are many enough for it to matter little;
// best of 2.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchLine } from "./kernel.ts";

const RUNS = 1200;
const REPEATS = 2;
const ROOT = join(import.meta.dirname, "..", "..");

/** A one-pod scenario of 60 simulated seconds: create, a crash at 20 s and a restart, readiness every 5 s, a delete at 45 s. */
export const EXPLORE_BENCH_SCENARIO = `name: bench-explore
until: 60s
kubelet: { version: "1.30" }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web, namespace: default }
      spec:
        containers:
          - name: app
            image: example/web:1
            readinessProbe: { exec: { command: [cat, /ready] }, periodSeconds: 5 }
    behaviour:
      app:
        runs: [{ exitAfter: 20s, exitCode: 1 }]
        onSigterm: { exitAfter: 2s, exitCode: 0 }
timeline:
  - { at: 0s, create: web }
  - { at: 45s, delete: web }
`;

function runsPerSec(file: string, out: string, jobs: number): number {
  const args = [join(ROOT, "bin/kubelet-sim.mjs"), "explore", file, "--runs", String(RUNS), "--jobs", String(jobs), "--json", "--no-shrink", "--out", out];
  const r = spawnSync(process.execPath, args, { encoding: "utf8", timeout: 600_000 });
  if (r.status !== 0) throw new Error(`explore --jobs ${jobs} exited ${String(r.status)}: ${r.stderr}`);
  const line = JSON.parse(r.stdout.trim()) as { runsPerSec: number; runs: number };
  if (line.runs !== RUNS) throw new Error(`explore --jobs ${jobs} ran ${line.runs} runs, expected ${RUNS}`);
  return line.runsPerSec;
}

/**
 * The control: two `--jobs 1` explorations as two processes at once, their summed rate. What two
 * threads can gain is bounded by what this machine gives two independent processes (on these
 * 2-vCPU machines about 1.5x, not 2x), so jobsSpeedup is best read against this figure.
 */
function twoProcessesRunsPerSec(file: string, out: string): number {
  const cmd = (k: number) =>
    [process.execPath, join(ROOT, "bin/kubelet-sim.mjs"), "explore", file, "--runs", String(RUNS), "--jobs", "1", "--json", "--no-shrink", "--out", out]
      .map((a) => `'${a}'`).join(" ") + ` > '${join(out, `control-${k}.json`)}'`;
  const r = spawnSync("bash", ["-c", `${cmd(1)} & ${cmd(2)}; wait`], { encoding: "utf8", timeout: 600_000 });
  if (r.status !== 0) throw new Error(`explore control exited ${String(r.status)}: ${r.stderr}`);
  let sum = 0;
  for (const k of [1, 2]) sum += (JSON.parse(readFileSync(join(out, `control-${k}.json`), "utf8").trim()) as { runsPerSec: number }).runsPerSec;
  return sum;
}

export function benchExplore(): BenchLine {
  const dir = mkdtempSync(join(tmpdir(), "kubelet-sim-bench-explore-"));
  try {
    const file = join(dir, "bench-explore.yaml");
    writeFileSync(file, EXPLORE_BENCH_SCENARIO);
    let one = 0;
    let two = 0;
    let control = 0;
    for (let i = 0; i < REPEATS; i++) {
      one = Math.max(one, runsPerSec(file, dir, 1));
      two = Math.max(two, runsPerSec(file, dir, 2));
      control = Math.max(control, twoProcessesRunsPerSec(file, dir));
    }
    const ratio = (x: number) => Math.round(x * 100) / 100;
    return {
      name: "explore", runsPerSec: one, runsPerSecJobs2: two, jobsSpeedup: ratio(two / one),
      twoProcessesRunsPerSec: ratio(control), machineSpeedup: ratio(control / one), poolEfficiency: ratio(two / control), runs: RUNS,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
