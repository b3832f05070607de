// Writes play mode's levels (scenarios/races/play/): for each catalogued race, its hunt form on the
// buggy side, comments and `swarm` ranges kept, so that the page offers the swarm's timings as
// knobs (src/play/timing.ts). As written, fifo keeps the invariant; the learner wins by setting
// the timing and choosing who runs. Beside each level, rNN.json: the shortest win found, as the
// knobs it sets and its choice tape, and how it was found:
//   1. timing alone under fifo: each knob over a grid of its range, then pairs, then random draws
//      of all knobs; the win's knobs are then dropped one by one while it still wins;
//   2. choices at the written timing, or with one step moved onto an instant where something else
//      happens (within the step's range), up to DEPTH deviations there;
//   3. when neither wins: other seeds (the kubelet's own random draws), alone, then with one
//      timing knob set.
// The smaller win (knobs changed + deviations) is kept. A race none of this wins falls back to its
// deterministic form, where fifo breaks the invariant; that level has no knobs and says so.
//   node --import tsx scripts/update-play-levels.ts [--races R05,R08] [--tries 150] [--draws 400] [--seeds 300]
//   node --import tsx scripts/update-play-levels.ts --docs-only   (the race pages' "Play it" paragraphs from the notes)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { RACES, sideOverrides, type RaceEntry } from "../src/races/catalog.ts";
import { loadScenarioText, type LoadResult } from "../src/scenario/index.ts";
import { simulate } from "../src/simulate.ts";
import { ChoiceLog, KernelLog, type Choice } from "../src/sim/index.ts";
import { Rng, streamSeed } from "../src/sim/rng.ts";
import { PLAY_DIR, playFile, playNotesFile, winSize, type PlayLevelEntry } from "../src/play/levels.ts";
import { changedKnobs, pinTiming, timingKnobs, type TimingKnob, type TimingValues } from "../src/play/timing.ts";

const ROOT = join(import.meta.dirname, "..");
const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const MAX_TRIES = arg("--tries", 150);
const DRAWS = arg("--draws", 400);
const DEPTH = 3;
const GRID = 12;
const SEEDS = arg("--seeds", 300);

interface Level {
  race: RaceEntry;
  text: string;
  knobs: TimingKnob[];
  loaded: LoadResult;
}

/** The form's text made a level: named, on the buggy side, expecting the race's invariant never to break. */
function levelText(race: RaceEntry, form: "hunt" | "demo"): string {
  const file = form === "hunt" ? race.hunt.file : race.file;
  const doc = parseDocument(readFileSync(join(ROOT, file), "utf8"));
  const o = sideOverrides(race.buggy);
  doc.set("name", `${race.id.toLowerCase()}-play`);
  if (o.version !== undefined) doc.setIn(["kubelet", "version"], o.version);
  for (const [k, v] of Object.entries(o.variants ?? {})) doc.setIn(["kubelet", "variants", k], v);
  for (const [k, v] of Object.entries(o.featureGates ?? {})) doc.setIn(["kubelet", "featureGates", k], v);
  doc.set("expect", doc.createNode([{ never: race.invariant }], { flow: false }));
  doc.commentBefore = [
    ` Play mode's level for ${race.id} (kubelet-sim play ${race.id.toLowerCase()}), written by`,
    ` scripts/update-play-levels.ts from ${form === "hunt" ? "the hunt form" : "the deterministic form"} ${file}`,
    form === "hunt"
      ? " on the buggy side. Its swarm ranges are the timings the page lets the learner set."
      : " on the buggy side: no timing of the hunt form was found that wins.",
  ].join("\n");
  return doc.toString({ lineWidth: 0 });
}

function makeLevel(race: RaceEntry, text: string): Level {
  const loaded = loadScenarioText(text, playFile(race.id));
  return { race, text, loaded, knobs: timingKnobs(loaded.raw, loaded.scenario) };
}

/** The fifo run (or the tape's) at a timing, with the virtual time of each choice. */
function runAt(level: Level, values: TimingValues, tape: readonly Choice[] = []) {
  const scenario = loadScenarioText(pinTiming(level.text, level.knobs, values), playFile(level.race.id)).scenario;
  const log = new KernelLog();
  const r = simulate(scenario, { strategy: { name: "replay", tape: ChoiceLog.from(tape), whenExhausted: "fifo" }, sinks: [], keepRecords: false, observer: log });
  return { broken: r.checks.violations.some((v) => v.invariant === level.race.invariant), choices: r.run.choices, times: log.choices.map((c) => c.t) };
}

