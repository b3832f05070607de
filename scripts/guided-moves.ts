// How often each of the guided strategy's moves breaks a race's invariant, per run: the evidence
// behind guided's choice of moves (docs/exploring.md, "What the guidance learned").
//   node --import tsx scripts/guided-moves.ts [--races R05,R07,R12] [--seeds 3] [--runs 300]
// For each race's discovery form (its hunt form, the generic swarm instead of its ranges, its own
// invariant watched), `--seeds` guided explorations of `--runs` runs each, run on past the first
// failure; each run is counted under the move that made it (fresh, or the move and whether the
// entry it was made from had itself failed), with how many of those runs failed. A move that is
// worth making from an entry that did not fail must fail more often than a fresh run does.
import { parseArgs } from "node:util";
import { GuidedRunner, makePlan, RunContext, type Genome } from "../src/explore/index.ts";
import { RACES, raceRawScenario } from "../src/races/catalog.ts";

const { values } = parseArgs({
  options: { races: { type: "string", default: "R05,R07,R12" }, seeds: { type: "string", default: "3" }, runs: { type: "string", default: "300" } },
});
const seeds = Number(values.seeds);
const runs = Number(values.runs);
if (!(Number.isInteger(seeds) && seeds > 0 && Number.isInteger(runs) && runs > 0)) {
  process.stderr.write("guided-moves: --seeds and --runs take whole numbers above 0\n");
  process.exit(2);
}

type Tally = Map<string, { runs: number; failed: number }>;
const count = (t: Tally, key: string, failed: boolean) => {
  const c = t.get(key) ?? { runs: 0, failed: 0 };
  c.runs++;
  if (failed) c.failed++;
  t.set(key, c);
};
const line = (t: Tally) =>
  [...t].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, c]) => `${k} ${c.failed}/${c.runs} = ${(c.failed / c.runs).toFixed(3)}`).join("; ");

const all: Tally = new Map();
for (const id of values.races.split(",").map((s) => s.trim().toUpperCase())) {
  const race = RACES.find((r) => r.id === id);
  if (race === undefined) {
    process.stderr.write(`guided-moves: no race ${id}\n`);
    process.exit(2);
  }
  const { swarm: _swarm, ...raw } = raceRawScenario(race, "buggy", "hunt");
  const mine: Tally = new Map();
  for (let seed = 1; seed <= seeds; seed++) {
    const plan = makePlan({ source: { raw: { ...raw, expect: [] }, label: race.hunt.file }, strategy: "guided", swarm: "auto", seed, invariants: [race.invariant] });
    const ctx = new RunContext(plan);
    const guided = new GuidedRunner(ctx);
    const failed: boolean[] = [];
    // Island by island, each island's runs in order (as one thread runs them).
    const islands = guided.count;
    const order = [...Array(runs).keys()].sort((a, b) => (a % islands) - (b % islands) || a - b);
    const genomes = new Map<number, Genome>();
    for (const i of order) {
      const s = guided.runIndex(i, true);
      failed[i] = s.failure?.kind === "invariant" && s.failure.id === race.invariant;
      genomes.set(i, s.genome!);
    }
    for (const [i, g] of genomes) {
      const move = g.how.split(" ")[0]!;
      const key = move === "fresh" ? "fresh" : `${move} of an entry that ${failed[g.parent!] ? "failed" : "did not fail"}`;
      count(mine, key, failed[i]!);
      count(all, key, failed[i]!);
    }
  }
  process.stdout.write(`${id}: ${line(mine)}\n`);
}
process.stdout.write(`all: ${line(all)}\n`);
