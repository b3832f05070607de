// Exploration: many runs of one scenario under a randomized strategy, stopped at the first failure
// (unless told to keep going), which is then shrunk and written as a repro file. The set of runs is
// a function of (scenario, strategy, seed, runs) alone; jobs and shards only say who runs which.
import type { InvariantInfo } from "../check/invariants.ts";
import { NO_CLOCK, type Clock } from "./budget.ts";
import { RunContext, runIdentity, type ExplorePlan, type RunSummary } from "./context.ts";
import { checkDeterminism, sampleIndices, type DeterminismReport } from "./determinism.ts";
import { sameFailure } from "./failure.ts";
import { makePlan, type PlanRequest } from "./plan.ts";
import { runPool } from "./pool.ts";
import { makeRunner, type Runner } from "./runner.ts";
import { islandOf, guidedShardIndices } from "./guided.ts";
import { writeRepro, type WrittenRepro } from "./repro.ts";
import { shardIndices, type Shard } from "./seeds.ts";
import { shrinkFailure, type Found, type ShrinkOptions, type ShrinkResult } from "./shrink.ts";

export interface ExploreOptions extends PlanRequest {
  runs: number;
  /** Worker threads (1: this thread). */
  jobs?: number;
  shard?: Shard;
  /** Stop handing out runs after this much wall time (needs a clock). */
  timeBudgetMs?: number | null;
  /** Run every run even after a failure (the first one is still the one shrunk). */
  keepGoing?: boolean;
  checkDeterminism?: boolean;
  /** false: report the failure as found, unshrunk. */
  shrink?: ShrinkOptions | false;
  /** Where repro files go; null: write none. */
  outDir?: string | null;
  /** Wall time in ms, for budgets and rates; the CLI passes the host's. */
  clock?: Clock;
  onProgress?: (p: ExploreProgress) => void;
  /** Monitors outside the registry (a test's own); only with jobs 1. */
  extraInvariants?: readonly InvariantInfo[];
}

export interface ExploreProgress {
  phase: "explore" | "shrink" | "determinism";
  done: number;
  total: number;
  failures: number;
  elapsedMs: number;
}

export type StopReason = "done" | "failure" | "time-budget";

export interface ExploreReport {
  plan: ExplorePlan;
  strategy: string;
  /** The runs that ran, in index order. */
  runs: RunSummary[];
  failures: number;
  first: RunSummary | null;
  stoppedBy: StopReason;
  exploreMs: number;
  timeToFirstFailureMs: number | null;
  found: Found | null;
  shrink: ShrinkResult | null;
  repro: WrittenRepro | null;
  /** The failing run as found, written before shrinking (null when not shrunk: then `repro` is it). */
  asFound: WrittenRepro | null;
  determinism: DeterminismReport | null;
}

interface Collected {
  runs: RunSummary[];
  stoppedBy: StopReason;
  exploreMs: number;
  timeToFirstFailureMs: number | null;
}

/**
 * Explores with `jobs` worker threads (this thread when 1) and reports through `done`; the report
 * is the same whatever the number of threads. (A callback, not a promise: src/ outside cli/ makes
 * no promises; see pool.ts.)
 */
export function exploreParallel(opts: ExploreOptions, done: (err: Error | null, report: ExploreReport | null) => void): void {
  const jobs = opts.jobs ?? 1;
  const attempt = <T>(f: () => T): { ok: true; value: T } | { ok: false; err: Error } => {
    try {
      return { ok: true, value: f() };
    } catch (err) {
      return { ok: false, err: err instanceof Error ? err : new Error(String(err)) };
    }
  };
  if (jobs <= 1) {
    const r = attempt(() => exploreSync(opts));
    return r.ok ? done(null, r.value) : done(r.err, null);
  }
  const started = attempt(() => {
    if ((opts.extraInvariants ?? []).length > 0) throw new Error("extraInvariants run in this thread only: use jobs 1");
    return new Session(makePlan(opts), opts);
  });
  if (!started.ok) return done(started.err, null);
  const s = started.value;
  const launched = attempt(() =>
    runPool(s.plan, {
      jobs, indices: s.indices, keepLines: s.keepLines, coverage: s.coverage, shouldStop: () => s.shouldStop(), onSummary: (r) => s.collect(r),
      ...(s.plan.strategy.name === "guided" ? { affinity: s.affinity, limit: () => s.limit() } : {}),
    }, (err) => {
      if (err !== null) return done(err, null);
      const r = attempt(() => s.finish());
      return r.ok ? done(null, r.value) : done(r.err, null);
    }),
  );
  if (!launched.ok) done(launched.err, null);
}

