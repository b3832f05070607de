// One exploration's fixed inputs (the plan: serializable, so worker threads get the same one) and
// the run function every exploration run, shrinking run and repro check goes through. Run i is a
// function of (plan, i) alone.
//
// A run's identity, what the jobs/shards equivalence and the determinism check compare, is the
// digest of its recorded choices plus its verdict (runIdentity): a run is a function of its
// scenario, seed and choices, so two runs with equal identities are the same run. Exploration runs
// are therefore not hashed and build only the records the checks read (lazy records, sim/trace.ts).
// The full trace hash is computed, by running again with every record, for the runs a
// determinism check samples, for a sample of failing runs (every FAILURE_HASH_EVERY-th index: the
// check that lazy records changed nothing), and for a failure that is reported, when it is run
// again to be written (explorer.ts's reproduceRun). Running every failing run twice doubled the
// cost of a form that fails often (FoundationDB's simulator likewise re-runs a sample to check
// determinism rather than hashing everything).
//
// runBatch runs several indices at once in lockstep (lockstep.ts): each run is the run it is
// alone, only the host's order of work interleaves them, for the CPU caches' sake.
import { startSimulation, type SimulationHandle, type SimulationResult } from "../simulate.ts";
import { compileClusterPlan, type ClusterPlan } from "../node/plan.ts";
import { formatStrategy, LineSink, type Sim, type StrategySpec, type TraceRecord, type TraceSink } from "../sim/index.ts";
import type { Scenario } from "../scenario/index.ts";
import type { InvariantInfo, InvariantMonitor, Violation } from "../check/invariants.ts";
import { kindsOf } from "../check/dispatch.ts";
import { classifyFailure, sameFailure, type Failure } from "./failure.ts";
import { compileRawOrThrow, type RawScenario } from "./raw.ts";
import { runSeed } from "./seeds.ts";
import { applyKnobs, applyKnobsRaw, drawKnobs, type Knobs, type KnobSpace } from "./knobs.ts";
import { knobSpaceFor, type SwarmMode } from "./swarm.ts";
import { advanceInLockstep, lockstepRuns } from "./lockstep.ts";

/**
 * How runs choose (fifo only when a recorded run is replayed under its own name). guided
 * (explore/guided.ts) makes each run's schedule from its island's corpus, and a run with nothing
 * to follow schedules as pos does.
 */
export type ExploreStrategy =
  | { name: "fifo" }
  | { name: "random" }
  | { name: "pct"; depth: number; steps: number }
  | { name: "pos" }
  | { name: "guided"; islands: number };

export interface ExplorePlan {
  /** The scenario file as the user named it: the runs' replay keys carry it. */
  file: string;
  /** The scenario with a `never:` expectation for every explored invariant (and `swarm`, if declared). */
  raw: RawScenario;
  strategy: ExploreStrategy;
  /** The exploration seed S: run i uses runSeed(S, i). */
  seed: number;
  invariants: string[];
  /** Which knobs each run draws: none, the file's `swarm` ranges, or the generic ones (`--swarm auto`). */
  swarm: SwarmMode;
  /** Whether runs measure coverage (coverage.ts): always under guided, on request otherwise. */
  coverage: boolean;
  /** The --kubelet-version, --variant and --feature-gate flags the runs were explored under ("" for none): replay keys carry them. */
  overrideFlags: string;
}

/** What one run left behind: small, so worker threads send it back cheaply. */
export interface RunSummary {
  index: number;
  seed: number;
  /** The choices' digest and the verdict: "<16 hex>/<verdict>". */
  identity: string;
  /** The trace hash: for the runs a determinism check samples and the sampled failing runs (failureHashSampled); null for the others. */
  traceHash: string | null;
  verdict: string;
  events: number;
  choices: number;
  deviations: number;
  failure: Failure | null;
  /** The canonical trace lines, only when asked for (determinism checks). */
  lines?: string[];
  /** The coverage features this run reached first in its thread or island (coverage.ts), when measured and any. */
  newFeatures?: string[];
  /** How a guided run was made (explore/guided.ts): for failing runs and determinism samples. */
  genome?: import("./guided.ts").Genome;
}

export interface RunOptions {
  strategy?: StrategySpec;
  strategyLabel?: string;
  scenarioFile?: string;
  keepLines?: boolean;
  /** false: no trace hash, and only the records the checks read are built (lazy records). */
  hash?: boolean;
  /** More sinks (coverage). */
  sinks?: readonly TraceSink[];
}

/** A run's scenario: compiled for the run, raw (for a repro file) when asked. */
export interface RunScenario {
  knobs: Knobs | null;
  scenario: Scenario;
  raw(): RawScenario;
}

export interface ContextRun {
  result: SimulationResult;
  failure: Failure | null;
  lines: string[] | null;
}

