// A level of play mode: one scenario, compiled on the Node side and handed to the page as data
// (a compiled scenario is plain JSON), with what the learner is told and what winning means. What
// a run record pins at the written timing (the scenario file and the sha256 of its text) is worked
// out on the Node side too; the page compiles a level itself only at the learner's timing, or
// when the picker switches to it (compile.ts).
import type { Scenario } from "../scenario/resolve.ts";
import type { TimingKnob } from "./timing.ts";

export interface PlayLevel {
  /** "R05", or the scenario's name for a file that is no catalogued race. */
  id: string;
  title: string;
  /** The goal in one sentence a learner can act on ("Make the pod worker drop ..."). */
  goal: string;
  /** What happens in the scenario and what the learner has to make go wrong. */
  brief: string;
  /** Where to look. */
  hint: string;
  /** The invariant whose violation wins the level; null: any invariant's. */
  invariant: string | null;
  /** "order": only an interleaving wins (no knob's range lets fifo lose); "timing": set the timing; "demo": fifo loses; "file": any scenario. */
  mode: "order" | "timing" | "demo" | "file";
  /** Why the race breaks the kubelet, in a paragraph (from the race's page), shown with a win; null for a file. */
  why: string | null;
  /** The race's page: its path in the package and a link to it; null for a file. */
  racePage: { path: string; href: string | null } | null;
  /** The kubelet version the level runs (the upstream links point at its release tag). */
  version: string;
  /** What the written timing shows that is not the race, said with an end without a win; null when nothing. */
  caveat: string | null;
  /** The first level's three steps that teach the controls; null for every other level. */
  lesson: string[] | null;
  /** The scenario as `kubelet-sim replay` finds it (for a race, relative to the repository root). */
  scenarioFile: string;
  /** The sha256 of the scenario file's text: an exported run record pins it. */
  scenarioSha256: string;
  /** The scenario compiled, at the written timing: what the page runs first. A race's level file
   * names its buggy side's kubelet itself, so a level runs without kubelet flags. */
  scenario: Scenario;
  /**
   * The scenario file's text, which the page edits with the learner's timing and compiles again;
   * null when it cannot be compiled on its own (it names manifest files, or is a manifest). Then
   * the level has no knobs.
   */
  scenarioText: string | null;
  /** The timings the learner may set (src/play/timing.ts): from the scenario's `swarm` ranges. */
  knobs: TimingKnob[];
}

/** A level the page can switch to: compiled in the browser from its text when picked. */
export type PlayLevelChoice = Omit<PlayLevel, "scenario"> & { scenarioText: string };

/** What the page carries: the level it opens on, and every level its picker offers. */
export interface PlayPageData {
  level: PlayLevel;
  levels: PlayLevelChoice[];
}
