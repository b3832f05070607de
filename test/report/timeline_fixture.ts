// Runs of the race catalog's scenarios with the kernel's view, shared by the timeline tests (each run once per file).
import { simulate } from "../../src/simulate.ts";
import { KernelLog } from "../../src/sim/index.ts";
import { RACES, raceScenario, type RaceEntry } from "../../src/races/catalog.ts";
import type { RunView } from "../../src/report/index.ts";

const cache = new Map<string, RunView & { kernel: KernelLog }>();

/** One side of a race, run once and observed. */
export function raceRun(race: RaceEntry, side: "buggy" | "fixed" = "buggy"): RunView & { kernel: KernelLog } {
  const key = `${race.id}/${side}`;
  let run = cache.get(key);
  if (run === undefined) {
    const kernel = new KernelLog();
    const r = simulate(raceScenario(race, side), { observer: kernel });
    run = { records: r.records!, kernel };
    cache.set(key, run);
  }
  return run;
}

export function race(id: string): RaceEntry {
  const r = RACES.find((x) => x.id === id);
  if (r === undefined) throw new Error(`no race ${id} in the catalog`);
  return r;
}

export { RACES };
