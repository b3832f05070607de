// Writes play mode's levels (scenarios/races/play/): for each catalogued race, its hunt form on the
// buggy side as a level, and beside it rNN.json, the shortest win found and how:
//   1. a win by order (play-levels/order.ts): a timing at which fifo keeps the invariant and a few
//      choices away from fifo break it. That timing becomes the level's written one, and its swarm
//      ranges are narrowed (play-levels/narrow.ts) until every timing they allow can be run, and
//      every one keeps the invariant under fifo: only an interleaving wins. The seed is no knob there.
//   2. otherwise a win by timing (play-levels/timing.ts): the level keeps the hunt form's ranges and
//      fifo breaks the invariant at the timing found; or, for races that turn on the kubelet's own
//      random draws, at another seed.
//   3. a race neither wins falls back to its deterministic form, where fifo breaks the invariant.
// Each level's notes carry the race page's "why" paragraph; each race page's "Play it" paragraph
// is written from the notes.
//   node --import tsx scripts/update-play-levels.ts [--races R05,R08] [--order-runs 6000] [--prefer] [--draws 400] [--seeds 300]
//   (--prefer also tries, at each instant, letting one goroutine go first at every choice there;
//    --every-latency gives every CRI method the run calls a latency knob to make coincidences with)
//   node --import tsx scripts/update-play-levels.ts --docs-only   (the notes' why and the race pages' paragraphs)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { RACES, type RaceEntry } from "../src/races/catalog.ts";
import { changedKnobs, type TimingValues } from "../src/play/timing.ts";
import { claimSize } from "../src/play/claim.ts";
import { PLAY_DIR, playFile, playNotesFile, type PlayLevelEntry } from "../src/play/levels.ts";
import { ChoiceLog, type Choice } from "../src/sim/index.ts";
import { levelText, makeLevel, ROOT, runAt, type Level } from "./play-levels/level.ts";
import { orderWin, withEveryLatency } from "./play-levels/order.ts";
import { narrowed } from "./play-levels/narrow.ts";
import { seedWin, timingWin } from "./play-levels/timing.ts";
import { whyParagraph } from "./play-levels/why.ts";
import { updateRacePage } from "./play-levels/docs.ts";

const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const ORDER_RUNS = arg("--order-runs", 6000);
const DRAWS = arg("--draws", 400);
const SEEDS = arg("--seeds", 300);

function entry(level: Level, values: TimingValues, tape: readonly Choice[], found: string, mode: PlayLevelEntry["mode"]): PlayLevelEntry {
  const log = ChoiceLog.from(tape);
  const knobs = Object.fromEntries(changedKnobs(level.knobs, values).map((id) => [id, values[id]!]));
  const words = Object.entries(knobs).map(([id, v]) => `${level.knobs.find((k) => k.id === id)!.label} ${v}${id === "seed" ? "" : "ms"}`);
  return { race: level.race.id, timing: words.length === 0 ? "as written" : words.join("; "), knobs, seed: level.loaded.scenario.seed, found, win: log.encode(), deviations: log.deviations(), choices: log.length, mode, why: whyParagraph(ROOT, level.race.id) };
}

/** The order level: the win's timing written in, ranges narrowed, the win checked on the text as written. */
function orderLevel(at: Level, tape: readonly Choice[], atMs: number, form: "hunt" | "demo"): { level: Level; win: PlayLevelEntry } {
  const { level, jitterMs } = narrowed(at, {});
  const doc = parseDocument(level.text);
  doc.commentBefore = [
    ` Play mode's level for ${level.race.id} (kubelet-sim play ${level.race.id.toLowerCase()}), written by`,
    ` scripts/update-play-levels.ts from ${form === "hunt" ? `the hunt form ${level.race.hunt.file}` : `the deterministic form ${level.race.file}`} on the buggy side, at a timing`,
    ` where fifo keeps the invariant and an interleaving breaks it.${jitterMs === 0 ? "" : " Its swarm section is narrowed to the"}`,
    jitterMs === 0
      ? " It has no timing knob: its step a millisecond later already breaks the invariant under fifo."
      : ` timings a test runs every one of (${claimSize(level.knobs)}), each keeping the invariant under fifo.`,
  ].join("\n");
  const final = makeLevel(level.race, doc.toString({ lineWidth: 0 }));
  const last = Math.max(-1, ...tape.flatMap((c, i) => (c.index === 0 ? [] : [i])));
  const won = runAt(final, {}, tape.slice(0, last + 1));
  if (!won.broken || runAt(final, {}).broken) throw new Error(`${level.race.id}: the order win found does not hold on the level as written`);
  const found = `order: a coincidence at ${atMs}ms${jitterMs === 0 ? ", no timing knob" : `, step jitter ${jitterMs}ms`}`;
  return { level: final, win: entry(final, {}, won.tape, found, "order") };
}

