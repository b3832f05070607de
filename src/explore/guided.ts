// The guided strategy: coverage-guided exploration (greybox fuzzing of schedules and knobs, after
// RFF, Wolff et al., ASPLOS 2024). A run that reaches a coverage feature (coverage.ts) no earlier
// run of its island reached joins the island's corpus with its genome (seed, knobs) and its choice
// tape. Later runs are made from corpus entries. With knobs (a swarm), a run keeps the knobs an
// entry's new features point at (its hints: the steps, the calls that landed somewhere new) and
// draws every other knob, the kubelet's randomness and the schedule afresh; one run in eight is
// fresh (pos's run of the same index); the first run is a spread run (every call's latency over
// its widest range, guided_first.ts), the next the rows of a covering design over the knobs' value
// classes (guided_cover.ts). Without knobs, a run flips one choice of an entry's tape,
// splices two tapes or replays a tape under a new seed, and one run in two is fresh. Each new
// entry is worked on in the run right after it came; otherwise parents are picked with a weight
// that favours rare features (each feature counts 1/hits, hits being how many of the island's runs
// reached it), as RFF's power schedule favours rare reads-from pairs. Why moves near an entry were
// given up where knobs exist: docs/exploring.md, "What the guidance learned".
//
// Determinism: run i belongs to island i mod K, and its genome is a function of the plan, i and
// the island's runs before i, which the island's owner (one thread, one shard) ran in order. So
// `--jobs` and `--shard` hand out whole islands (pool.ts, seeds.ts), and every run is the same
// whoever runs it. A run's genome travels with its summary when it fails (or is sampled for a
// determinism check), so the main thread runs it again without the island's history.
// Runs of distinct islands are advanced together in lockstep (runTogether, lockstepGroups): an
// island's runs still go in order, and no run is made from another run of its batch.
import { ChoiceLog, type Choice } from "../sim/choices.ts";
import { Rng, streamSeed } from "../sim/rng.ts";
import type { StrategySpec } from "../sim/index.ts";
import type { ContextRun, PendingRun, RunContext, RunScenario, RunSummary } from "./context.ts";
import { CoverageSink } from "./coverage.ts";
import { DistanceSink } from "./guided_distance.ts";
import type { TraceSink } from "../sim/index.ts";
import { drawKnobs, type Knobs, type KnobSpace, type KnobValue } from "./knobs.ts";
import { drawBoundaryKnobs } from "./guided_knobs.ts";
import { coverDesign, drawCoverKnobs, type CoverDesign, type CoverOptions } from "./guided_cover.ts";
import { drawSpreadKnobs } from "./guided_first.ts";
import { Island } from "./guided_island.ts";
import { runSeed } from "./seeds.ts";
import { advanceInLockstep } from "./lockstep.ts";

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

/**
 * One run in this many starts afresh (a pos run with knobs drawn from its own seed); the others
 * are made from an entry. With knobs, the others keep some of an entry's knobs and draw the rest
 * afresh, so they are nearly fresh runs themselves; without knobs, one in two (schedule moves of
 * an entry that did not fail mostly do not fail either: docs/exploring.md, "What the guidance
 * learned").
 */
const FRESH_ONE_IN_KNOBS = 8;
const FRESH_ONE_IN_SCHEDULE = 2;
/**
 * The moves, by what the exploration has to move. With knobs (a swarm), keep: measured on the
 * discovery table, every move that stays near an entry (a nudged knob, the entry's tape
 * replayed, flipped or spliced) broke the race's invariant less often than a fresh run did, while
 * a run that keeps only the knobs the entry's new features point at, and draws everything else
 * afresh, did as well or better. Without knobs the schedule is all there is to move.
 */
const MOVES = ["flip", "splice", "reseed", "keep"] as const;
type Move = (typeof MOVES)[number];
const KNOB_WEIGHTS: Readonly<Record<Move, number>> = { flip: 0, splice: 0, reseed: 0, keep: 1 };
const SCHEDULE_WEIGHTS: Readonly<Record<Move, number>> = { flip: 3, splice: 1, reseed: 1, keep: 0 };

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

/**
 * With knobs, the first runs are the rows of a covering design (guided_cover.ts): every pair of
 * (knob, class) over the knobs with a near draw (the steps, the latencies the file writes), the
 * classes a boundary (any), the near draw and the ordinary draw, in the first rows; the array
 * PASSES times over, each pass in an order of its own; then the runs below. Measured against
 * boundary values drawn at random, the split classes (low, high, meet), one pass, and a row every
 * other run (docs/exploring.md, "Covering designs for the first runs").
 */
export const COVER: CoverOptions = { t: 2, classes: "merged", passes: 3 };

/**
 * With knobs, the first run is a spread run (guided_first.ts): every range knob without a near draw
 * at its widest range, the knobs of the story ordinary. It takes the place of the design's first
 * row (which its two other passes still try), so the runs after it are the rows they were.
 * Measured against the rows alone, and a spread run that kept its row's classes for the story's
 * knobs (docs/exploring.md, "The first run: a spread run").
 */
export const SPREAD_RUNS = 1;

