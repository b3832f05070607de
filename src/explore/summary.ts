// What an exploration says when it ends: a few lines for people (the failing run's replay key
// first, as TigerBeetle prints the seed first) and one JSON line for tools. Both are pure functions
// of an ExploreSummary: the report's serializable part, which a shard also writes to a file so that
// `kubelet-sim merge` can say the same of the shards together (merge.ts).
import { formatDuration } from "../sim/duration.ts";
import { digestRecords } from "../sim/digest.ts";
import type { ExplorePlan, RunSummary } from "./context.ts";
import type { DeterminismReport } from "./determinism.ts";
import type { ExploreReport, StopReason } from "./explorer.ts";
import { describeFailure, type Failure } from "./failure.ts";
import { deviationCount } from "./shrink.ts";
import { coverageLines, coverageOf } from "./coverage_summary.ts";

/** An exploration's outcome, JSON-safe. */
export interface ExploreSummary {
  plan: ExplorePlan;
  strategy: string;
  /** The runs that ran, in index order (without trace lines). */
  runs: RunSummary[];
  failures: number;
  stoppedBy: StopReason;
  exploreMs: number;
  timeToFirstFailureMs: number | null;
  /** The failure as shrunk (or as found when not shrunk). */
  failure: Failure | null;
  shrink: { runs: number; ms: number; exhausted: boolean; log: string[]; toDeviations: number } | null;
  repro: { path: string; scenarioPath: string; replayKey: string } | null;
  /** The failing run as found, written before shrinking; null when not shrunk (the repro is that run). */
  asFound: { path: string; replayKey: string } | null;
  determinism: DeterminismReport | null;
}

export interface ExploreJsonLine {
  runs: number;
  violations: number;
  runsPerSec: number | null;
  repro: string | null;
  /** The record of the failing run as found (before shrinking); null when not shrunk. */
  reproAsFound: string | null;
  invariant: string | null;
  timeToFirstViolationMs: number | null;
  /** Beyond the fixed fields: what failed when it is not an invariant, and how the search went. */
  failure: { kind: string; id: string; message: string } | null;
  strategy: string;
  seed: number;
  stoppedBy: string;
  shrunk: { fromDeviations: number; toDeviations: number; runs: number } | null;
  determinism: { checked: number; ok: boolean } | null;
  /** The digest of the runs that ran (index, seed, identity of each): equal digests, the same runs. */
  runsDigest: string;
  /** The coverage reached (coverage.ts), when measured: features, the last run that added one, whether it stopped growing. */
  coverage: { features: number; byFamily: Record<string, number>; lastNewRun: number; plateau: number | null } | null;
}

export function summarize(report: ExploreReport): ExploreSummary {
  const s = report.shrink;
  return {
    plan: report.plan,
    strategy: report.strategy,
    runs: report.runs.map(({ lines: _lines, ...run }) => run),
    failures: report.failures,
    stoppedBy: report.stoppedBy,
    exploreMs: report.exploreMs,
    timeToFirstFailureMs: report.timeToFirstFailureMs,
    failure: report.found?.failure ?? report.first?.failure ?? null,
    shrink: s === null ? null : { runs: s.runs, ms: s.ms, exhausted: s.exhausted, log: s.log, toDeviations: deviationCount(s.final.choices) },
    repro: report.repro === null ? null : { path: report.repro.path, scenarioPath: report.repro.scenarioPath, replayKey: report.repro.record.replayKey },
    asFound: report.asFound === null ? null : { path: report.asFound.path, replayKey: report.asFound.record.replayKey },
    determinism: report.determinism,
  };
}

/** The first failing run, if any. */
export function firstFailing(s: ExploreSummary): RunSummary | null {
  return s.runs.find((r) => r.failure !== null) ?? null;
}

export function runsPerSec(s: ExploreSummary): number | null {
  if (s.exploreMs <= 0) return null;
  return Math.round((s.runs.length / (s.exploreMs / 1000)) * 10) / 10;
}

/** The trace digest (sim/digest.ts) of [index, seed, identity] for every run, in index order. */
export function runsDigest(runs: readonly RunSummary[]): string {
  return digestRecords(runs.map((r) => [r.index, r.seed, r.identity]));
}

