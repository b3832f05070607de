// Writes play mode's levels (scenarios/races/play/): for each catalogued race, the hunt form on its
// buggy side with the timing of one `swarm` draw pinned, at a seed where fifo passes and some
// interleaving breaks the race's invariant. A hunt form as written is often not winnable by
// interleaving alone (its bug needs the timing its swarm ranges draw), and a deterministic form
// breaks the invariant under fifo already: a level must be won by the learner's own choices.
// Also writes levels.json: per race, the swarm draw, the seed, and the shortest win found (the
// exploration's failing schedule shrunk by ddmin: 1-minimal, an upper bound on the true minimum).
//   node --import tsx scripts/update-play-levels.ts [--races R05,R08] [--walks 30000] [--budget 60000] [--window 0] [--tries 150]
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { RACES, raceRawScenario, type RaceEntry } from "../src/races/catalog.ts";
import { applySwarm, compileRawOrThrow, exploreSync, RunContext, type RawScenario } from "../src/explore/index.ts";
import { Shrinker, deviationCount } from "../src/explore/shrink.ts";
import { simulate } from "../src/simulate.ts";
import { ChoiceLog, KernelLog, parseDuration, type Choice } from "../src/sim/index.ts";
import { Rng, streamSeed } from "../src/sim/rng.ts";
import { playTo, playToEnd } from "../src/play/session.ts";
import type { PlayLevel } from "../src/play/level.ts";
import { PLAY_DIR, playFile, type PlayLevelEntry } from "../src/play/levels.ts";

const ROOT = join(import.meta.dirname, "..");
const SWARM_SEEDS = 15;
const RUNS = 150;
const MAX_TRIES = process.argv.includes("--tries") ? Number(process.argv[process.argv.indexOf("--tries") + 1]) : 150;
/** How long after a moved step's instant a deviation may be (--window MS; 0: at the instant only). */
const WINDOW_MS = process.argv.includes("--window") ? Number(process.argv[process.argv.indexOf("--window") + 1]) : 0;
const DEPTH = 3;
/** Wall time per race for the search of timings (--budget MS; a script, not the simulation: it may read the host clock). */
const BUDGET_MS = process.argv.includes("--budget") ? Number(process.argv[process.argv.indexOf("--budget") + 1]) : 60_000;
/** Wall time per race for random walks on the hunt form as written (--walks MS; 0: none). */
const WALK_MS = process.argv.includes("--walks") ? Number(process.argv[process.argv.indexOf("--walks") + 1]) : 0;

function breaks(raw: RawScenario, race: RaceEntry): boolean {
  const r = simulate(compileRawOrThrow(raw, race.hunt.file), { strategy: { name: "fifo" }, sinks: [], keepRecords: false });
  return r.checks.violations.some((v) => v.invariant === race.invariant);
}

/** A win on this timing: fifo passes and some interleaving breaks the invariant. */
interface Win {
  raw: RawScenario;
  found: string;
  win: ChoiceLog;
  deviations: number;
}

function winOn(race: RaceEntry, timing: Timing): Win | null {
  if (breaks(timing.raw, race)) return null;
  const near = atInstant(race, timing.raw, timing.atMs, DEPTH);
  if (near !== null) return { raw: timing.raw, found: timing.atMs === null ? "single deviations" : `deviations at ${timing.atMs}ms`, win: near, deviations: near.deviations() };
  return explored(race, timing.raw, timing.swarmSeed === null ? 30 : RUNS);
}

/**
 * A search at the timing's own seed (so fifo's pass is the level's): leave fifo's answer at up to
 * `depth` choices, each one made at `atMs` or up to WINDOW_MS after it (any instant when null: then
 * one deviation only), each
 * tried in the run the earlier deviations lead to. The first tape that breaks the invariant, with
 * the fewest deviations this order meets first. Bounded to MAX_TRIES runs.
 */
function atInstant(race: RaceEntry, raw: RawScenario, atMs: number | null, depth: number): ChoiceLog | null {
  const scenario = compileRawOrThrow(raw, race.hunt.file);
  let tries = 0;
  const run = (tape: readonly Choice[]) => {
    const log = new KernelLog();
    const r = simulate(scenario, { strategy: { name: "replay", tape: ChoiceLog.from(tape), whenExhausted: "fifo" }, sinks: [], keepRecords: false, observer: log });
    return { r, times: log.choices.map((c) => c.t) };
  };
  const search = (prefix: readonly Choice[], from: number, left: number): ChoiceLog | null => {
    const { r, times } = run(prefix);
    if (r.checks.violations.some((v) => v.invariant === race.invariant)) return r.run.choices;
    if (left === 0) return null;
    const tape = r.run.choices.toArray();
    for (let i = from; i < tape.length; i++) {
      if (atMs !== null && !(times[i]! >= atMs && times[i]! <= atMs + WINDOW_MS)) continue;
      for (let j = 1; j < tape[i]!.n; j++) {
        if (++tries > MAX_TRIES) return null;
        const found = search([...tape.slice(0, i), { ...tape[i]!, index: j }], i + 1, left - 1);
        if (found !== null) return found;
      }
    }
    return null;
  };
  return search([], 0, atMs === null ? 1 : depth);
}

