// Who makes exploration run i, in a thread: the plan's draws for i (random, pct, pos, with or
// without swarm knobs), or the guided strategy's islands (guided.ts). Either measures coverage
// when asked (guided always does: it feeds on it), and names, per run, the features it reached
// first in this thread or island; the exploration's coverage after run i is the union of those
// over runs 0..i, the same whatever the threads or shards (summary.ts).
import type { StrategySpec } from "../sim/index.ts";
import type { RunContext, RunScenario, RunSummary } from "./context.ts";
import { CoverageSink } from "./coverage.ts";
import { genomeScenario, genomeStrategy, GuidedRunner, runGenome } from "./guided.ts";

export interface Runner {
  runIndex(index: number, full: boolean): RunSummary;
  /** What a run of this exploration ran: its scenario, and its strategy when not the plan's. */
  inputsOf(summary: RunSummary): { scenario: RunScenario; strategy: StrategySpec | undefined };
  /** The run a summary names, run again here (determinism checks). */
  again(summary: RunSummary, full: boolean): RunSummary;
}

export function makeRunner(ctx: RunContext, coverage: boolean): Runner {
  return ctx.plan.strategy.name === "guided" ? new Guided(ctx) : new Plain(ctx, coverage);
}

class Plain implements Runner {
  private readonly seen = new Set<string>();

  constructor(
    private readonly ctx: RunContext,
    private readonly coverage: boolean,
  ) {}

  runIndex(index: number, full: boolean): RunSummary {
    if (!this.coverage) return this.ctx.runIndex(index, full);
    const sink = new CoverageSink();
    const summary = this.ctx.runIndex(index, full, [sink]);
    const fresh: string[] = [];
    for (const f of sink.features) {
      if (this.seen.has(f)) continue;
      this.seen.add(f);
      fresh.push(f);
    }
    if (fresh.length > 0) summary.newFeatures = fresh;
    return summary;
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

  constructor(private readonly ctx: RunContext) {
    this.islands = new GuidedRunner(ctx);
  }

  runIndex(index: number, full: boolean): RunSummary {
    return this.islands.runIndex(index, full);
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
