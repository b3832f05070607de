// The covering designs guided's first runs would take on each race of the discovery table
// (src/explore/guided_cover.ts): per race, the factors (knobs with a near draw: steps, written
// latencies) with their classes' count, and the rows of a t-way array for t = 2 and 3 over the
// split classes (low, high, meet, near, ordinary) and the merged ones (boundary, near, ordinary).
//   node --import tsx scripts/discovery-cover.ts [--seed 1]
import { parseArgs } from "node:util";
import { coverDesign } from "../src/explore/guided_cover.ts";
import { compileRawOrThrow, knobSpaceFor } from "../src/explore/index.ts";
import { RACES, raceRawScenario } from "../src/races/catalog.ts";

const { values } = parseArgs({ options: { seed: { type: "string", default: "1" } } });
const seed = Number(values.seed);
process.stdout.write("| race | knobs | factors (classes, split) | t=2 split | t=2 merged | t=3 split | t=3 merged |\n|---|---|---|---|---|---|---|\n");
for (const race of RACES) {
  const { swarm: _s, ...raw } = raceRawScenario(race, "buggy", "hunt");
  const space = knobSpaceFor("auto", raw, compileRawOrThrow(raw, race.hunt.file))!;
  const size = (t: number, classes: "split" | "merged") => coverDesign(space, seed, { t, classes }).rows.length;
  const d = coverDesign(space, seed, { t: 2, classes: "split" });
  const factors = d.factors.map((f, j) => `${space.defs[f]!.id} (${d.classes[j]!.length})`).join(", ");
  process.stdout.write(`| ${race.id} | ${space.defs.length} | ${factors || "none"} | ${size(2, "split")} | ${size(2, "merged")} | ${size(3, "split")} | ${size(3, "merged")} |\n`);
}