/** Runs monitors that are not in the registry (tests' own invariants) beside the Checker. */
export class ExtraMonitors implements TraceSink {
  readonly wantsLines = false;
  readonly kinds?: ReadonlySet<string>;
  readonly violations: Violation[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly monitors: InvariantMonitor[]) {
    const kinds = monitors.map(kindsOf);
    if (kinds.every((k) => k !== undefined)) this.kinds = new Set(kinds.flatMap((k) => k!));
  }
  write(rec: TraceRecord): void {
    for (const m of this.monitors) this.note(m.observe(rec));
  }
  advance(t: number): void {
    for (const m of this.monitors) if (m.advance !== undefined) this.note(m.advance(t));
  }
  private note(v: Violation | null): void {
    if (v !== null && !this.seen.has(v.invariant)) {
      this.seen.add(v.invariant);
      this.violations.push(v);
    }
  }
}

export class RunContext {
  readonly base: Scenario;
  readonly label: string;
  /** The base scenario's nodes, compiled once: every run of it is built from this. */
  private readonly basePlan: ClusterPlan;
  /** The knobs each run draws (null: none). */
  readonly space: KnobSpace | null;
  /** The strategy a run is made with when no other is given (guided's runs without a tape: pos). */
  readonly runnable: StrategySpec;
  /** How many runs runBatch advances together (lockstep.ts): 1 for a big scenario. */
  readonly lockstep: number;

  constructor(
    readonly plan: ExplorePlan,
    /** Monitors beyond the registry; they run in this thread only. */
    readonly extraInvariants: readonly InvariantInfo[] = [],
  ) {
    this.base = compileRawOrThrow(plan.raw, plan.file);
    this.runnable = plan.strategy.name === "guided" ? { name: "pos" } : plan.strategy;
    this.label = plan.strategy.name === "guided" ? `guided:${plan.strategy.islands}` : formatStrategy(plan.strategy);
    this.basePlan = compileClusterPlan(this.base);
    this.space = knobSpaceFor(plan.swarm, plan.raw, this.base);
    this.lockstep = lockstepRuns(this.base);
  }

  /** Run i's scenario: the plan's, or with its knobs drawn from the run's seed. */
  scenarioFor(index: number): RunScenario {
    return this.withKnobs(this.space === null ? null : drawKnobs(this.space, runSeed(this.plan.seed, index)));
  }

  /** The plan's scenario with these knobs (knobs.ts): no schema on the way, so as cheap as the plan's own. */
  withKnobs(knobs: Knobs | null): RunScenario {
    const space = this.space;
    if (knobs === null || space === null) return { knobs: null, scenario: this.base, raw: () => this.plan.raw };
    return { knobs, scenario: applyKnobs(this.base, space, knobs), raw: () => applyKnobsRaw(this.plan.raw, space, knobs) };
  }

  /**
   * Exploration run i: lazily (no hash), unless `full` (a determinism sample: every record, the
   * hash, the lines). A sampled failing lazy run (failureHashSampled) runs again in full for its
   * trace hash, and must be the same run (identity and failure), or lazy records changed what a
   * run does (a bug); the other failing runs get their hash when they are reproduced.
   */
  runIndex(index: number, full = false, sinks: readonly TraceSink[] = []): RunSummary {
    return this.runAs(index, runSeed(this.plan.seed, index), this.scenarioFor(index).scenario, full, { sinks }).summary;
  }

  /**
   * Run `index` as given (seed, scenario, strategy): runIndex's body, for runs whose inputs are
   * not the plan's draws for that index (guided). `opts.sinks` see the first run only.
   */
  runAs(index: number, seed: number, scenario: Scenario, full: boolean, opts: { strategy?: StrategySpec; sinks?: readonly TraceSink[] } = {}): { summary: RunSummary; run: ContextRun } {
    return this.completeAs(this.startAs(index, seed, scenario, full, opts));
  }

  /**
   * runAs's first half: the run built and started, not yet run. Advance its `sim` (or not), then
   * completeAs ends it and settles it as runAs would: the batches' way in (runBatch, guided's).
   */
  startAs(index: number, seed: number, scenario: Scenario, full: boolean, opts: { strategy?: StrategySpec; sinks?: readonly TraceSink[] } = {}): PendingRun {
    const strategy = opts.strategy === undefined ? {} : { strategy: opts.strategy };
    const started = this.start(scenario, seed, { keepLines: full, hash: full, ...strategy, sinks: opts.sinks ?? [] });
    return { index, seed, scenario, full, strategy: opts.strategy, started, sim: started.handle.sim };
  }

  /** runAs's second half: the started run to its end, classified and settled (a sampled failing lazy run run again in full). */
  completeAs(p: PendingRun): { summary: RunSummary; run: ContextRun } {
    return this.settle(p.index, p.seed, p.scenario, p.full, p.strategy, this.complete(p.started));
  }