/** Explores in this thread. */
export function exploreSync(opts: ExploreOptions): ExploreReport {
  const s = new Session(makePlan(opts), opts);
  const size = s.runner.batchRuns;
  // Runs past a stop in a batch (a failure, the time budget) are dropped: the report is the one-by-one loop's.
  batches: for (let at = 0; at < s.indices.length; at += size) {
    if (s.shouldStop()) break;
    for (const summary of s.runner.runBatch(s.indices.slice(at, at + size), s.keepLines)) {
      s.collect(summary);
      if (s.shouldStop()) break batches;
    }
  }
  return s.finish();
}

class Session {
  readonly ctx: RunContext;
  readonly runner: Runner;
  readonly coverage: boolean;
  readonly indices: number[];
  readonly keepLines: Set<number>;
  private readonly clock: Clock;
  private readonly startMs: number;
  private readonly runs: RunSummary[] = [];
  private failures = 0;
  private firstFailureMs: number | null = null;
  private timedOut = false;

  constructor(
    readonly plan: ExplorePlan,
    private readonly opts: ExploreOptions,
  ) {
    if (!(Number.isInteger(opts.runs) && opts.runs >= 0)) throw new RangeError(`bad runs ${opts.runs}: expected a whole number >= 0`);
    this.ctx = new RunContext(plan, opts.extraInvariants ?? []);
    this.coverage = plan.coverage;
    this.runner = makeRunner(this.ctx, this.coverage);
    const s = plan.strategy;
    this.indices = s.name === "guided" ? guidedShardIndices(opts.runs, s.islands, opts.shard ?? { index: 1, count: 1 }) : shardIndices(opts.runs, opts.shard);
    this.keepLines = new Set(opts.checkDeterminism === true ? sampleIndices(this.indices) : []);
    this.clock = opts.clock ?? NO_CLOCK;
    this.startMs = this.clock();
  }

  private get elapsedMs(): number {
    return this.clock() - this.startMs;
  }

  /** Guided runs go to threads by island: every run of an island in the thread that ran its first. */
  readonly affinity = (index: number): number => islandOf(index, this.plan.strategy.name === "guided" ? this.plan.strategy.islands : 1);

  /**
   * The run indices still worth handing out are those below this: below the first failure (unless
   * keep going), none once the time budget is spent. (Guided threads run their own islands, so a
   * thread may still owe runs below a failure another thread met.)
   */
  limit(): number {
    if (this.timeIsUp()) return -1;
    if (this.opts.keepGoing === true) return Infinity;
    let first = Infinity;
    for (const r of this.runs) if (r.failure !== null && r.index < first) first = r.index;
    return first;
  }

  private timeIsUp(): boolean {
    const budget = this.opts.timeBudgetMs;
    if (budget !== undefined && budget !== null && this.elapsedMs >= budget) this.timedOut = true;
    return this.timedOut;
  }

  shouldStop(): boolean {
    if (this.failures > 0 && this.opts.keepGoing !== true) return true;
    const budget = this.opts.timeBudgetMs;
    if (budget !== undefined && budget !== null && this.elapsedMs >= budget) this.timedOut = true;
    return this.timedOut;
  }

  collect(s: RunSummary): void {
    this.runs.push(s);
    if (s.failure !== null) {
      this.failures++;
      this.firstFailureMs ??= this.elapsedMs;
    }
    this.progress("explore", this.runs.length, this.indices.length);
  }

  private progress(phase: ExploreProgress["phase"], done: number, total: number): void {
    this.opts.onProgress?.({ phase, done, total, failures: this.failures, elapsedMs: this.elapsedMs });
  }