/** An exploration at other seeds (their draws differ too), kept only when fifo passes at the seed it found. */
function explored(race: RaceEntry, timing: RawScenario, runs: number): Win | null {
  for (const strategy of ["pos", "random"] as const) {
    const report = exploreSync({ source: { raw: timing, label: race.hunt.file }, runs, strategy, seed: 1, invariants: [race.invariant], shrink: false, outDir: null });
    const found = report.found;
    if (found === null || found.failure.kind !== "invariant" || found.failure.id !== race.invariant) continue;
    const raw = { ...timing, seed: found.seed };
    if (breaks(raw, race)) continue;
    const shrunk = new Shrinker(new RunContext(report.plan), found.failure).shrinkSchedule(found);
    return { raw, found: strategy, win: ChoiceLog.from(shrunk.choices), deviations: deviationCount(shrunk.choices) };
  }
  return null;
}

interface Timing {
  raw: RawScenario;
  how: string;
  /** The instant a moved step now shares with other activity: the search deviates there. */
  atMs: number | null;
  swarmSeed: number | null;
}

/**
 * Timings to try, most faithful first: the hunt form as written; then one of its steps moved to an
 * instant where something else happens in its fifo run (within the swarm's jitter after it), so
 * that the step and that activity are runnable at once and their order is the learner's choice;
 * then the swarm's own draws.
 */
function* timings(race: RaceEntry, base: RawScenario): Generator<Timing> {
  const compiled = compileRawOrThrow(base, race.hunt.file);
  const { swarm: _s, ...asWritten } = base;
  yield { raw: asWritten, how: "as written", atMs: null, swarmSeed: null };
  const jitterMs = compiled.swarm?.jitterMs ?? 4000;
  const run = simulate(compiled, { strategy: { name: "fifo" } });
  const instants = [...new Set((run.records ?? []).map((r) => r.t))].sort((a, b) => a - b);
  const steps = (asWritten["timeline"] as { at?: string }[] | undefined) ?? [];
  const ats = [...new Set(steps.map((st) => (typeof st.at === "string" ? parseDuration(st.at) : 0)).filter((at) => at > 0))];
  for (const at of ats) {
    for (const t of instants.filter((x) => x > at && x <= at + jitterMs)) {
      const timeline = steps.map((st) => (typeof st.at === "string" && parseDuration(st.at) === at ? { ...st, at: `${t}ms` } : st));
      yield { raw: { ...asWritten, timeline }, how: `the step at ${at}ms moved to ${t}ms`, atMs: t, swarmSeed: null };
    }
  }
  for (let swarmSeed = 1; swarmSeed <= SWARM_SEEDS; swarmSeed++) yield { raw: applySwarm(base, compiled, swarmSeed), how: `swarm draw ${swarmSeed}`, atMs: null, swarmSeed };
}

/**
 * Random walks the way a learner plays: at the timing's own seed, from the first choice to the end,
 * each choice fifo's answer but for one in `1/oddsOfDeviation` where another option is drawn. Each
 * step runs the level again from the start to its next choice (src/play/session.ts), as the page
 * does. The first walk that breaks the invariant, or null when the time is up.
 */
function walks(race: RaceEntry, raw: RawScenario, budgetMs: number): ChoiceLog | null {
  const level: PlayLevel = { id: race.id, title: "", brief: "", hint: "", invariant: race.invariant, scenarioFile: race.hunt.file, scenarioSha256: "", kubelet: null, scenario: compileRawOrThrow(raw, race.hunt.file) };
  const rng = new Rng("play-levels", streamSeed(1, race.id));
  const startMs = performance.now();
  while (performance.now() - startMs < budgetMs) {
    const oddsOfDeviation = 4 + rng.below(30);
    const prefix: Choice[] = [];
    for (;;) {
      const o = playTo(level, prefix);
      if (o.broken !== null) return ChoiceLog.from(playToEnd(level, prefix).tape);
      if (o.kind === "end") break;
      const index = rng.ratio(1, oddsOfDeviation) ? 1 + rng.below(o.choice.n - 1) : 0;
      prefix.push({ kind: o.choice.kind, n: o.choice.n, index });
    }
  }
  return null;
}

