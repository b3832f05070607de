// The guided strategy: coverage-guided exploration (greybox fuzzing of schedules and knobs, after
// RFF, Wolff et al., ASPLOS 2024). A run that reaches a coverage feature (coverage.ts) no earlier
// run of its island reached joins the island's corpus with its genome (seed, knobs) and its choice
// tape; later runs mutate corpus entries: flip one choice of a tape, move one knob, splice two
// tapes, or draw new kubelet randomness (a new seed); some runs start afresh, as pos runs with
// knobs drawn from their own seed. Parents are picked with a weight that favours rare features
// (each feature counts 1/hits, hits being how many of the island's runs reached it), as RFF's
// power schedule favours rare reads-from pairs.
//
// Determinism: run i belongs to island i mod K, and its genome is a function of the plan, i and
// the island's runs before i, which the island's owner (one thread, one shard) ran in order. So
// `--jobs` and `--shard` hand out whole islands (pool.ts, seeds.ts), and every run is the same
// whoever runs it. A run's genome travels with its summary when it fails (or is sampled for a
// determinism check), so the main thread runs it again without the island's history.
import { ChoiceLog, type Choice } from "../sim/choices.ts";
import { Rng, streamSeed } from "../sim/rng.ts";
import type { StrategySpec } from "../sim/index.ts";
import type { ContextRun, RunContext, RunScenario, RunSummary } from "./context.ts";
import { CoverageSink } from "./coverage.ts";
import { drawKnobs, redrawKnob, type Knobs } from "./knobs.ts";
import { Island } from "./guided_island.ts";
import { runSeed } from "./seeds.ts";

/** How a guided run is made; with the plan, enough to run it again anywhere. */
export interface Genome {
  /** The kernel seed: the models' random draws, and the schedule once the tape is left. */
  seed: number;
  knobs: Knobs | null;
  /** The choices followed first while they fit (ChoiceLog.encode), or null. */
  tape: string | null;
  /** How it was made: "fresh", "flip #12", "knob latency.PullImage", "splice #40", "reseed". */
  how: string;
  /** The run it was made from (null for a fresh run). */
  parent: number | null;
}

export const DEFAULT_ISLANDS = 4;
export const MAX_ISLANDS = 256;

/** One run in this many starts afresh (a pos run with knobs drawn from its own seed); the others mutate an entry. */
const FRESH_ONE_IN = 2;
/**
 * Mutation weights (tuned on the discovery table's small runs): for a parent whose new features
 * point at knobs (HINTED: a step or a lifecycle call that landed in a new state), mostly knob
 * moves; otherwise schedule moves as much as knob moves.
 */
const MUTATIONS = ["fresh", "flip", "knob", "splice", "reseed"] as const;
type Mutation = (typeof MUTATIONS)[number];
const WEIGHTS: Readonly<Record<Mutation, number>> = { fresh: 0, flip: 3, knob: 3, splice: 1, reseed: 1 };
const HINTED_WEIGHTS: Readonly<Record<Mutation, number>> = { fresh: 0, flip: 2, knob: 6, splice: 1, reseed: 1 };

/** The island of run i. */
export function islandOf(index: number, islands: number): number {
  return index % islands;
}

/** The run indices of the islands a shard takes (islands k with k mod n = i-1), in order. */
export function guidedShardIndices(runs: number, islands: number, shard: { index: number; count: number }): number[] {
  if (shard.count > islands) throw new Error(`bad shard ${shard.index}/${shard.count}: a guided exploration of ${islands} islands splits into at most ${islands} shards (--islands)`);
  const out: number[] = [];
  for (let i = 0; i < runs; i++) if (islandOf(i, islands) % shard.count === shard.index - 1) out.push(i);
  return out;
}

export class GuidedRunner {
  private readonly islands = new Map<number, Island>();
  readonly count: number;

  constructor(private readonly ctx: RunContext) {
    const s = ctx.plan.strategy;
    if (s.name !== "guided") throw new Error("GuidedRunner: the plan's strategy is not guided");
    this.count = s.islands;
  }

  /** Run `index`: its island's runs before it must have run here, in order. */
  runIndex(index: number, full = false): RunSummary {
    const k = islandOf(index, this.count);
    let island = this.islands.get(k);
    if (island === undefined) {
      island = new Island(k, this.ctx.space);
      this.islands.set(k, island);
    }
    if (index !== island.next) throw new Error(`guided: run ${index} of island ${k} asked for before run ${island.next} (a guided island's runs run in order, in one thread)`);
    island.next += this.count;
    const { genome, moved } = this.genomeFor(index, island);
    const coverage = new CoverageSink();
    const { summary, run } = runGenome(this.ctx, index, genome, full, coverage);
    const fresh = island.learn(index, genome, run.result.run.choices, coverage.features);
    island.noteKnobs(moved, fresh.length > 0);
    if (fresh.length > 0) summary.newFeatures = fresh;
    if (summary.failure !== null || full) summary.genome = genome;
    return summary;
  }

