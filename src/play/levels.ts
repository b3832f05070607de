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

/** What scripts/update-play-levels.ts found for a race's level. */
export interface PlayLevelEntry {
  race: string;
  /** The hunt form's timing the level pins: "as written", a step moved, or a swarm draw. */
  timing: string;
  /** The level's seed: the exploration run that found a win at that timing. */
  seed: number;
  /** The strategy of that exploration. */
  found: string;
  /** A winning choice tape (ChoiceLog.encode), its deviations from fifo shrunk by ddmin. */
  win: string;
  /** How many of its choices deviate from fifo: the shortest win found. */
  deviations: number;
  /** How many choices the winning run made in all. */
  choices: number;
}
