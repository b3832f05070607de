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

export const DEFAULT_ISLANDS = 8;
export const MAX_ISLANDS = 256;
/** The most entries an island's corpus keeps; past it, the entry of lowest weight goes. */
export const CORPUS_LIMIT = 128;

/** Mutation weights: fresh, flip, knob, splice, reseed (tuned on the discovery table's small runs). */
const MUTATIONS = ["fresh", "flip", "knob", "splice", "reseed"] as const;
type Mutation = (typeof MUTATIONS)[number];
const WEIGHTS: Readonly<Record<Mutation, number>> = { fresh: 2, flip: 3, knob: 3, splice: 1, reseed: 1 };

interface Entry {
  index: number;
  genome: Genome;
  tape: ChoiceLog;
  features: readonly string[];
}

interface Island {
  /** The next run index this island expects. */
  next: number;
  corpus: Entry[];
  /** How many of the island's runs reached each feature. */
  hits: Map<string, number>;
}

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
      island = { next: k, corpus: [], hits: new Map() };
      this.islands.set(k, island);
    }
    if (index !== island.next) throw new Error(`guided: run ${index} of island ${k} asked for before run ${island.next} (a guided island's runs run in order, in one thread)`);
    island.next += this.count;
    const genome = this.genomeFor(index, island);
    const coverage = new CoverageSink();
    const { summary, run } = runGenome(this.ctx, index, genome, full, coverage);
    const fresh = this.learn(island, index, genome, run, coverage.features);
    if (fresh.length > 0) summary.newFeatures = fresh;
    if (summary.failure !== null || full) summary.genome = genome;
    return summary;
  }

  private genomeFor(index: number, island: Island): Genome {
    const rng = new Rng("explore-guided", streamSeed(this.ctx.plan.seed, `explore/guided/${index}`));
    const space = this.ctx.space;
    const weights = MUTATIONS.map((m) => {
      if (island.corpus.length === 0) return m === "fresh" ? 1 : 0;
      if (m === "knob" && (space === null || space.defs.length === 0)) return 0;
      if (m === "splice" && island.corpus.length < 2) return 0;
      return WEIGHTS[m];
    });
    const mutation = MUTATIONS[rng.weighted(weights)]!;
    if (mutation === "fresh") {
      const seed = runSeed(this.ctx.plan.seed, index);
      return { seed, knobs: space === null ? null : drawKnobs(space, seed), tape: null, how: "fresh", parent: null };
    }
    const parent = this.pick(island, rng);
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
        const i = rng.below(space!.defs.length);
        const knobs = redrawKnob(space!, base.knobs ?? drawKnobs(space!, base.seed), i, rng);
        return { ...base, knobs, tape: tape.encode(), how: `knob ${space!.defs[i]!.id}` };
      }
      case "splice": {
        const other = this.pick(island, rng, parent);
        const at = rng.below(Math.min(tape.length, other.tape.length) + 1);
        const spliced = [...prefix(tape, at), ...other.tape.toArray().slice(at)];
        return { ...base, tape: ChoiceLog.from(spliced).encode(), how: `splice #${at} with run ${other.index}` };
      }
      case "reseed":
        return { ...base, seed: rng.uint32(), tape: tape.encode(), how: "reseed" };
    }
  }

  /** A corpus entry, weighted by the rarity of its features. */
  private pick(island: Island, rng: Rng, not?: Entry): Entry {
    const candidates = not === undefined ? island.corpus : island.corpus.filter((e) => e !== not);
    const list = candidates.length === 0 ? island.corpus : candidates;
    return list[rng.weighted(list.map((e) => weightOf(e, island.hits)))]!;
  }

  /** Counts the run's features; a run with features new to the island joins its corpus. Returns the new ones. */
  private learn(island: Island, index: number, genome: Genome, run: ContextRun, features: ReadonlySet<string>): string[] {
    const fresh: string[] = [];
    for (const f of features) {
      const n = island.hits.get(f) ?? 0;
      if (n === 0) fresh.push(f);
      island.hits.set(f, n + 1);
    }
    if (fresh.length === 0) return fresh;
    island.corpus.push({ index, genome, tape: run.result.run.choices, features: [...features] });
    if (island.corpus.length > CORPUS_LIMIT) {
      let worst = 0;
      let worstWeight = Infinity;
      island.corpus.forEach((e, i) => {
        const w = weightOf(e, island.hits);
        if (w < worstWeight) {
          worst = i;
          worstWeight = w;
        }
      });
      island.corpus.splice(worst, 1);
    }
    return fresh;
  }
}

/** An entry's weight: 1 + 1000 x the sum of 1/hits over its features (a whole number, for Rng.weighted). */
function weightOf(e: Entry, hits: ReadonlyMap<string, number>): number {
  let w = 0;
  for (const f of e.features) w += 1 / (hits.get(f) ?? 1);
  return 1 + Math.round(1000 * w);
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
