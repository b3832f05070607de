// The hunt-speed line: each race's hunt form (scenarios/races/hunt/rNN-hunt.yaml) explored as a
// user explores it, `kubelet-sim explore FILE` with the form's own settings (its swarm ranges, the
// default strategy with the steps explore calibrates for it, every invariant), for a fixed number
// of runs (--keep-going, so a violation does not end the exploration early) and without shrinking.
// The figure is the exploration's own runs/s from its JSON line, one per form, with the runs per
// second of the whole command's CPU time beside it (a loaded machine disturbs it far less); the
// slowest form by each is named.
// Issue 21's goal: at least 300 runs/s on every form. `--against` drives the same command on both
// trees (against/hunt_speed.ts); here it runs on this tree alone.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runTimedSync } from "./against/proc.ts";
import { BenchArgError } from "./args.ts";
import type { BenchLine } from "./kernel.ts";

/** Runs per form: enough that the code is warm for most of them, few enough for 25 forms twice. */
export const HUNT_RUNS = 100;
const ROOT = join(import.meta.dirname, "..", "..");
const HUNT_DIR = join("scenarios", "races", "hunt");

/** The hunt forms under root: all of them in race order, or those of the races named (["r10"]). */
export function huntForms(root: string, ids: readonly string[] | null): string[] {
  const dir = join(root, HUNT_DIR);
  if (ids === null) return readdirSync(dir).filter((f) => /^r\d\d-hunt\.yaml$/.test(f)).sort().map((f) => join(dir, f));
  return ids.map((id) => {
    const file = join(dir, `${id}-hunt.yaml`);
    if (!existsSync(file)) throw new BenchArgError(`--forms ${id}: there is no hunt form ${join(HUNT_DIR, `${id}-hunt.yaml`)}`);
    return file;
  });
}

/** "r10-hunt" for …/r10-hunt.yaml. */
export function formName(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1).replace(/\.yaml$/, "");
}

/** The explore command of the line, after `bin/kubelet-sim.mjs`. */
export function huntExploreArgs(file: string, runs: number, outDir: string): string[] {
  return ["explore", file, "--runs", String(runs), "--keep-going", "--no-shrink", "--json", "--out", outDir];
}

/** What a finished explore command left: its exit code and output. */
export interface ExploreOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The runs/s of an exploration from its JSON line, which must count `runs` runs. Exit 0 is no
 * failure; exit 1 (a violation found) is accepted only where violations are expected (the hunt
 * forms hunt races; the explore line's scenario breaks no invariant).
 */
export function exploreRate(what: string, r: ExploreOutcome, runs: number, violationsExpected: boolean): number {
  if (!(r.code === 0 || (r.code === 1 && violationsExpected))) {
    throw new Error(`${what} exited ${String(r.code)}: ${r.stderr.trim().split("\n").slice(-5).join("\n")}`);
  }
  const last = r.stdout.trim().split("\n").at(-1) ?? "";
  let line: { runs?: unknown; runsPerSec?: unknown };
  try {
    line = JSON.parse(last) as typeof line;
  } catch {
    throw new Error(`${what} printed no JSON line: ${last.slice(0, 200)}`);
  }
  if (line.runs !== runs) throw new Error(`${what} ran ${String(line.runs)} runs, expected ${runs}`);
  if (typeof line.runsPerSec !== "number" || !(line.runsPerSec > 0)) throw new Error(`${what} gave no rate (runsPerSec ${String(line.runsPerSec)})`);
  return line.runsPerSec;
}

/** The slowest of named rates. */
export function slowest(rates: ReadonlyMap<string, number>): { form: string; runsPerSec: number } {
  let worst: { form: string; runsPerSec: number } | null = null;
  for (const [form, runsPerSec] of rates) if (worst === null || runsPerSec < worst.runsPerSec) worst = { form, runsPerSec };
  if (worst === null) throw new Error("hunt-speed: no form measured");
  return worst;
}

/** `npm run bench -- hunt-speed [--forms r01,r10]`: one line per form on this tree, then the slowest by wall and by CPU time. */
export function benchHuntSpeed(ids: readonly string[] | null): BenchLine[] {
  const out = mkdtempSync(join(tmpdir(), "kubelet-sim-bench-hunt-"));
  try {
    const rates = new Map<string, number>();
    const cpuRates = new Map<string, number>();
    const lines: BenchLine[] = [];
    for (const file of huntForms(ROOT, ids)) {
      const r = runTimedSync(process.execPath, [join(ROOT, "bin", "kubelet-sim.mjs"), ...huntExploreArgs(file, HUNT_RUNS, out)], { cwd: ROOT });
      const rate = exploreRate(`explore ${formName(file)}`, r, HUNT_RUNS, true);
      const cpuRate = Math.round((HUNT_RUNS / (r.cpuMs / 1000)) * 10) / 10;
      rates.set(formName(file), rate);
      cpuRates.set(formName(file), cpuRate);
      lines.push({ name: "hunt-speed", form: formName(file), runsPerSec: rate, runsPerCpuSec: cpuRate, runs: HUNT_RUNS });
    }
    const worst = slowest(rates);
    const worstCpu = slowest(cpuRates);
    lines.push({ name: "hunt-speed", form: "slowest", slowestForm: worst.form, runsPerSec: worst.runsPerSec, slowestFormByCpu: worstCpu.form, runsPerCpuSec: worstCpu.runsPerSec, goalRunsPerSec: 300 });
    return lines;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