export function jsonLine(s: ExploreSummary): ExploreJsonLine {
  const f = s.failure;
  const first = firstFailing(s);
  return {
    runs: s.runs.length,
    violations: s.failures,
    runsPerSec: runsPerSec(s),
    repro: s.repro?.path ?? null,
    reproAsFound: s.asFound?.path ?? null,
    invariant: f !== null && f.kind === "invariant" ? f.id : null,
    timeToFirstViolationMs: s.timeToFirstFailureMs === null ? null : Math.round(s.timeToFirstFailureMs),
    failure: f === null ? null : { kind: f.kind, id: f.id, message: f.message },
    strategy: s.strategy,
    seed: s.plan.seed,
    stoppedBy: s.stoppedBy,
    shrunk: s.shrink === null || first === null ? null : { fromDeviations: first.deviations, toDeviations: s.shrink.toDeviations, runs: s.shrink.runs },
    determinism: s.determinism === null ? null : { checked: s.determinism.checked, ok: s.determinism.ok },
    runsDigest: runsDigest(s.runs),
    coverage: coverageJson(s),
  };
}

function coverageJson(s: ExploreSummary): ExploreJsonLine["coverage"] {
  const c = coverageOf(s.runs, s.plan.coverage);
  return c === null ? null : { features: c.features, byFamily: c.byFamily, lastNewRun: c.lastNewRun, plateau: c.plateau };
}

/** The `run` command of a run of the plan: complete only without swarm draws and with the failing invariant in the file. */
export function runKey(s: ExploreSummary, seed: number): string {
  return `kubelet-sim run ${s.plan.file} --seed ${seed} --strategy ${s.strategy}${s.plan.overrideFlags}`;
}

/**
 * The command that shows the failing run as found: `replay` of the record written before shrinking
 * (or of the repro, when it was not shrunk), which carries the run's swarm draws, the explored
 * invariants and its choices. Without a record (no --out) there is only the `run` command, which
 * lacks those: it is printed as the plan's, not as the run's replay.
 */
export function asFoundKey(s: ExploreSummary, seed: number): string {
  if (s.asFound !== null) return s.asFound.replayKey;
  if (s.shrink === null && s.repro !== null) return s.repro.replayKey;
  return `${runKey(s, seed)}  (without --out no record was written; this command runs the scenario file as written${s.plan.swarm ? ", without the run's swarm draws" : ""})`;
}

export function humanSummary(s: ExploreSummary): string {
  const out: string[] = [];
  const rate = runsPerSec(s);
  const time = s.exploreMs > 0 ? ` in ${formatDuration(Math.round(s.exploreMs))} (${rate} runs/s)` : "";
  const swarm = s.plan.swarm === "none" ? "" : s.plan.swarm === "auto" ? ", swarm auto" : ", swarm";
  out.push(`explore ${s.plan.file}: strategy ${s.strategy}, seed ${s.plan.seed}${swarm}`);
  const first = firstFailing(s);
  if (first === null) {
    const why = s.stoppedBy === "time-budget" ? " (stopped by the time budget)" : "";
    out.push(`${s.runs.length} runs${time}: no failure${why}`);
  } else {
    out.push(`# replay the run as found: ${asFoundKey(s, first.seed)}`);
    out.push(`FAIL run ${first.index} (seed ${first.seed}), ${s.failures} failing of ${s.runs.length} runs${time}`);
    out.push(`  ${describeFailure(first.failure!)}`);
  }
  if (s.shrink !== null && first !== null) {
    const k = s.shrink;
    out.push(`shrunk in ${k.runs} runs (${formatDuration(Math.round(k.ms))})${k.exhausted ? ", budget used up" : ""}: ${first.deviations} → ${k.toDeviations} deviations from fifo`);
    for (const line of k.log) out.push(`  ${line}`);
  }
  if (s.repro !== null) {
    out.push(`repro: ${s.repro.path} (scenario ${s.repro.scenarioPath})`);
    out.push(`# replay: ${s.repro.replayKey}`);
  }
  out.push(...coverageLines(coverageOf(s.runs, s.plan.coverage), s.runs.length));
  out.push(...determinismLines(s.determinism));
  return `${out.join("\n")}\n`;
}

function determinismLines(d: DeterminismReport | null): string[] {
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
