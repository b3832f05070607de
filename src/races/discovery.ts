// The discovery table: how many runs each strategy needs to break a race's invariant when nobody
// told it where to look. Each race's hunt form runs under its buggy kubelet with the file's `swarm`
// ranges left out and the generic swarm (`--swarm auto`) instead, watching the race's own
// invariant. One measurement (a cell) is an exploration (strategy, seed) stopped at its first
// violation, or at maxRuns. `npm run discovery-table` measures the cells (resumable, sharded) and
// writes the table into docs/exploring.md.
import { exploreSync } from "../explore/explorer.ts";
import { calibratePctSteps } from "../explore/plan.ts";
import { raceRawScenario, raceScenario, type RaceEntry } from "./catalog.ts";
import { median } from "./hunt.ts";

export type DiscoveryStrategy = "random" | "pct" | "pos" | "guided";
export const DISCOVERY_STRATEGIES: readonly DiscoveryStrategy[] = ["random", "pct", "pos", "guided"];

export interface DiscoveryCell {
  race: string;
  strategy: DiscoveryStrategy;
  seed: number;
  maxRuns: number;
  /** Runs to the first violation of the race's invariant (1 = the first run); null: none within maxRuns. */
  runs: number | null;
  /** Wall time of the exploration (for the record; not a measurement of speed). */
  ms: number;
  /** Guided only: how the run that found it was made (a fresh run, or the mutation that made it); absent in cells measured before it was recorded. */
  foundBy?: GuidedMove;
}

/** How a guided run was made: fresh (pos's run of the same index), or a mutation of a corpus entry. */
export type GuidedMove = "fresh" | "flip" | "knob" | "splice" | "reseed" | "keep";

/** The move named by a genome's `how` ("fresh", "flip #12", "nudge step@4000, reseeded", "splice #3 with run 8", "reseed"). */
export function guidedMove(how: string): GuidedMove {
  const word = how.split(" ")[0];
  if (word === "nudge" || word === "draw") return "knob";
  if (word === "fresh" || word === "flip" || word === "splice" || word === "reseed" || word === "keep") return word;
  throw new Error(`guided: unknown move in ${JSON.stringify(how)}`);
}

/** The hunt form as discovery takes it: no expectations of its own, no swarm ranges (the generic swarm instead). */
function discoveryRaw(race: RaceEntry) {
  const { swarm: _swarm, ...raw } = raceRawScenario(race, "buggy", "hunt");
  return { ...raw, expect: [] };
}

/** pct's k for a race's hunt form, as explore would calibrate it (one fifo run). */
export function discoverySteps(race: RaceEntry): number {
  return calibratePctSteps(raceScenario(race, "buggy", "hunt"));
}

/** One cell: an exploration of the race under the generic swarm, stopped at the first violation of its invariant. */
export function measureCell(race: RaceEntry, strategy: DiscoveryStrategy, seed: number, maxRuns: number, clock: () => number, steps?: number): DiscoveryCell {
  const started = clock();
  const report = exploreSync({
    source: { raw: discoveryRaw(race), label: race.hunt.file },
    runs: maxRuns,
    strategy,
    seed,
    swarm: "auto",
    ...(strategy === "pct" && steps !== undefined ? { steps } : {}),
    invariants: [race.invariant],
    shrink: false,
    outDir: null,
  });
  const f = report.first;
  const runs = f === null || f.failure?.kind !== "invariant" || f.failure.id !== race.invariant ? null : f.index + 1;
  const cell: DiscoveryCell = { race: race.id, strategy, seed, maxRuns, runs, ms: Math.round(clock() - started) };
  if (runs !== null && f!.genome !== undefined) cell.foundBy = guidedMove(f!.genome.how);
  return cell;
}

/** Which moves made the runs where guided found its race: null when some cell that found one did not record it. */
export function guidedFinds(cells: readonly DiscoveryCell[], maxRuns: number): Record<GuidedMove, number> | null {
  const found = cells.filter((c) => c.strategy === "guided" && c.maxRuns === maxRuns && c.runs !== null);
  if (found.some((c) => c.foundBy === undefined)) return null;
  const out: Record<GuidedMove, number> = { fresh: 0, flip: 0, knob: 0, splice: 0, reseed: 0, keep: 0 };
  for (const c of found) out[c.foundBy!]++;
  return out;
}

/** "17 of 60 by fresh runs (pos's seed of the same index, with covering-design or boundary-value knobs); by mutants: knob 2, flip 1" */
export function guidedFindsText(finds: Record<GuidedMove, number>): string {
  const total = Object.values(finds).reduce((a, b) => a + b, 0);
  const mutants = (["knob", "keep", "flip", "splice", "reseed"] as const).filter((m) => finds[m] > 0).map((m) => `${m} ${finds[m]}`);
  return `${finds.fresh} of ${total} by fresh runs (pos's seed of the same index, with covering-design or boundary-value knobs)${mutants.length > 0 ? `, the others by mutants (${mutants.join(", ")})` : ""}`;
}

export interface DiscoveryRow {
  race: string;
  invariant: string;
  /** Per strategy: the median runs (null: at least half the seeds found nothing), found count, seeds measured. */
  cells: { strategy: DiscoveryStrategy; median: number | null; found: number; seeds: number }[];
}

export function discoveryRows(races: readonly RaceEntry[], cells: readonly DiscoveryCell[], maxRuns: number): DiscoveryRow[] {
  return races.map((race) => ({
    race: race.id,
    invariant: race.invariant,
    cells: DISCOVERY_STRATEGIES.map((strategy) => {
      const mine = cells.filter((c) => c.race === race.id && c.strategy === strategy && c.maxRuns === maxRuns);
      const runs = mine.map((c) => c.runs);
      return { strategy, median: median(runs), found: runs.filter((r) => r !== null).length, seeds: mine.length };
    }),
  }));
}

/** The goal's two numbers: races guided found in every seed, and races where guided's median is at most half the best other's. */
export function discoveryGoal(rows: readonly DiscoveryRow[]): { guidedFoundAll: number; guidedHalf: number; races: number } {
  let guidedFoundAll = 0;
  let guidedHalf = 0;
  for (const row of rows) {
    const g = row.cells.find((c) => c.strategy === "guided")!;
    if (g.seeds > 0 && g.found === g.seeds) guidedFoundAll++;
    // Only measured strategies compare: one that found nothing in most seeds is slower than any
    // count (Infinity); one not measured at all says nothing.
    const others = row.cells.filter((c) => c.strategy !== "guided" && c.seeds > 0).map((c) => c.median ?? Infinity);
    if (others.length > 0 && g.median !== null && g.median * 2 <= Math.min(...others)) guidedHalf++;
  }
  return { guidedFoundAll, guidedHalf, races: rows.length };
}

export function discoveryTableMarkdown(rows: readonly DiscoveryRow[], maxRuns: number): string {
  const head = `| race | invariant | ${DISCOVERY_STRATEGIES.join(" | ")} |`;
  const rule = `|---|---|${DISCOVERY_STRATEGIES.map(() => "---").join("|")}|`;
  const lines = rows.map((row) => {
    const cells = row.cells.map((c) => (c.seeds === 0 ? "not measured" : `${c.median === null ? `> ${maxRuns}` : String(c.median)} (${c.found}/${c.seeds})`));
    return `| ${row.race} | \`${row.invariant}\` | ${cells.join(" | ")} |`;
  });
  return [head, rule, ...lines].join("\n");
}
