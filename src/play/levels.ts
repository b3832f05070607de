// Where play mode's levels live: one scenario per catalogued race under scenarios/races/play/, and
// beside it what scripts/update-play-levels.ts found when it wrote it (the timing, the seed and
// the shortest win). Paths are relative to the repository root, as the race catalog's are.

export const PLAY_DIR = "scenarios/races/play";

/** The level scenario of a race ("R05" → scenarios/races/play/r05-play.yaml). */
export function playFile(raceId: string): string {
  return `${PLAY_DIR}/${raceId.toLowerCase()}-play.yaml`;
}

/** The level's notes ("R05" → scenarios/races/play/r05.json). */
export function playNotesFile(raceId: string): string {
  return `${PLAY_DIR}/${raceId.toLowerCase()}.json`;
}

/** What scripts/update-play-levels.ts found for a race's level: its shortest win. */
export interface PlayLevelEntry {
  race: string;
  /** The win's timing in words: "as written", or the knobs it sets ("PullImage takes 11000ms"). */
  timing: string;
  /** The win's timing: knob id (src/play/timing.ts) → milliseconds, for the knobs it changes. */
  knobs: Record<string, number>;
  /** The level's seed. */
  seed: number;
  /** How the win was found: "timing under fifo", "deviations at 9000ms", "fifo" (a deterministic form). */
  found: string;
  /** A winning choice tape (ChoiceLog.encode), its deviations from fifo shrunk by ddmin. */
  win: string;
  /** How many of its choices deviate from fifo. */
  deviations: number;
  /** How many choices the winning run made in all. */
  choices: number;
  /**
   * "order": the level's ranges are narrowed so that fifo keeps the invariant at every timing they
   * allow, and the win changes no timing; "timing": the win sets a knob; "demo": fifo breaks it.
   */
  mode: "order" | "timing" | "demo";
  /** Why the race breaks the kubelet: the first paragraph of its page's story, as plain text. */
  why: string;
}

/** The race whose level is also the first level, the one that teaches the controls. */
export const TUTORIAL_RACE = "R02";

/** A win's size: the timings it changes and the choices it takes away from fifo. */
export function winSize(entry: PlayLevelEntry): number {
  return Object.keys(entry.knobs).length + entry.deviations;
}
