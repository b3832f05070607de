// What `kubelet-sim play RACE-OR-FILE` plays: a catalogued race's level (its scenario under
// scenarios/races/play/, see src/play/levels.ts), or any scenario file, where breaking any
// invariant wins. The scenario is loaded and compiled here, on the Node side, and handed to the page.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { RACES } from "../races/catalog.ts";
import type { PlayLevel, PlayLevelChoice } from "../play/level.ts";
import { playFile, playNotesFile, TUTORIAL_RACE, type PlayLevelEntry } from "../play/levels.ts";
import { levelCaveat, levelGoal } from "../play/goals.ts";
import { lessonSteps } from "./play_lesson.ts";
import { timingKnobs, type TimingKnob } from "../play/timing.ts";
import { textSha256 } from "../record/run_record.ts";
import { checkScenarioText, loadScenarioFile, type LoadResult } from "../scenario/index.ts";
import { ScenarioError } from "../scenario/errors.ts";
import { UserError } from "./exit.ts";
import { BUNDLED_SCENARIOS_DIR, resolveScenarioArg } from "./scenario_arg.ts";

const PACKAGE_ROOT = join(BUNDLED_SCENARIOS_DIR, "..");
const RACE_ARG = /^r\d+$/i;

/** The level the user named; a UserError (one line, exit 2) for an unknown race or a bad file. */
export function resolveLevel(arg: string): PlayLevel {
  if (arg.toUpperCase() === TUTORIAL_ID && !existsSync(arg)) return tutorialLevel();
  if (RACE_ARG.test(arg) && !existsSync(arg)) return raceLevel(arg);
  const path = resolveScenarioArg(arg);
  if (!existsSync(path)) throw new UserError(`${arg}: no such race or scenario file (races: ${raceLevelIds().join(", ")})`);
  const loaded = load(path);
  const scenario = loaded.scenario;
  const text = readFileSync(path, "utf8");
  const standalone = compilesAlone(text, arg, loaded);
  return {
    id: scenario.name,
    title: scenario.name,
    goal: "Choose which goroutine runs (and, where the scenario has swarm ranges, set the timing) so that any invariant breaks.",
    brief: firstSentence(scenario.description) ?? `The scenario ${arg}, with you as the scheduler.`,
    hint: "Every choice is where Go leaves the order open: try the goroutines that touch the same pod.",
    invariant: null,
    mode: "file",
    why: null,
    racePage: null,
    version: scenario.kubelet.version,
    caveat: null,
    lesson: null,
    scenarioFile: arg,
    scenarioSha256: textSha256(text),
    scenario,
    scenarioText: standalone ? text : null,
    knobs: standalone ? timingKnobs(loaded.raw, scenario) : [],
  };
}

/** Every race's level, for the page's picker, the first level (the controls) first: each compiled in the page when picked. */
export function raceLevelChoices(): PlayLevelChoice[] {
  const races = RACES.map((r) => raceLevel(r.id)).sort((a, b) => a.id.localeCompare(b.id, "en", { numeric: true }));
  return [tutorialLevel(), ...races].map(({ scenario: _s, scenarioText, ...rest }) => ({ ...rest, scenarioText: scenarioText! }));
}

/** The id of the first level, which teaches the controls on an easy race's level. */
export const TUTORIAL_ID = "T0";

/** The first level: the tutorial race's level, with the three steps that teach the controls. */
export function tutorialLevel(): PlayLevel {
  const race = raceLevel(TUTORIAL_RACE);
  return { ...race, id: TUTORIAL_ID, title: `Learn the controls (${race.id}: ${race.title})`, lesson: lessonSteps(race, levelNotes(TUTORIAL_RACE)) };
}

/** A scenario that names no manifest file and is no manifest compiles from its text alone, as the page must. */
function compilesAlone(text: string, file: string, loaded: LoadResult): boolean {
  return loaded.built === null && checkScenarioText(text, file).ok;
}

/** The names `play` takes for the races, as the bare command and the docs list them. */
export function raceLevelIds(): string[] {
  return RACES.map((r) => r.id).sort();
}

/** The notes scripts/update-play-levels.ts wrote for a race's level (its shortest win). */
export function levelNotes(raceId: string): PlayLevelEntry {
  return JSON.parse(readFileSync(join(PACKAGE_ROOT, playNotesFile(raceId)), "utf8")) as PlayLevelEntry;
}

