// What an exploration says when it ends: a few lines for people (the failing run's replay key
// first, as TigerBeetle prints the seed first) and one JSON line for tools. Pure functions of the
// report.
import { formatDuration } from "../sim/duration.ts";
import type { ExploreReport } from "./explorer.ts";
import { describeFailure } from "./failure.ts";
import { deviationCount } from "./shrink.ts";

export interface ExploreJsonLine {
  runs: number;
  violations: number;
  runsPerSec: number | null;
  repro: string | null;
  invariant: string | null;
  timeToFirstViolationMs: number | null;
  /** Beyond the fixed fields: what failed when it is not an invariant, and how the search went. */
  failure: { kind: string; id: string; message: string } | null;
  strategy: string;
  seed: number;
  stoppedBy: string;
  shrunk: { fromDeviations: number; toDeviations: number; runs: number } | null;
  determinism: { checked: number; ok: boolean } | null;
}

export function runsPerSec(report: ExploreReport): number | null {
  if (report.exploreMs <= 0) return null;
  return Math.round((report.runs.length / (report.exploreMs / 1000)) * 10) / 10;
}

export function jsonLine(report: ExploreReport): ExploreJsonLine {
  const f = report.found?.failure ?? report.first?.failure ?? null;
  return {
    runs: report.runs.length,
    violations: report.failures,
    runsPerSec: runsPerSec(report),
    repro: report.repro?.path ?? null,
    invariant: f !== null && f.kind === "invariant" ? f.id : null,
    timeToFirstViolationMs: report.timeToFirstFailureMs === null ? null : Math.round(report.timeToFirstFailureMs),
    failure: f === null ? null : { kind: f.kind, id: f.id, message: f.message },
    strategy: report.strategy,
    seed: report.plan.seed,
    stoppedBy: report.stoppedBy,
    shrunk: report.shrink === null || report.first === null ? null : {
      fromDeviations: report.first.deviations, toDeviations: deviationCount(report.shrink.final.choices), runs: report.shrink.runs,
    },
    determinism: report.determinism === null ? null : { checked: report.determinism.checked, ok: report.determinism.ok },
  };
}

/** The `run` command that shows exploration run i as found (same choices; the trace adds the explored invariants' checks). */
export function runKey(report: ExploreReport, seed: number): string {
  return `kubelet-sim run ${report.plan.file} --seed ${seed} --strategy ${report.strategy}`;
}

export function humanSummary(report: ExploreReport): string {
  const out: string[] = [];
  const rate = runsPerSec(report);
  const time = report.exploreMs > 0 ? ` in ${formatDuration(Math.round(report.exploreMs))} (${rate} runs/s)` : "";
  out.push(`explore ${report.plan.file}: strategy ${report.strategy}, seed ${report.plan.seed}${report.plan.swarm ? ", swarm" : ""}`);
  const first = report.first;
  if (first === null) {
    const why = report.stoppedBy === "time-budget" ? " (stopped by the time budget)" : "";
    out.push(`${report.runs.length} runs${time}: no failure${why}`);
  } else {
    out.push(`# replay the run as found: ${runKey(report, first.seed)}`);
    out.push(`FAIL run ${first.index} (seed ${first.seed}), ${report.failures} failing of ${report.runs.length} runs${time}`);
    out.push(`  ${describeFailure(first.failure!)}`);
  }
  if (report.shrink !== null && first !== null) {
    const s = report.shrink;
    out.push(`shrunk in ${s.runs} runs (${formatDuration(Math.round(s.ms))})${s.exhausted ? ", budget used up" : ""}: ${first.deviations} → ${deviationCount(s.final.choices)} deviations from fifo`);
    for (const line of s.log) out.push(`  ${line}`);
  }
  if (report.repro !== null) {
    out.push(`repro: ${report.repro.path} (scenario ${report.repro.scenarioPath})`);
    out.push(`# replay: ${report.repro.record.replayKey}`);
  }
  out.push(...determinismLines(report));
  return `${out.join("\n")}\n`;
}

function determinismLines(report: ExploreReport): string[] {
  const d = report.determinism;
  if (d === null) return [];
  if (d.ok) return [`determinism: ${d.checked} runs run again, identical traces`];
  const out = [`NONDETERMINISM (a bug in kubelet-sim): ${d.mismatches.length} of ${d.checked} runs gave another trace when run again`];
  for (const m of d.mismatches) {
    if (m.what === "lazy") {
      out.push(`  run ${m.index} (seed ${m.seed}): choices and verdict ${m.firstHash} with every record built, ${m.secondHash} with only the records the checks read (a monitor reads a kind it does not name)`);
      continue;
    }
    out.push(`  run ${m.index} (seed ${m.seed}): trace ${m.firstHash} then ${m.secondHash}; first difference at record ${m.record}:`);
    out.push(`    first:  ${m.first ?? "(trace ended)"}`);
    out.push(`    second: ${m.second ?? "(trace ended)"}`);
  }
  return out;
}
