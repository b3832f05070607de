// A level's scenario at the learner's timing, compiled where the page runs (the browser, or Node in
// the tests): the level's text with the timing written in (timing.ts), through the same checks and
// compiler as `kubelet-sim run` (scenario/check.ts). The text is what an export carries.
import { checkScenarioText } from "../scenario/check.ts";
import { formatIssue } from "../scenario/errors.ts";
import type { Scenario } from "../scenario/resolve.ts";
import type { PlayLevel, PlayLevelChoice } from "./level.ts";
import { changedKnobs, pinTiming, type TimingValues } from "./timing.ts";

export interface TimedScenario {
  scenario: Scenario;
  /** The text that ran, or null when it is the level's file as written (no knob changed). */
  text: string | null;
}

/** The level's scenario at `values`; throws an Error listing the problems of a timing that does not compile. */
export function compileTiming(level: PlayLevel | PlayLevelChoice, values: TimingValues): TimedScenario {
  const changed = changedKnobs(level.knobs, values).length > 0;
  if (!changed && "scenario" in level) return { scenario: level.scenario, text: null };
  if (level.scenarioText === null) throw new Error(`${level.scenarioFile}: this level's timing cannot be changed in the page`);
  const text = pinTiming(level.scenarioText, level.knobs, values);
  const checked = checkScenarioText(text, level.scenarioFile);
  if (!checked.ok) throw new Error(checked.issues.map(formatIssue).join("\n"));
  return { scenario: checked.scenario, text: changed ? text : null };
}

/** The level as the session runs it at this timing. */
export function timedLevel(level: PlayLevel | PlayLevelChoice, values: TimingValues): { level: PlayLevel; text: string | null } {
  const timed = compileTiming(level, values);
  return { level: { ...level, scenario: timed.scenario }, text: timed.text };
}
