// What `kubelet-sim play RACE-OR-FILE` plays: a catalogued race's level (its scenario under
// scenarios/races/play/, see src/play/levels.ts), or any scenario file, where breaking any
// invariant wins. The scenario is loaded and compiled here, on the Node side, and handed to the page.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RACES } from "../races/catalog.ts";
import type { PlayLevel } from "../play/level.ts";
import { playFile, playNotesFile, type PlayLevelEntry } from "../play/levels.ts";
import { textSha256 } from "../record/run_record.ts";
import { loadScenarioFile } from "../scenario/index.ts";
import { ScenarioError } from "../scenario/errors.ts";
import { UserError } from "./exit.ts";
import { BUNDLED_SCENARIOS_DIR, resolveScenarioArg } from "./scenario_arg.ts";

const PACKAGE_ROOT = join(BUNDLED_SCENARIOS_DIR, "..");
const RACE_ARG = /^r\d+$/i;

/** The level the user named; a UserError (one line, exit 2) for an unknown race or a bad file. */
export function resolveLevel(arg: string): PlayLevel {
  if (RACE_ARG.test(arg) && !existsSync(arg)) return raceLevel(arg);
  const path = resolveScenarioArg(arg);
  if (!existsSync(path)) throw new UserError(`${arg}: no such race or scenario file (races: ${raceLevelIds().join(", ")})`);
  const scenario = load(path);
  return {
    id: scenario.name,
    title: scenario.name,
    brief: firstSentence(scenario.description) ?? `The scenario ${arg}, with you as the scheduler.`,
    hint: "Every choice is where Go leaves the order open: try the goroutines that touch the same pod.",
    invariant: null,
    scenarioFile: arg,
    scenarioSha256: textSha256(readFileSync(path, "utf8")),
    kubelet: null,
    scenario,
  };
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
  return {
    id: race.id,
    title: race.title,
    brief: notes.deviations > 0
      ? `The kubelet here is ${race.buggy.label}. As the scenario is timed here, fifo keeps the invariant ${race.invariant}: make it break by choosing who runs.`
      : `The kubelet here is ${race.buggy.label}. This race is one of timing: no timing of its hunt form was found where choices at one instant break ${race.invariant}, so the level is its deterministic form, where fifo breaks it. Step through and watch the shared state go wrong.`,
    hint: notes.deviations > 0
      ? `What the bug needs: ${race.hunt.needs}. The shortest win found takes ${notes.deviations} choice${notes.deviations === 1 ? "" : "s"} away from fifo.`
      : `What the bug needs: ${race.hunt.needs}. Here fifo alone breaks it: press "let fifo run", then undo and step to the moment it goes wrong.`,
    invariant: race.invariant,
    scenarioFile: file,
    scenarioSha256: textSha256(readFileSync(path, "utf8")),
    kubelet: null,
    scenario: load(path),
  };
}

function load(path: string) {
  try {
    return loadScenarioFile(path).scenario;
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