/** Values across a knob's range: whole 100ms steps when the range is 2s or more, else whole 10ms. */
function grid(k: TimingKnob, points: number): number[] {
  const unit = k.maxMs - k.minMs >= 2000 ? 100 : 10;
  const out = new Set<number>();
  for (let i = 0; i < points; i++) out.add(Math.min(k.maxMs, Math.max(k.minMs, Math.round((k.minMs + ((k.maxMs - k.minMs) * i) / (points - 1)) / unit) * unit)));
  return [...out].filter((v) => v !== k.writtenMs);
}

function* timingCandidates(level: Level): Generator<TimingValues> {
  const knobs = level.knobs.filter((k) => k.kind !== "seed");
  for (const k of knobs) for (const v of grid(k, GRID)) yield { [k.id]: v };
  for (let a = 0; a < knobs.length; a++) {
    for (let b = a + 1; b < knobs.length; b++) {
      for (const va of grid(knobs[a]!, 7)) for (const vb of grid(knobs[b]!, 7)) yield { [knobs[a]!.id]: va, [knobs[b]!.id]: vb };
    }
  }
  const rng = new Rng("play-levels", streamSeed(1, level.race.id));
  for (let i = 0; i < DRAWS && knobs.length > 2; i++) yield Object.fromEntries(knobs.map((k) => [k.id, Math.round(rng.int(k.minMs, k.maxMs) / 10) * 10]));
}

/** Phase 1: a timing where fifo itself breaks the invariant, with as few knobs changed as still wins. */
function timingWin(level: Level): { values: TimingValues; tape: ChoiceLog } | null {
  for (const values of timingCandidates(level)) {
    if (!runAt(level, values).broken) continue;
    const kept: Record<string, number> = { ...values };
    for (const id of Object.keys(values)) {
      const { [id]: _drop, ...without } = kept;
      if (runAt(level, without).broken) delete kept[id];
    }
    return { values: kept, tape: runAt(level, kept).choices };
  }
  return null;
}

/**
 * Phase 2: up to DEPTH deviations from fifo, each at `atMs` (any instant when null: then one
 * deviation only), each tried in the run the earlier ones lead to. Bounded to MAX_TRIES runs.
 */
function choiceWin(level: Level, values: TimingValues, atMs: number | null): ChoiceLog | null {
  let tries = 0;
  const search = (prefix: readonly Choice[], from: number, left: number): ChoiceLog | null => {
    const { broken, choices, times } = runAt(level, values, prefix);
    if (broken) return choices;
    if (left === 0) return null;
    const tape = choices.toArray();
    for (let i = from; i < tape.length; i++) {
      if (atMs !== null && times[i] !== atMs) continue;
      for (let j = 1; j < tape[i]!.n; j++) {
        if (++tries > MAX_TRIES) return null;
        const found = search([...tape.slice(0, i), { ...tape[i]!, index: j }], i + 1, left - 1);
        if (found !== null) return found;
      }
    }
    return null;
  };
  return search([], 0, atMs === null ? 1 : DEPTH);
}

/** Step knobs set onto the instants inside their range where the written run does something. */
function* movedSteps(level: Level): Generator<{ values: TimingValues; atMs: number }> {
  const { times } = runAt(level, {});
  const instants = [...new Set(times)].sort((a, b) => a - b);
  for (const k of level.knobs.filter((k) => k.kind === "step")) {
    for (const t of instants.filter((x) => x > k.minMs && x <= k.maxMs)) yield { values: { [k.id]: t }, atMs: t };
  }
}

function entry(level: Level, values: TimingValues, tape: ChoiceLog, found: string): PlayLevelEntry {
  const knobs = Object.fromEntries(changedKnobs(level.knobs, values).map((id) => [id, values[id]!]));
  const words = Object.entries(knobs).map(([id, v]) => `${level.knobs.find((k) => k.id === id)!.label} ${v}${id === "seed" ? "" : "ms"}`);
  return { race: level.race.id, timing: words.length === 0 ? "as written" : words.join("; "), knobs, seed: level.loaded.scenario.seed, found, win: tape.encode(), deviations: tape.deviations(), choices: tape.length };
}

function findWin(level: Level): PlayLevelEntry | null {
  if (runAt(level, {}).broken) throw new Error(`${level.race.id}: its hunt form breaks ${level.race.invariant} under fifo as written: no level to win`);
  const wins: PlayLevelEntry[] = [];
  const asWritten = choiceWin(level, {}, null);
  if (asWritten !== null) return entry(level, {}, asWritten, "one deviation at the written timing");
  const timed = timingWin(level);
  if (timed !== null) wins.push(entry(level, timed.values, timed.tape, "timing under fifo"));
  if (timed === null || Object.keys(timed.values).length > 2) {
    for (const { values, atMs } of movedSteps(level)) {
      const w = choiceWin(level, values, atMs);
      if (w !== null) {
        wins.push(entry(level, values, w, `deviations at ${atMs}ms`));
        break;
      }
    }
  }
  return wins.sort((a, b) => winSize(a) - winSize(b))[0] ?? seedWin(level);
}