function raceLevel(arg: string): PlayLevel {
  const race = RACES.find((r) => r.id.toLowerCase() === arg.toLowerCase());
  if (race === undefined) throw new UserError(`${arg}: no such race (races: ${raceLevelIds().join(", ")})`);
  const file = playFile(race.id);
  const path = join(PACKAGE_ROOT, file);
  const notes = levelNotes(race.id);
  const text = readFileSync(path, "utf8");
  const loaded = load(path);
  // An order level's claim (fifo keeps the invariant at every timing the knobs allow) is checked over
  // its narrowed ranges; the seed stays as written there.
  const knobs = timingKnobs(loaded.raw, loaded.scenario).filter((k) => notes.mode !== "order" || k.kind !== "seed");
  const page = `docs/races/${race.id.toLowerCase()}.md`;
  const pagePath = join(PACKAGE_ROOT, page);
  return {
    id: race.id,
    title: race.title,
    goal: levelGoal(race.id, notes.mode, race.invariant),
    brief: `${levelBrief(race.buggy.label, race.invariant, notes.mode)}${levelCaveat(race.id) === null ? "" : ` ${levelCaveat(race.id)}`}`,
    hint: `What the bug needs: ${race.hunt.needs}. ${winHint(notes, knobs)}`,
    invariant: race.invariant,
    mode: notes.mode,
    why: notes.why,
    racePage: { path: page, href: existsSync(pagePath) ? pathToFileURL(pagePath).href : null },
    version: loaded.scenario.kubelet.version,
    caveat: levelCaveat(race.id),
    lesson: null,
    scenarioFile: file,
    scenarioSha256: textSha256(text),
    scenario: loaded.scenario,
    scenarioText: text,
    knobs,
  };
}

function levelBrief(kubelet: string, invariant: string, mode: PlayLevelEntry["mode"]): string {
  if (mode === "order") return `The kubelet here is ${kubelet}. At this level's timing fifo keeps the invariant ${invariant}, and so does every timing its knobs allow: only the order in which the goroutines run can break it.`;
  if (mode === "timing") return `The kubelet here is ${kubelet}. As the scenario is timed, fifo keeps the invariant ${invariant}: set the timing, and choose who runs, so that it breaks.`;
  return `The kubelet here is ${kubelet}. This level is the race's deterministic form, where fifo breaks ${invariant}: step through and watch the shared state go wrong.`;
}

/** The shortest win found, in words: which timings it changes (not their values) and how many choices. */
function winHint(notes: PlayLevelEntry, knobs: readonly TimingKnob[]): string {
  const set = Object.keys(notes.knobs).map((id) => knobNoun(knobs.find((k) => k.id === id)) ?? id);
  const choices = notes.deviations === 0 ? "no choice" : `${notes.deviations} choice${notes.deviations === 1 ? "" : "s"}`;
  if (set.length === 0 && notes.deviations === 0) return `Here fifo alone breaks it: press "let fifo run", then undo and step to the moment it goes wrong.`;
  if (set.length === 0) return `The shortest win found takes ${choices} away from fifo, at the written timing.`;
  return `The shortest win found changes ${set.join(" and ")}, and takes ${choices} away from fifo.`;
}

/** What a knob sets, as the object of "changes": "how long PullImage takes", "when delete web (written at 5s) happens". */
function knobNoun(k: TimingKnob | undefined): string | null {
  if (k === undefined) return null;
  if (k.kind === "seed") return "the seed";
  if (k.kind === "step") return `when ${k.label.replace(/ happens at$/, "")} happens`;
  return `how long ${k.label}`;
}

function load(path: string): LoadResult {
  try {
    return loadScenarioFile(path);
  } catch (err) {
    if (err instanceof ScenarioError) throw new UserError(err.message.split("\n")[0]!);
    throw err;
  }
}

function firstSentence(text: string | undefined): string | null {
  if (text === undefined || text.trim() === "") return null;
  const flat = text.replace(/\s+/g, " ").trim();
  const end = flat.indexOf(". ");
  return end < 0 ? flat : flat.slice(0, end + 1);
}