  finish(): ExploreReport {
    const collected: Collected = {
      runs: this.runs.sort((a, b) => a.index - b.index),
      stoppedBy: this.failures > 0 && this.opts.keepGoing !== true ? "failure" : this.timedOut ? "time-budget" : "done",
      exploreMs: this.elapsedMs,
      timeToFirstFailureMs: this.firstFailureMs,
    };
    if (this.plan.strategy.name === "guided" && this.failures > 0 && this.opts.keepGoing !== true) {
      // Threads own islands, so some ran past the first failure: keep what the first thread would have run.
      const f = collected.runs.find((r) => r.failure !== null)!.index;
      collected.runs = collected.runs.filter((r) => r.index <= f);
    }
    const first = collected.runs.find((r) => r.failure !== null) ?? null;
    const determinism = this.opts.checkDeterminism === true ? this.determinism(collected.runs) : null;
    const { found, shrink, repro, asFound } = first === null ? { found: null, shrink: null, repro: null, asFound: null } : this.followUp(first);
    return {
      plan: this.plan, strategy: this.ctx.label, ...collected, failures: collected.runs.filter((r) => r.failure !== null).length, first, found, shrink, repro, asFound, determinism,
    };
  }

  private determinism(runs: readonly RunSummary[]): DeterminismReport {
    const sampled = runs.filter((r) => this.keepLines.has(r.index));
    this.progress("determinism", 0, sampled.length);
    return checkDeterminism(this.runner, sampled);
  }

  /**
   * The first failure: run again here for its tape, written as found (its replay key is the one
   * printed first: a `run` command would not carry the run's swarm draws or explored invariants),
   * then shrunk and written again.
   */
  private followUp(first: RunSummary): ReproducedRun {
    if (this.opts.shrink !== false) this.progress("shrink", 0, 1);
    const shrink = this.opts.shrink === false ? false : { ...this.opts.shrink, clock: this.opts.shrink?.clock ?? this.clock };
    return reproduceRun(this.ctx, this.runner, first, { shrink, outDir: this.opts.outDir === undefined ? "repros" : this.opts.outDir });
  }
}

/**
 * A failing run of an exploration, run again here (it must fail the same way, with the same trace
 * hash), shrunk unless told not to, and written as a repro file unless outDir is null. The
 * campaign (scripts/campaign.ts) calls it for each distinct failure, not only the first.
 */
export interface ReproducedRun {
  found: Found;
  shrink: ShrinkResult | null;
  repro: WrittenRepro | null;
  /** The run as found, written before shrinking (only when it is shrunk and written). */
  asFound: WrittenRepro | null;
}

export function reproduceRun(ctx: RunContext, runner: Runner, run: RunSummary, opts: { shrink: ShrinkOptions | false; outDir: string | null }): ReproducedRun {
  if (run.failure === null) throw new Error(`run ${run.index} did not fail: only failing runs can be reproduced`);
  const { scenario: inputs, strategy } = runner.inputsOf(run);
  const { scenario } = inputs;
  // Run again in full (every record, hashed): the same run (identity), failing the same way, with
  // the same trace hash when the exploration computed one (context.ts: most failing runs ran lazily only).
  const again = ctx.run(scenario, run.seed, strategy === undefined ? {} : { strategy });
  if (!sameFailure(again.failure, run.failure) || runIdentity(again) !== run.identity || (run.traceHash !== null && again.result.run.traceHash !== run.traceHash)) {
    throw new Error(`run ${run.index} (seed ${run.seed}) did not fail the same way when run again with every record built: kubelet-sim is not deterministic, or its lazy records changed the run (a bug)`);
  }
  const traceHash = again.result.run.traceHash;
  let found: Found = { raw: inputs.raw(), scenario, seed: run.seed, choices: again.result.run.choices.toArray(), failure: again.failure! };
  const origin = { index: run.index, seed: run.seed, choices: run.choices, deviations: run.deviations, traceHash };
  let shrink: ShrinkResult | null = null;
  let asFound: WrittenRepro | null = null;
  if (opts.shrink !== false) {
    if (opts.outDir !== null) asFound = writeRepro({ ctx, found, origin, shrink: null, outDir: opts.outDir, asFound: true });
    shrink = shrinkFailure(ctx, found, opts.shrink);
    found = shrink.final;
  }
  const repro = opts.outDir === null ? null : writeRepro({ ctx, found, origin, shrink, outDir: opts.outDir });
  return { found, shrink, repro, asFound };
}