function findLevel(race: RaceEntry): { level: Level; win: PlayLevelEntry } {
  const hunt = makeLevel(race, levelText(race, "hunt"));
  if (runAt(hunt, {}).broken) throw new Error(`${race.id}: its hunt form breaks ${race.invariant} under fifo as written: no level to win`);
  const timed = timingWin(hunt, DRAWS);
  const bases: TimingValues[] = [{}];
  if (timed !== null) bases.push(Object.fromEntries(Object.entries(timed).filter(([k]) => k !== "seed")));
  const order = orderWin(process.argv.includes("--every-latency") ? withEveryLatency(hunt) : hunt, bases, ORDER_RUNS);
  if (order !== null) return orderLevel(order.level, order.tape, order.atMs, "hunt");
  // The deterministic form is timed for the bug: near its timing the goroutines that matter meet.
  // It has no swarm section; one with a step jitter gives the search its knobs to move.
  const demoDoc = parseDocument(levelText(race, "demo"));
  demoDoc.set("swarm", demoDoc.createNode({ jitter: "5s" }, { flow: true }));
  const fromDemo = orderWin(makeLevel(race, demoDoc.toString({ lineWidth: 0 })), [{}], ORDER_RUNS);
  if (fromDemo !== null) return orderLevel(fromDemo.level, fromDemo.tape, fromDemo.atMs, "demo");
  const values = timed ?? seedWin(hunt, SEEDS, DRAWS);
  if (values !== null) return { level: hunt, win: entry(hunt, values, runAt(hunt, values).tape, timed !== null ? "timing under fifo" : "another seed under fifo", "timing") };
  const demo = makeLevel(race, levelText(race, "demo"));
  const r = runAt(demo, {});
  if (!r.broken) throw new Error(`${race.id}: its deterministic form does not break ${race.invariant} under fifo`);
  return { level: demo, win: entry(demo, {}, r.tape, "fifo", "demo") };
}

const only = process.argv.includes("--races") ? process.argv[process.argv.indexOf("--races") + 1]!.split(",") : null;
mkdirSync(join(ROOT, PLAY_DIR), { recursive: true });
for (const race of RACES) {
  if (only !== null && !only.includes(race.id)) continue;
  if (process.argv.includes("--docs-only")) {
    const notesPath = join(ROOT, playNotesFile(race.id));
    const notes = { ...(JSON.parse(readFileSync(notesPath, "utf8")) as PlayLevelEntry), why: whyParagraph(ROOT, race.id) };
    writeFileSync(notesPath, `${JSON.stringify(notes, null, 2)}\n`);
    updateRacePage(makeLevel(race, readFileSync(join(ROOT, playFile(race.id)), "utf8")), notes);
    continue;
  }
  const t0 = performance.now();
  const { level, win } = findLevel(race);
  writeFileSync(join(ROOT, playFile(race.id)), level.text);
  writeFileSync(join(ROOT, playNotesFile(race.id)), `${JSON.stringify(win, null, 2)}\n`);
  updateRacePage(level, win);
  console.log(`${race.id}: ${win.mode}; ${win.timing}; ${win.deviations} deviations; ${win.found} (${Math.round(performance.now() - t0)}ms)`); // host-time-ok: progress only
}