export class GuidedRunner {
  private readonly islands = new Map<number, Island>();
  /** The covering design of the plan's knob space, made at the first run (none without knobs). */
  private design: CoverDesign | undefined;
  readonly count: number;
  /** The watched invariants whose monitors measure a distance, found at the first run. */
  private distanceIds: string[] | null = null;
  /** The islands with a run begun and not yet ended (runTogether's guard: one run per island). */
  private readonly running = new Set<number>();

  constructor(private readonly ctx: RunContext) {
    const s = ctx.plan.strategy;
    if (s.name !== "guided") throw new Error("GuidedRunner: the plan's strategy is not guided");
    this.count = s.islands;
  }

  /** Run `index`: its island's runs before it must have run here, in order. */
  runIndex(index: number, full = false): RunSummary {
    return this.end(this.begin(index, full));
  }

  /**
   * Runs of distinct islands (lockstepGroups), each made from its island, started, advanced
   * together in lockstep (lockstep.ts), then ended and learned from in index order: the summaries
   * runIndex gives one by one. Exact, because a run's making and its learning touch only its own
   * island (its corpus, hits, focus, knob counts, closest runs, next index) and, beside it, only
   * state that is the same whoever computes it and when: the plan and the knob space (read only),
   * the run's own Rng stream (explore/guided/i) and seed, the covering design (a function of the
   * space and the plan's seed) and distanceIds (a property of the invariants' kinds). The runs
   * themselves share nothing (lockstep.ts). So with one run per island, no run is made from
   * anything another run of the batch learned, and each island learns its runs in their order.
   */
  runTogether(indices: readonly number[], full: (index: number) => boolean): RunSummary[] {
    if (indices.length < 2) return indices.map((i) => this.runIndex(i, full(i)));
    const begun = indices.map((i) => this.begin(i, full(i)));
    advanceInLockstep(begun.map((b) => b.pending.sim));
    return begun.map((b) => this.end(b));
  }

  /** Run `index` made from its island and started: until its end, its island takes no other run. */
  private begin(index: number, full: boolean): Begun {
    const k = islandOf(index, this.count);
    let island = this.islands.get(k);
    if (island === undefined) {
      island = new Island(k, this.ctx.space);
      this.islands.set(k, island);
    }
    if (index !== island.next) throw new Error(`guided: run ${index} of island ${k} asked for before run ${island.next} (a guided island's runs run in order, in one thread)`);
    if (this.running.has(k)) throw new Error(`guided: run ${index} of island ${k} asked for while its run ${index - this.count} has not ended (a batch takes one run per island)`);
    this.running.add(k);
    island.next += this.count;
    const { genome, moved } = this.genomeFor(index, island);
    const coverage = new CoverageSink();
    const measured: { sink: DistanceSink | null } = { sink: null };
    const pending = startGenome(this.ctx, index, genome, full, coverage, (scenario) => {
      this.distanceIds ??= DistanceSink.measuredIds(this.ctx.plan.invariants, scenario);
      if (this.distanceIds.length === 0) return [];
      measured.sink = new DistanceSink(this.distanceIds, scenario);
      return [measured.sink];
    });
    return { index, k, island, genome, moved, full, coverage, measured, pending };
  }

  /** A begun run to its end; its island learns from it. */
  private end(b: Begun): RunSummary {
    const { summary, run } = this.ctx.completeAs(b.pending);
    this.running.delete(b.k);
    const distances = b.measured.sink?.distances() ?? new Map<string, number>();
    const { fresh, closer } = b.island.learn(b.index, b.genome, run.result.run.choices, b.coverage.features, distances);
    b.island.noteKnobs(b.moved, fresh.length > 0 || closer);
    if (fresh.length > 0) summary.newFeatures = fresh;
    if (summary.failure !== null || b.full) summary.genome = b.genome;
    return summary;
  }

  private genomeFor(index: number, island: Island): { genome: Genome; moved: string[] } {
    const moved: string[] = [];
    const genome = this.make(index, island, moved);
    return { genome, moved };
  }

