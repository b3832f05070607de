// Measures the discovery table and writes it into docs/exploring.md:
//   npm run discovery-table -- [--seeds 20] [--seed-from 1] [--runs 10000] [--races R01,R05] [--strategies guided,pos]
//                              [--out discovery-results] [--shard 2/4] [--write-only]
// Each cell (race, strategy, seed) is one exploration of the race's hunt form, its swarm ranges
// replaced by the generic swarm, under the buggy kubelet, stopped at the first run breaking the
// race's invariant (src/races/discovery.ts). Cells go to OUT/cells.jsonl as they finish, so a run
// stopped at any point resumes where it stopped (cells already there are skipped), and `--shard
// i/n` takes every n-th cell, so n processes (or machines sharing OUT) measure it together. The
// table is written from every cell in OUT when all are measured (or with --write-only, from what
// is there). Takes hours at full scale: a cell may be 10,000 runs.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RACES } from "../src/races/catalog.ts";
import { DISCOVERY_STRATEGIES, discoveryGoal, discoveryRows, discoverySteps, discoveryTableMarkdown, guidedFinds, guidedFindsText, measureCell, type DiscoveryCell, type DiscoveryStrategy } from "../src/races/discovery.ts";
import { parseShard } from "../src/explore/seeds.ts";

const { values } = parseArgs({
  options: {
    seeds: { type: "string", default: "20" },
    "seed-from": { type: "string", default: "1" },
    runs: { type: "string", default: "10000" },
    races: { type: "string" },
    strategies: { type: "string" },
    out: { type: "string", default: "discovery-results" },
    shard: { type: "string", default: "1/1" },
    "write-only": { type: "boolean", default: false },
  },
});
const fail = (msg: string): never => {
  process.stderr.write(`discovery-table: ${msg}\n`);
  process.exit(2);
};
const seeds = Number(values.seeds);
const maxRuns = Number(values.runs);
// Seeds seedFrom .. seedFrom + seeds - 1: a variant measured on seeds 1-20 is confirmed on 21-40.
const seedFrom = Number(values["seed-from"]);
const lastSeed = seedFrom + seeds - 1;
if (!(Number.isInteger(seedFrom) && seedFrom > 0)) fail("--seed-from takes a whole number above 0");
if (!(Number.isInteger(seeds) && seeds > 0 && Number.isInteger(maxRuns) && maxRuns > 0)) fail("--seeds and --runs take whole numbers above 0");
let shard = { index: 1, count: 1 };
try {
  shard = parseShard(values.shard);
} catch (err) {
  fail((err as Error).message);
}
const wanted = values.races?.split(",").map((s) => s.trim().toUpperCase());
const races = RACES.filter((r) => wanted === undefined || wanted.includes(r.id)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
const strategies = (values.strategies?.split(",").map((s) => s.trim()) ?? DISCOVERY_STRATEGIES) as DiscoveryStrategy[];
for (const s of strategies) if (!DISCOVERY_STRATEGIES.includes(s)) fail(`unknown strategy ${s}: expected ${DISCOVERY_STRATEGIES.join(", ")}`);

mkdirSync(values.out, { recursive: true });
const cellsFile = join(values.out, "cells.jsonl");
const readCells = (): DiscoveryCell[] =>
  existsSync(cellsFile) ? readFileSync(cellsFile, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as DiscoveryCell) : [];
const key = (race: string, strategy: string, seed: number) => `${race}/${strategy}/${seed}/${maxRuns}`;

if (!values["write-only"]) {
  const done = new Set(readCells().map((c) => key(c.race, c.strategy, c.seed)));
  const todo: { race: (typeof races)[number]; strategy: DiscoveryStrategy; seed: number }[] = [];
  for (const race of races) for (const strategy of strategies) for (let seed = seedFrom; seed <= lastSeed; seed++) todo.push({ race, strategy, seed });
  const mine = todo.filter((_, i) => i % shard.count === shard.index - 1);
  const steps = new Map<string, number>();
  let n = 0;
  for (const cell of mine) {
    n++;
    if (done.has(key(cell.race.id, cell.strategy, cell.seed))) continue;
    if (cell.strategy === "pct" && !steps.has(cell.race.id)) steps.set(cell.race.id, discoverySteps(cell.race));
    const c = measureCell(cell.race, cell.strategy, cell.seed, maxRuns, () => performance.now(), steps.get(cell.race.id)); // host-time-ok: the script's own timing
    appendFileSync(cellsFile, `${JSON.stringify(c)}\n`);
    process.stdout.write(`[${n}/${mine.length}] ${c.race} ${c.strategy} seed ${c.seed}: ${c.runs ?? `none in ${maxRuns}`}${c.foundBy === undefined ? "" : ` (${c.foundBy})`} (${(c.ms / 1000).toFixed(1)}s)\n`);
  }
}

// The cells of this table: OUT may also hold other races' or more seeds' cells.
const cells = readCells().filter((c) => races.some((r) => r.id === c.race) && c.seed >= seedFrom && c.seed <= lastSeed);
const rows = discoveryRows(races, cells, maxRuns);
const missing = rows.flatMap((r) => r.cells.filter((c) => strategies.includes(c.strategy) && c.seeds < seeds).map((c) => `${r.race}/${c.strategy}`));
const table = discoveryTableMarkdown(rows, maxRuns);
const goal = discoveryGoal(rows);
const finds = guidedFinds(cells, maxRuns);
const caption =
  `Measured with \`npm run discovery-table -- --seeds ${seeds} --runs ${maxRuns}\`: each race's hunt form with its \`swarm\` ranges ` +
  `left out and the generic swarm (\`--swarm auto\`) instead, under the buggy kubelet, watching only the race's own invariant; ` +
  `for each strategy, ${seeds} explorations (seeds ${seedFrom} to ${lastSeed}), each stopped at the first run that breaks the invariant. A cell is ` +
  `the median number of runs (the first run is 1; \`> ${maxRuns}\` when at least half the seeds found nothing) and, in brackets, how ` +
  `many explorations found it within ${maxRuns} runs. Guided found the race in every seed on ${goal.guidedFoundAll} of ${goal.races} races, ` +
  `and needed at most half the runs of the best other strategy on ${goal.guidedHalf} of ${goal.races}.` +
  (finds === null ? "" : ` The runs where guided found its race were made ${guidedFindsText(finds)}.`);
process.stdout.write(`\n${caption}\n\n${table}\n`);
const complete = missing.length === 0 && wanted === undefined && values.strategies === undefined && seedFrom === 1;
if (seedFrom !== 1) {
  process.stdout.write(`\nnot written into docs/exploring.md: the table there is of seeds 1 to ${seeds}\n`);
} else if (wanted !== undefined) {
  process.stdout.write(`\nnot written into docs/exploring.md: the table there has every race (this one has ${races.length})\n`);
} else if (!complete && !values["write-only"]) {
  process.stdout.write(`\nnot written into docs/exploring.md: ${missing.length > 0 ? `cells missing (${missing.slice(0, 6).join(", ")}${missing.length > 6 ? ", ..." : ""}); run the other shards, then --write-only` : "a subset of strategies was measured"}\n`);
} else {
  const page = join(import.meta.dirname, "..", "docs", "exploring.md");
  const text = readFileSync(page, "utf8");
  const open = "<!-- discovery-table -->";
  const close = "<!-- /discovery-table -->";
  const a = text.indexOf(open);
  const b = text.indexOf(close);
  if (a < 0 || b < a) fail(`${page} has no ${open} ... ${close} block`);
  writeFileSync(`${page}.tmp`, `${text.slice(0, a + open.length)}\n${caption}\n\n${table}\n${text.slice(b)}`);
  renameSync(`${page}.tmp`, page);
  process.stdout.write(`wrote the table into ${page}\n`);
}