  private genomeFor(index: number, island: Island): { genome: Genome; moved: string[] } {
    const moved: string[] = [];
    const genome = this.make(index, island, moved);
    return { genome, moved };
  }

  private make(index: number, island: Island, moved: string[]): Genome {
    const rng = new Rng("explore-guided", streamSeed(this.ctx.plan.seed, `explore/guided/${index}`));
    const space = this.ctx.space;
    if (island.corpus.length === 0 || rng.below(FRESH_ONE_IN) === 0) {
      const seed = runSeed(this.ctx.plan.seed, index);
      return { seed, knobs: space === null ? null : drawKnobs(space, seed), tape: null, how: "fresh", parent: null };
    }
    const parent = island.focused() ?? island.pick(rng);
    const hinted = space !== null && parent.hints.length > 0;
    const weights = MUTATIONS.map((m) => {
      if (m === "knob" && (space === null || space.defs.length === 0)) return 0;
      if (m === "splice" && island.corpus.length < 2) return 0;
      return (hinted ? HINTED_WEIGHTS : WEIGHTS)[m];
    });
    const mutation = MUTATIONS[rng.weighted(weights)]!;
    const base = { seed: parent.genome.seed, knobs: parent.genome.knobs, parent: parent.index };
    const tape = parent.tape;
    switch (mutation) {
      case "flip": {
        const at = flippable(tape, rng);
        if (at === null) return { ...base, seed: rng.uint32(), tape: tape.encode(), how: "reseed" };
        const c = tape.get(at);
        const flipped: Choice = { ...c, index: (c.index + 1 + rng.below(c.n - 1)) % c.n };
        return { ...base, tape: ChoiceLog.from([...prefix(tape, at), flipped]).encode(), how: `flip #${at}` };
      }
      case "knob": {
        // One knob, sometimes two or three; each nudged (a small move) or drawn again, half and
        // half. Mostly a knob the parent's new features point at (hints), else any, the knobs
        // whose moves reached new features before more often.
        let knobs = base.knobs ?? drawKnobs(space!, base.seed);
        const count = rng.below(4) === 0 ? rng.int(2, 3) : 1;
        const what: string[] = [];
        for (let n = 0; n < count; n++) {
          const pool = hinted && rng.below(4) !== 0 ? parent.hints : space!.defs.map((_, i) => i);
          const i = pool[rng.weighted(pool.map((d) => island.knobWeight(space!.defs[d]!)))]!;
          const nudge = rng.below(2) === 0;
          knobs = redrawKnob(space!, knobs, i, rng, nudge);
          moved.push(space!.defs[i]!.id);
          what.push(`${nudge ? "nudge" : "draw"} ${space!.defs[i]!.id}`);
        }
        // Half the time the kubelet's own draws and the schedule start afresh too (a new seed, no
        // tape): most races turn on timing, and a moved knob under fresh randomness explores more
        // than the parent's schedule replayed.
        if (rng.below(2) === 0) return { ...base, seed: rng.uint32(), knobs, tape: null, how: `${what.join(", ")}, reseeded` };
        return { ...base, knobs, tape: tape.encode(), how: what.join(", ") };
      }
      case "splice": {
        const other = island.pick(rng, parent);
        const at = rng.below(Math.min(tape.length, other.tape.length) + 1);
        const spliced = [...prefix(tape, at), ...other.tape.toArray().slice(at)];
        return { ...base, tape: ChoiceLog.from(spliced).encode(), how: `splice #${at} with run ${other.index}` };
      }
      case "reseed":
      case "fresh":
        return { ...base, seed: rng.uint32(), tape: tape.encode(), how: "reseed" };
    }
  }

}

/** A position whose choice has another option (every recorded choice has n >= 2), or null for an empty tape. */
function flippable(tape: ChoiceLog, rng: Rng): number | null {
  return tape.length === 0 ? null : rng.below(tape.length);
}

function prefix(tape: ChoiceLog, n: number): Choice[] {
  const out: Choice[] = [];
  for (let i = 0; i < n && i < tape.length; i++) out.push(tape.get(i));
  return out;
}

/** The strategy of a genome: its tape while it fits, then the plan's runnable strategy. */
export function genomeStrategy(ctx: RunContext, genome: Genome): StrategySpec {
  return genome.tape === null ? ctx.runnable : { name: "tape", tape: ChoiceLog.decode(genome.tape), then: ctx.runnable };
}

/** The scenario of a genome: the plan's with its knobs. */
export function genomeScenario(ctx: RunContext, genome: Genome): RunScenario {
  return ctx.withKnobs(genome.knobs);
}

/** Runs a genome as run `index` (anywhere: it needs no island). */
export function runGenome(ctx: RunContext, index: number, genome: Genome, full: boolean, coverage?: CoverageSink): { summary: RunSummary; run: ContextRun } {
  const { scenario } = genomeScenario(ctx, genome);
  return ctx.runAs(index, genome.seed, scenario, full, { strategy: genomeStrategy(ctx, genome), sinks: coverage === undefined ? [] : [coverage] });
}