  private make(index: number, island: Island, moved: string[]): Genome {
    const rng = new Rng("explore-guided", streamSeed(this.ctx.plan.seed, `explore/guided/${index}`));
    const space = this.ctx.space !== null && this.ctx.space.defs.length > 0 ? this.ctx.space : null;
    if (space !== null && index < SPREAD_RUNS) {
      const seed = runSeed(this.ctx.plan.seed, index);
      return { seed, knobs: drawSpreadKnobs(space, seed), tape: null, how: `fresh (spread run ${index + 1})`, parent: null };
    }
    if (space !== null) {
      this.design ??= coverDesign(space, this.ctx.plan.seed, COVER);
      const row = this.design.rows[index];
      if (row !== undefined) {
        const seed = runSeed(this.ctx.plan.seed, index);
        return { seed, knobs: drawCoverKnobs(space, seed, this.design, row), tape: null, how: `fresh (covering row ${index + 1} of ${this.design.rows.length})`, parent: null };
      }
    }
    if (island.corpus.length === 0 || rng.below(space === null ? FRESH_ONE_IN_SCHEDULE : FRESH_ONE_IN_KNOBS) === 0) {
      const seed = runSeed(this.ctx.plan.seed, index);
      return { seed, knobs: this.ctx.space === null ? null : drawBoundaryKnobs(this.ctx.space, seed), tape: null, how: "fresh", parent: null };
    }
    const parent = island.focused() ?? island.pick(rng);
    const weights = MOVES.map((m) => (m === "splice" && island.corpus.length < 2 ? 0 : (space === null ? SCHEDULE_WEIGHTS : KNOB_WEIGHTS)[m]));
    const move = MOVES[rng.weighted(weights)]!;
    const base = { seed: parent.genome.seed, knobs: parent.genome.knobs, parent: parent.index };
    const tape = parent.tape;
    switch (move) {
      case "flip": {
        const at = flippable(tape, rng);
        if (at === null) return { ...base, seed: rng.uint32(), tape: tape.encode(), how: "reseed" };
        const c = tape.get(at);
        const flipped: Choice = { ...c, index: (c.index + 1 + rng.below(c.n - 1)) % c.n };
        return { ...base, tape: ChoiceLog.from([...prefix(tape, at), flipped]).encode(), how: `flip #${at}` };
      }
      case "keep": {
        // The parent's hinted knobs (else one or two, weighted as for a move) kept, every other
        // knob, the kubelet's draws and the schedule fresh: a fresh run that keeps what made the
        // parent new, so it is never further from a race than a fresh run, whatever the parent.
        const seed = rng.uint32();
        const from = base.knobs ?? drawKnobs(space!, base.seed);
        const kept = parent.hints.length > 0 ? parent.hints : pickKnobs(space!, island, rng, rng.int(1, 2));
        const knobs: Record<string, KnobValue> = { ...drawBoundaryKnobs(space!, seed) };
        for (const i of kept) {
          const id = space!.defs[i]!.id;
          knobs[id] = from[id] ?? null;
          moved.push(id);
        }
        return { ...base, seed, knobs, tape: null, how: `keep ${kept.map((i) => space!.defs[i]!.id).join(", ")}` };
      }
      case "splice": {
        const other = island.pick(rng, parent);
        const at = rng.below(Math.min(tape.length, other.tape.length) + 1);
        const spliced = [...prefix(tape, at), ...other.tape.toArray().slice(at)];
        return { ...base, tape: ChoiceLog.from(spliced).encode(), how: `splice #${at} with run ${other.index}` };
      }
      case "reseed":
        return { ...base, seed: rng.uint32(), tape: tape.encode(), how: "reseed" };
    }
  }

}

/** `count` distinct knob indices, each weighted by the island's knob weight. */
function pickKnobs(space: KnobSpace, island: Island, rng: Rng, count: number): number[] {
  const out: number[] = [];
  for (let n = 0; n < count && out.length < space.defs.length; n++) {
    const pool = space.defs.map((_, i) => i).filter((i) => !out.includes(i));
    out.push(pool[rng.weighted(pool.map((i) => island.knobWeight(space.defs[i]!)))]!);
  }
  return out.sort((a, b) => a - b);
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

/** Runs a genome as run `index` (anywhere: it needs no island): startGenome's run, completed. */
export function runGenome(...args: Parameters<typeof startGenome>): { summary: RunSummary; run: ContextRun } {
  return args[0].completeAs(startGenome(...args));
}

/** runGenome's first half: the run started (RunContext.startAs), for completeAs to end. */
function startGenome(
  ctx: RunContext,
  index: number,
  genome: Genome,
  full: boolean,
  coverage?: CoverageSink,
  more?: (scenario: RunScenario["scenario"]) => TraceSink[],
): PendingRun {
  const { scenario } = genomeScenario(ctx, genome);
  const sinks = [...(coverage === undefined ? [] : [coverage]), ...(more === undefined ? [] : more(scenario))];
  return ctx.startAs(index, genome.seed, scenario, full, { strategy: genomeStrategy(ctx, genome), sinks });
}

/** A guided run between its start and its end (GuidedRunner.begin, end). */
interface Begun {
  index: number;
  /** Its island's number. */
  k: number;
  island: Island;
  genome: Genome;
  moved: string[];
  full: boolean;
  coverage: CoverageSink;
  measured: { sink: DistanceSink | null };
  pending: PendingRun;
}

/**
 * `indices` (ascending) cut into lockstep batches for runTogether: consecutive runs, at most `max`
 * to a batch, no two of one island, so each island's runs keep their order and the summaries
 * their index order. A shard's or a thread's indices are whole islands: with fewer islands than
 * `max`, a batch ends where an island comes round again.
 */
export function lockstepGroups(indices: readonly number[], islands: number, max: number): number[][] {
  const out: number[][] = [];
  let group: number[] = [];
  const taken = new Set<number>();
  for (const i of indices) {
    const k = islandOf(i, islands);
    if (group.length >= max || taken.has(k)) {
      out.push(group);
      group = [];
      taken.clear();
    }
    group.push(i);
    taken.add(k);
  }
  if (group.length > 0) out.push(group);
  return out;
}