function findLevel(race: RaceEntry): { entry: PlayLevelEntry; raw: RawScenario } | null {
  const base: RawScenario = { ...raceRawScenario(race, "buggy", "hunt"), expect: [{ never: race.invariant }] };
  const startMs = performance.now();
  if (WALK_MS > 0) {
    const { swarm: _s, ...asWritten } = base;
    const walked = breaks(asWritten, race) ? null : walks(race, asWritten, WALK_MS);
    if (walked !== null) {
      return { raw: asWritten, entry: { race: race.id, timing: "as written", seed: compileRawOrThrow(asWritten, race.hunt.file).seed, found: "random walks", win: walked.encode(), deviations: walked.deviations(), choices: walked.length } };
    }
  }
  for (const timing of timings(race, base)) {
    if (performance.now() - startMs > BUDGET_MS) break;
    const w = winOn(race, timing);
    if (w === null) continue;
    const entry: PlayLevelEntry = { race: race.id, timing: timing.how, seed: compileRawOrThrow(w.raw, race.hunt.file).seed, found: w.found, win: w.win.encode(), deviations: w.deviations, choices: w.win.length };
    return { raw: w.raw, entry };
  }
  return null;
}

/**
 * The fallback when no timing of the hunt form was found where interleaving alone wins (a race of
 * timing, whose choices at one instant cannot reach the window): the deterministic form, where
 * fifo's own run breaks the invariant. The level says so; its shortest win is fifo's, 0 deviations.
 */
function demoLevel(race: RaceEntry): { entry: PlayLevelEntry; raw: RawScenario } {
  const raw: RawScenario = { ...raceRawScenario(race, "buggy", "demo"), expect: [{ never: race.invariant }] };
  const r = simulate(compileRawOrThrow(raw, race.file), { strategy: { name: "fifo" }, sinks: [], keepRecords: false });
  if (!r.checks.violations.some((v) => v.invariant === race.invariant)) throw new Error(`${race.id}: its deterministic form does not break ${race.invariant} under fifo`);
  const entry: PlayLevelEntry = { race: race.id, timing: `the deterministic form ${race.file}: fifo breaks the invariant`, seed: compileRawOrThrow(raw, race.file).seed, found: "fifo", win: r.run.choices.encode(), deviations: 0, choices: r.run.choices.length };
  return { raw, entry };
}

function yamlOf(race: RaceEntry, entry: PlayLevelEntry, raw: RawScenario): string {
  const head = [
    `# Play mode's level for ${race.id} (kubelet-sim play ${race.id.toLowerCase()}), written by scripts/update-play-levels.ts:`,
    entry.deviations === 0
      ? `# ${entry.timing} (no timing of the hunt form was found where interleaving alone breaks it).`
      : `# the hunt form ${race.hunt.file} on the buggy side (timing: ${entry.timing}), at seed ${entry.seed},\n# where fifo passes and another interleaving breaks ${race.invariant}.`,
  ];
  const { swarm: _swarm, ...rest } = raw;
  return `${head.join("\n")}\n${stringify({ ...rest, name: `${race.id.toLowerCase()}-play` }, { lineWidth: 0 })}`;
}

const only = process.argv.includes("--races") ? process.argv[process.argv.indexOf("--races") + 1]!.split(",") : null;
mkdirSync(join(ROOT, PLAY_DIR), { recursive: true });
for (const race of RACES) {
  if (only !== null && !only.includes(race.id)) continue;
  const t0 = performance.now();
  const level = findLevel(race);
  if (level === null) {
    const fallback = demoLevel(race);
    writeFileSync(join(ROOT, playFile(race.id)), yamlOf(race, fallback.entry, fallback.raw));
    writeFileSync(join(ROOT, PLAY_DIR, `${race.id.toLowerCase()}.json`), `${JSON.stringify(fallback.entry, null, 2)}\n`);
    console.log(`${race.id}: no timing tried is winnable by interleaving alone; the level is the deterministic form`);
    continue;
  }
  writeFileSync(join(ROOT, playFile(race.id)), yamlOf(race, level.entry, level.raw));
  writeFileSync(join(ROOT, PLAY_DIR, `${race.id.toLowerCase()}.json`), `${JSON.stringify(level.entry, null, 2)}\n`);
  console.log(`${race.id}: ${level.entry.timing}, seed ${level.entry.seed}, win in ${level.entry.deviations} deviations (${Math.round(performance.now() - t0)}ms)`);
}
