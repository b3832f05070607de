// Hunting the races: how many exploration runs each strategy needs to break a race's invariant in
// its hunt form, where fifo passes and the bug needs a particular interleaving or timing. One
// measurement is an exploration (seed S, strategy X) stopped at its first violation; the table
// reports the median over seeds 1..N. `npm run hunt-table` writes it into docs/exploring.md.
import { exploreSync } from "../explore/explorer.ts";
import { calibratePctSteps } from "../explore/plan.ts";
import { simulate } from "../simulate.ts";
import type { Scenario } from "../scenario/resolve.ts";
import { raceRawScenario, raceScenario, type RaceEntry } from "./catalog.ts";

export type HuntStrategy = "random" | "pct" | "pos";
export const HUNT_STRATEGIES: readonly HuntStrategy[] = ["random", "pct", "pos"];

export interface HuntOptions {
  /** Exploration seeds 1..seeds. */
  seeds: number;
  /** Runs per exploration before giving up. */
  maxRuns: number;
  strategies?: readonly HuntStrategy[];
}

export interface HuntCell {
  strategy: HuntStrategy;
  /** Per seed: the runs it took to the first violation (1 = the first run), null when none broke it. */
  runs: (number | null)[];
  /** The median over seeds; null when at least half the explorations found nothing. */
  median: number | null;
  found: number;
}

export interface HuntRow {
  race: string;
  invariant: string;
  /** Whether the hunt form's own fifo run (`kubelet-sim run FILE`) breaks the invariant: it must not. */
  fifoBreaks: boolean;
  cells: HuntCell[];
}

/**
 * The hunt form as an exploration takes it: the file's own expectations left out, so a run fails
 * only by breaking the race's invariant (or by a verdict such as a deadlock).
 */
function huntRaw(race: RaceEntry, side: "buggy" | "fixed") {
  return { ...raceRawScenario(race, side, "hunt"), expect: [] };
}

/** Runs to the first violation of the race's invariant on its buggy side (null: none in maxRuns). */
export function runsToFirstViolation(race: RaceEntry, strategy: HuntStrategy, seed: number, maxRuns: number, steps?: number): number | null {
  const report = exploreSync({
    source: { raw: huntRaw(race, "buggy"), label: race.hunt.file },
    runs: maxRuns,
    strategy,
    seed,
    ...(strategy === "pct" && steps !== undefined ? { steps } : {}),
    invariants: [race.invariant],
    shrink: false,
    outDir: null,
  });
  const f = report.first;
  return f === null || f.failure?.kind !== "invariant" || f.failure.id !== race.invariant ? null : f.index + 1;
}

/** Violations of the race's invariant on one side of the hunt form over `runs` runs. */
export function huntViolations(race: RaceEntry, side: "buggy" | "fixed", strategy: HuntStrategy, runs: number, seed = 1): number {
  const report = exploreSync({
    source: { raw: huntRaw(race, side), label: race.hunt.file },
    runs,
    strategy,
    seed,
    invariants: [race.invariant],
    keepGoing: true,
    shrink: false,
    outDir: null,
  });
  return report.runs.filter((r) => r.failure?.kind === "invariant" && r.failure.id === race.invariant).length;
}

export function measureHunt(race: RaceEntry, opts: HuntOptions): HuntRow {
  const steps = calibratePctSteps(raceScenario(race, "buggy", "hunt"));
  const cells = (opts.strategies ?? HUNT_STRATEGIES).map((strategy): HuntCell => {
    const runs: (number | null)[] = [];
    for (let seed = 1; seed <= opts.seeds; seed++) runs.push(runsToFirstViolation(race, strategy, seed, opts.maxRuns, steps));
    return { strategy, runs, median: median(runs), found: runs.filter((r) => r !== null).length };
  });
  return { race: race.id, invariant: race.invariant, fifoBreaks: fifoBreaks(race, "buggy"), cells };
}

/** Whether the hunt form run as written, under fifo and without swarm draws, breaks the invariant. */
export function fifoBreaks(race: RaceEntry, side: "buggy" | "fixed"): boolean {
  const scenario = raceScenario(race, side, "hunt");
  const never = { kind: "never", condition: { invariant: race.invariant } } as Scenario["expect"][number];
  const r = simulate({ ...scenario, expect: [...scenario.expect, never] }, { strategy: { name: "fifo" }, sinks: [], keepRecords: false });
  return r.checks.violations.some((v) => v.invariant === race.invariant);
}

/** The median of the runs-to-first-violation; a seed that found nothing counts as infinitely many. */
export function median(runs: readonly (number | null)[]): number | null {
  if (runs.length === 0) return null;
  const sorted = runs.map((r) => r ?? Infinity).sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const m = sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Number.isFinite(m) ? m : null;
}

/** One cell of the table: "12 (20/20)", or "> 500 (7/20)" when fewer than half the seeds found it. */
function cellText(c: HuntCell, maxRuns: number): string {
  const median = c.median === null ? `> ${maxRuns}` : String(c.median);
  return `${median} (${c.found}/${c.runs.length})`;
}

/** The hunt table as Markdown: one row per race, the median runs to the first violation per strategy. */
export function huntTableMarkdown(rows: readonly HuntRow[], races: readonly RaceEntry[], opts: HuntOptions): string {
  const strategies = opts.strategies ?? HUNT_STRATEGIES;
  const head = `| race | invariant | the hunt needs | fifo | ${strategies.join(" | ")} |`;
  const rule = `|---|---|---|---|${strategies.map(() => "---").join("|")}|`;
  const lines = rows.map((row) => {
    const race = races.find((r) => r.id === row.race)!;
    const cells = strategies.map((s) => cellText(row.cells.find((c) => c.strategy === s)!, opts.maxRuns));
    return `| ${row.race} | \`${row.invariant}\` | ${race.hunt.needs} | ${row.fifoBreaks ? "breaks" : "passes"} | ${cells.join(" | ")} |`;
  });
  return [head, rule, ...lines].join("\n");
}
