// Who makes exploration run i, in a thread: the plan's draws for i (random, pct, pos, with or
// without swarm knobs), or the guided strategy's islands (guided.ts). Either measures coverage
// when asked (guided always does: it feeds on it), and names, per run, the features it reached
// first in this thread or island; the exploration's coverage after run i is the union of those
// over runs 0..i, the same whatever the threads or shards (summary.ts).
import type { StrategySpec } from "../sim/index.ts";
import type { RunContext, RunScenario, RunSummary } from "./context.ts";
import { CoverageSink } from "./coverage.ts";
import { genomeScenario, genomeStrategy, GuidedRunner, lockstepGroups, runGenome } from "./guided.ts";

export interface Runner {
  runIndex(index: number, full: boolean): RunSummary;
  /** Runs these indices (ascending) as runIndex would, one summary each in order; lockstep when it can (lockstep.ts). */
  runBatch(indices: readonly number[], keepLines: ReadonlySet<number>): RunSummary[];
  /** How many runs a batch should hold: more than one only when runBatch advances them together. */
  readonly batchRuns: number;
  /** What a run of this exploration ran: its scenario, and its strategy when not the plan's. */
  inputsOf(summary: RunSummary): { scenario: RunScenario; strategy: StrategySpec | undefined };
  /** The run a summary names, run again here (determinism checks). */
  again(summary: RunSummary, full: boolean): RunSummary;
}

export interface RunnerOptions {
  /** Guided: run one at a time, never in lockstep batches (the tests' and benches' reference). */
  oneByOne?: boolean;
}

export function makeRunner(ctx: RunContext, coverage: boolean, opts: RunnerOptions = {}): Runner {
  return ctx.plan.strategy.name === "guided" ? new Guided(ctx, opts) : new Plain(ctx, coverage);
}

class Plain implements Runner {
  private readonly seen = new Set<string>();
  readonly batchRuns: number;

  constructor(
    private readonly ctx: RunContext,
    private readonly coverage: boolean,
  ) {
    this.batchRuns = ctx.lockstep;
  }

  runIndex(index: number, full: boolean): RunSummary {
    return this.runBatch([index], new Set(full ? [index] : []))[0]!;
  }

  runBatch(indices: readonly number[], keepLines: ReadonlySet<number>): RunSummary[] {
    const full = (i: number) => keepLines.has(i);
    if (!this.coverage) return this.ctx.runBatch(indices, full);
    const sinks = new Map(indices.map((i) => [i, new CoverageSink()]));
    const summaries = this.ctx.runBatch(indices, full, (i) => [sinks.get(i)!]);
    // A run's new features are those no earlier index reached: noted in index order, as one by one.
    for (const summary of summaries) this.noteFresh(summary, sinks.get(summary.index)!);
    return summaries;
  }

  private noteFresh(summary: RunSummary, sink: CoverageSink): void {
    const fresh: string[] = [];
    for (const f of sink.features) {
      if (this.seen.has(f)) continue;
      this.seen.add(f);
      fresh.push(f);
    }
    if (fresh.length > 0) summary.newFeatures = fresh;
  }

  inputsOf(summary: RunSummary) {
    return { scenario: this.ctx.scenarioFor(summary.index), strategy: undefined };
  }

  again(summary: RunSummary, full: boolean): RunSummary {
    return this.ctx.runIndex(summary.index, full);
  }
}

class Guided implements Runner {
  private readonly islands: GuidedRunner;
  /**
   * One run per island in a batch (each is made from its island's runs before it): the islands,
   * at most a lockstep batch; 1 for a big scenario (ctx.lockstep) or a single island.
   */
  readonly batchRuns: number;

  constructor(
    private readonly ctx: RunContext,
    opts: RunnerOptions = {},
  ) {
    this.islands = new GuidedRunner(ctx);
    this.batchRuns = opts.oneByOne === true ? 1 : Math.min(this.islands.count, ctx.lockstep);
  }

  runIndex(index: number, full: boolean): RunSummary {
    return this.islands.runIndex(index, full);
  }

  /** Cut into batches of distinct islands (a shard's or a thread's indices may hold fewer islands than batchRuns), each run together. */
  runBatch(indices: readonly number[], keepLines: ReadonlySet<number>): RunSummary[] {
    const full = (i: number) => keepLines.has(i);
    return lockstepGroups(indices, this.islands.count, this.batchRuns).flatMap((group) => this.islands.runTogether(group, full));
  }

  inputsOf(summary: RunSummary) {
    const genome = this.genomeOf(summary);
    return { scenario: genomeScenario(this.ctx, genome), strategy: genomeStrategy(this.ctx, genome) };
  }

  again(summary: RunSummary, full: boolean): RunSummary {
    return runGenome(this.ctx, summary.index, this.genomeOf(summary), full).summary;
  }

  private genomeOf(summary: RunSummary) {
    if (summary.genome === undefined) throw new Error(`guided run ${summary.index} came back without its genome`);
    return summary.genome;
  }
}
