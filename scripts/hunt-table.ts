// Measures every race's hunt form and writes the hunt table into docs/exploring.md:
//   npm run hunt-table [-- --seeds 20 --runs 500 --races R01,R05]
// For each race, strategy (random, pct, pos) and exploration seed 1..N: the runs an exploration of
// the hunt form under the buggy kubelet needs to break the race's invariant (stopping at the first),
// and the median over the seeds. Takes minutes; the table is pasted between the page's markers.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RACES } from "../src/races/catalog.ts";
import { huntTableMarkdown, measureHunt, type HuntOptions, type HuntRow } from "../src/races/hunt.ts";

const { values } = parseArgs({ options: { seeds: { type: "string", default: "20" }, runs: { type: "string", default: "500" }, races: { type: "string" } } });
const opts: HuntOptions = { seeds: Number(values.seeds), maxRuns: Number(values.runs) };
if (!(Number.isInteger(opts.seeds) && opts.seeds > 0 && Number.isInteger(opts.maxRuns) && opts.maxRuns > 0)) {
  process.stderr.write("hunt-table: --seeds and --runs take whole numbers above 0\n");
  process.exit(2);
}
const wanted = values.races?.split(",").map((s) => s.trim().toUpperCase());
const races = RACES.filter((r) => wanted === undefined || wanted.includes(r.id)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

const rows: HuntRow[] = [];
for (const race of races) {
  const started = Date.now();
  const row = measureHunt(race, opts);
  rows.push(row);
  const cells = row.cells.map((c) => `${c.strategy} ${c.median ?? "-"} (${c.found}/${c.runs.length})`).join(", ");
  process.stdout.write(`${race.id}: fifo ${row.fifoBreaks ? "BREAKS" : "passes"}; ${cells}  [${((Date.now() - started) / 1000).toFixed(1)}s]\n`);
}

const table = huntTableMarkdown(rows, RACES, opts);
const caption =
  `Measured with \`npm run hunt-table -- --seeds ${opts.seeds} --runs ${opts.maxRuns}\`: for each strategy, ${opts.seeds} explorations ` +
  `(seeds 1 to ${opts.seeds}) of the hunt form under the buggy kubelet, each stopped at the first run that breaks the ` +
  `invariant; a cell is the median number of runs (the first run is 1) and, in brackets, how many explorations found ` +
  `it within ${opts.maxRuns} runs.`;
const page = join(import.meta.dirname, "..", "docs", "exploring.md");
const text = readFileSync(page, "utf8");
const open = "<!-- hunt-table -->";
const close = "<!-- /hunt-table -->";
const a = text.indexOf(open);
const b = text.indexOf(close);
if (wanted !== undefined || a < 0 || b < a) {
  process.stdout.write(`\n${table}\n`);
  if (wanted === undefined) process.stderr.write(`hunt-table: ${page} has no ${open} ... ${close} block; the table is above\n`);
} else {
  writeFileSync(`${page}.tmp`, `${text.slice(0, a + open.length)}\n${caption}\n\n${table}\n${text.slice(b)}`);
  renameSync(`${page}.tmp`, page);
  process.stdout.write(`wrote the table into ${page}\n`);
}
