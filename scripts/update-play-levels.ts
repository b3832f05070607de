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
//   node --import tsx scripts/update-play-levels.ts [--races R05,R08] [--order-runs 6000] [--prefer] [--every-latency] [--edge-runs 3000] [--draws 400] [--seeds 300]
//   (--prefer also tries, at each instant, letting one goroutine go first at every choice there;
//    --every-latency gives every CRI method the run calls a latency knob to make coincidences with;
//    --edge-runs N then searches the edges of the timing win with a budget of N runs: play-levels/edge.ts)
//   node --import tsx scripts/update-play-levels.ts --docs-only   (the notes' why and the race pages' paragraphs)
//   node --import tsx scripts/update-play-levels.ts --headers-only   (the order levels' opening comments)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { RACES, type RaceEntry } from "../src/races/catalog.ts";
import { changedKnobs, type TimingValues } from "../src/play/timing.ts";
import { PLAY_DIR, playFile, playNotesFile, type PlayLevelEntry } from "../src/play/levels.ts";
import { ChoiceLog, type Choice } from "../src/sim/index.ts";
import { levelText, makeLevel, ROOT, runAt, type Level } from "./play-levels/level.ts";
import { orderWin, withEveryLatency } from "./play-levels/order.ts";
import { narrowed } from "./play-levels/narrow.ts";
import { seedWin, timingWin } from "./play-levels/timing.ts";
import { whyParagraph } from "./play-levels/why.ts";
import { orderHeader } from "./play-levels/header.ts";
import { updateRacePage } from "./play-levels/docs.ts";

const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const ORDER_RUNS = arg("--order-runs", 6000);
const DRAWS = arg("--draws", 400);
const SEEDS = arg("--seeds", 300);
const EDGE_RUNS = arg("--edge-runs", 0);

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
  doc.commentBefore = orderHeader(level.race, form, level, jitterMs, levelText(level.race, form));
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
  const values = timed ?? seedWin(hunt, SEEDS, DRAWS);
  // The edges are searched from the timing win as found, its seed included: an order level may be
  // written at another seed, as long as it is no knob there.
  const edgeBases = values === null ? [] : [values];
  const every = (l: Level) => (process.argv.includes("--every-latency") ? withEveryLatency(l) : l);
  const order = orderWin(every(hunt), bases, ORDER_RUNS, EDGE_RUNS, edgeBases);
  if (order !== null) return orderLevel(order.level, order.tape, order.atMs, "hunt");
  // The deterministic form is timed for the bug: near its timing the goroutines that matter meet,
  // and fifo breaks the invariant there, so its edges are searched too. It has no swarm section;
  // one with a step jitter gives the search its knobs to move.
  const demoDoc = parseDocument(levelText(race, "demo"));
  demoDoc.set("swarm", demoDoc.createNode({ jitter: "5s" }, { flow: true }));
  const fromDemo = orderWin(every(makeLevel(race, demoDoc.toString({ lineWidth: 0 }))), [{}], ORDER_RUNS, EDGE_RUNS, [{}]);
  if (fromDemo !== null) return orderLevel(fromDemo.level, fromDemo.tape, fromDemo.atMs, "demo");
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
  if (process.argv.includes("--headers-only")) {
    // An order level's opening comment again (play-levels/header.ts), its text otherwise as it is.
    const path = join(ROOT, playFile(race.id));
    const text = readFileSync(path, "utf8");
    const notes = JSON.parse(readFileSync(join(ROOT, playNotesFile(race.id)), "utf8")) as PlayLevelEntry;
    if (notes.mode !== "order") continue;
    const form = text.includes(`from the hunt form ${race.hunt.file}`) ? "hunt" : "demo";
    const doc = parseDocument(text);
    const jitterMs = doc.has("swarm") ? Number(/^(\d+)ms$/.exec(String(doc.getIn(["swarm", "jitter"])))?.[1] ?? 0) : 0;
    doc.commentBefore = orderHeader(race, form, makeLevel(race, text), jitterMs, levelText(race, form));
    writeFileSync(path, doc.toString({ lineWidth: 0 }));
    continue;
  }
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