  /**
   * Exploration runs `indices` as runIndex runs each (the same summaries), advanced in lockstep
   * (lockstep.ts) when the scenario is small enough: `full` and `sinks` per index as runIndex's.
   */
  runBatch(indices: readonly number[], full: (index: number) => boolean, sinks: (index: number) => readonly TraceSink[] = () => []): RunSummary[] {
    if (indices.length < 2 || this.lockstep < 2) return indices.map((i) => this.runIndex(i, full(i), sinks(i)));
    const runs = indices.map((index) => this.startAs(index, runSeed(this.plan.seed, index), this.scenarioFor(index).scenario, full(index), { sinks: sinks(index) }));
    advanceInLockstep(runs.map((r) => r.sim));
    return runs.map((r) => this.completeAs(r).summary);
  }

  /** A first run's summary: a sampled failing lazy run is run again in full first (runIndex). */
  private settle(index: number, seed: number, scenario: Scenario, full: boolean, strategy: StrategySpec | undefined, first: ContextRun): { summary: RunSummary; run: ContextRun } {
    let r = first;
    if (!full && r.failure !== null && failureHashSampled(index)) {
      const again = this.run(scenario, seed, { hash: true, ...(strategy === undefined ? {} : { strategy }) });
      if (runIdentity(again) !== runIdentity(r) || !sameFailure(again.failure, r.failure)) {
        throw new Error(`run ${index} (seed ${seed}) ran otherwise with every record built (${runIdentity(again)}) than without (${runIdentity(r)}): a bug in kubelet-sim's lazy records`);
      }
      r = again;
    }
    const summary: RunSummary = {
      index,
      seed,
      identity: runIdentity(r),
      traceHash: r.result.run.traceHash === "" ? null : r.result.run.traceHash,
      verdict: r.result.run.verdict,
      events: r.result.run.events,
      choices: r.result.run.choices.length,
      deviations: r.result.run.choices.deviations(),
      failure: r.failure,
    };
    if (r.lines !== null) summary.lines = r.lines;
    return { summary, run: r };
  }

  /** Any run of any scenario under this plan's strategy (or the one given), classified. */
  run(scenario: Scenario, seed: number, opts: RunOptions = {}): ContextRun {
    return this.complete(this.start(scenario, seed, opts));
  }

  /** A run built and started, not yet run (run() finishes it at once, runBatch after its lockstep). */
  private start(scenario: Scenario, seed: number, opts: RunOptions): StartedRun {
    // The canonical JSON lines the trace hash digests, one chunk per line (a chunk limit of 0).
    const lines: string[] | null = opts.keepLines === true ? [] : null;
    const extra = this.extraInvariants.length === 0 ? null : new ExtraMonitors(this.extraInvariants.map((i) => i.make(scenario)));
    const sinks: TraceSink[] = [...(lines === null ? [] : [new LineSink((text) => lines.push(text.slice(0, -1)), 0)]), ...(extra === null ? [] : [extra]), ...(opts.sinks ?? [])];
    const handle = startSimulation(scenario, {
      seed,
      strategy: opts.strategy ?? this.runnable,
      strategyLabel: opts.strategyLabel ?? this.label,
      scenarioFile: opts.scenarioFile ?? this.plan.file,
      sinks,
      keepRecords: false,
      hash: opts.hash ?? true,
      // A run with knobs drawn has a scenario of its own, whose pods are the base's (plan.ts samePods).
      plan: scenario === this.base ? this.basePlan : compileClusterPlan(scenario, this.basePlan),
    });
    return { scenario, handle, extra, lines };
  }

  /** The started run to its end (simulate()'s finish), classified. */
  private complete(s: StartedRun): ContextRun {
    const result = s.handle.finish();
    return { result, failure: classifyFailure(s.scenario, result, s.extra?.violations ?? []), lines: s.lines };
  }
}

/** A run started by startAs: advance `sim` (advanceInLockstep), then completeAs ends it. */
export interface PendingRun {
  readonly index: number;
  readonly seed: number;
  readonly scenario: Scenario;
  readonly full: boolean;
  readonly strategy: StrategySpec | undefined;
  readonly started: StartedRun;
  /** The run's kernel, to advance before completeAs. */
  readonly sim: Sim;
}

/** A run context's run between its start and its end. */
interface StartedRun {
  scenario: Scenario;
  handle: SimulationHandle;
  extra: ExtraMonitors | null;
  lines: string[] | null;
}

/** Every this-many-th run index, a failing lazy run is run again in full (its hash, and the lazy-vs-full check). */
export const FAILURE_HASH_EVERY = 8;

/** Whether a failing lazy run of this index is run again in full at once: a function of the index, so the same whatever the jobs. */
export function failureHashSampled(index: number): boolean {
  return index % FAILURE_HASH_EVERY === 0;
}

/** A run's identity: the digest of its choices and its verdict (see the top of this file). */
export function runIdentity(r: ContextRun): string {
  return `${r.result.run.choices.digest()}/${r.result.run.verdict}`;
}