/**
 * Phase 3, for races that turn on the kubelet's own random draws (a probe worker's first sleep, an
 * event's delay): other seeds at the written timing, then other seeds with one timing knob set.
 */
function seedWin(level: Level): PlayLevelEntry | null {
  const written = level.loaded.scenario.seed;
  for (let seed = 1; seed <= SEEDS; seed++) {
    if (seed === written) continue;
    const r = runAt(level, { seed });
    if (r.broken) return entry(level, { seed }, r.choices, "another seed under fifo");
  }
  const rng = new Rng("play-levels-seeds", streamSeed(1, level.race.id));
  const knobs = level.knobs.filter((k) => k.kind !== "seed");
  for (let i = 0; i < DRAWS && knobs.length > 0; i++) {
    const k = knobs[rng.below(knobs.length)]!;
    const values = { seed: 1 + rng.below(SEEDS), [k.id]: rng.int(k.minMs, k.maxMs) };
    const r = runAt(level, values);
    if (r.broken) return entry(level, values, r.choices, "another seed and timing under fifo");
  }
  return null;
}

function demoEntry(level: Level): PlayLevelEntry {
  const { broken, choices } = runAt(level, {});
  if (!broken) throw new Error(`${level.race.id}: its deterministic form does not break ${level.race.invariant} under fifo`);
  return entry(level, {}, choices, "fifo");
}

/** The race page's "Play it" paragraph (docs/races/rNN.md), from the level and its notes. */
function playParagraph(level: Level, win: PlayLevelEntry): string {
  const file = `\`${playFile(level.race.id)}\``;
  const knobs = level.knobs.map((k) => k.label.replace(/ (takes|happens at|is)$/, ""));
  if (knobs.length === 0) return `The level (${file}) is this race's deterministic form, where fifo breaks the invariant: step through it and watch the shared state go wrong. See [play mode](../teaching.md#play-mode).`;
  const changes = Object.keys(win.knobs).length;
  const timing = changes === 0 ? "at the written timing" : `${win.timing} (${changes} timing change${changes === 1 ? "" : "s"})`;
  const choices = `${win.deviations} choice${win.deviations === 1 ? "" : "s"} away from fifo`;
  return `The level (${file}) is this race's hunt form, timed so that fifo keeps the invariant. You set its timing (${knobs.join("; ")}) and choose who runs. The shortest win found: ${timing}, and ${choices}. See [play mode](../teaching.md#play-mode).`;
}

function updateRacePage(level: Level, win: PlayLevelEntry): void {
  const path = join(ROOT, "docs", "races", `${level.race.id.toLowerCase()}.md`);
  const md = readFileSync(path, "utf8");
  const section = md.indexOf("## Play it\n");
  if (section < 0) throw new Error(`${path}: no "## Play it" section`);
  const fenceEnd = md.indexOf("```\n\n", md.indexOf("```", section) + 3) + 5;
  const paraEnd = md.indexOf("\n", fenceEnd);
  writeFileSync(path, `${md.slice(0, fenceEnd)}${playParagraph(level, win)}${md.slice(paraEnd)}`);
}

const only = process.argv.includes("--races") ? process.argv[process.argv.indexOf("--races") + 1]!.split(",") : null;
mkdirSync(join(ROOT, PLAY_DIR), { recursive: true });
for (const race of RACES) {
  if (only !== null && !only.includes(race.id)) continue;
  if (process.argv.includes("--docs-only")) {
    const level = makeLevel(race, readFileSync(join(ROOT, playFile(race.id)), "utf8"));
    updateRacePage(level, JSON.parse(readFileSync(join(ROOT, playNotesFile(race.id)), "utf8")) as PlayLevelEntry);
    continue;
  }
  const t0 = performance.now();
  let level = makeLevel(race, levelText(race, "hunt"));
  let win = findWin(level);
  if (win === null) {
    level = makeLevel(race, levelText(race, "demo"));
    win = demoEntry(level);
  }
  writeFileSync(join(ROOT, playFile(race.id)), level.text);
  writeFileSync(join(ROOT, playNotesFile(race.id)), `${JSON.stringify(win, null, 2)}\n`);
  updateRacePage(level, win);
  console.log(`${race.id}: ${win.timing}; ${win.deviations} deviations; found by ${win.found} (${Math.round(performance.now() - t0)}ms)`);
}
