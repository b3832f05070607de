// The no-false-alarm sweep: every race's fixed side, in its deterministic and its hunt form, run
// many times under pct and random with every invariant watched, and the table written into
// docs/exploring.md:
//   npm run fixed-sides -- [--runs 5000] [--jobs 2] [--races R01,R05] [--forms demo,hunt]
// A fixed kubelet that still breaks an invariant is either a false alarm (a monitor to fix) or
// another race's bug that the fixed release still has; the table names which invariant broke so a
// reader can tell. Takes long (hundreds of thousands of runs); run it before resolving race work.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RACES, raceRawScenario, type RaceEntry, type RaceForm } from "../src/races/catalog.ts";
import { explore } from "../src/explore/async.ts";
import type { ExploreReport } from "../src/explore/explorer.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5000" },
    jobs: { type: "string", default: "2" },
    races: { type: "string" },
    forms: { type: "string", default: "demo,hunt" },
  },
});
const runs = Number(values.runs);
const jobs = Number(values.jobs);
if (!(Number.isInteger(runs) && runs > 0 && Number.isInteger(jobs) && jobs > 0)) {
  process.stderr.write("fixed-sides: --runs and --jobs take whole numbers above 0\n");
  process.exit(2);
}
const forms = values.forms.split(",").map((s) => s.trim()) as RaceForm[];
if (forms.some((f) => f !== "demo" && f !== "hunt")) {
  process.stderr.write("fixed-sides: --forms takes demo, hunt or both\n");
  process.exit(2);
}
const wanted = values.races?.split(",").map((s) => s.trim().toUpperCase());
const races = RACES.filter((r) => wanted === undefined || wanted.includes(r.id)).sort((a, b) => (a.id < b.id ? -1 : 1));
const STRATEGIES = ["pct", "random"] as const;

interface Cell { strategy: string; failures: number; byInvariant: Map<string, number>; runsPerSec: number }
interface Row { race: RaceEntry; form: RaceForm; cells: Cell[] }

/** Failures of one exploration, keyed by what failed first in each run. */
function tally(report: ExploreReport): Map<string, number> {
  const by = new Map<string, number>();
  for (const r of report.runs) {
    if (r.failure === null) continue;
    const key = r.failure.kind === "expectation" ? "expectation" : r.failure.id;
    by.set(key, (by.get(key) ?? 0) + 1);
  }
  return by;
}

async function sweep(race: RaceEntry, form: RaceForm): Promise<Row> {
  const raw = { ...raceRawScenario(race, "fixed", form), expect: [] };
  const cells: Cell[] = [];
  for (const strategy of STRATEGIES) {
    const report = await explore({
      source: { raw, label: form === "demo" ? race.file : race.hunt.file },
      runs, strategy, seed: 1, jobs, keepGoing: true, shrink: false, outDir: null, clock: () => Date.now(),
    });
    const seconds = Math.max(report.exploreMs, 1) / 1000;
    cells.push({ strategy, failures: report.failures, byInvariant: tally(report), runsPerSec: report.runs.length / seconds });
  }
  return { race, form, cells };
}

const cellText = (c: Cell): string =>
  c.failures === 0 ? "0" : `**${c.failures}**: ${[...c.byInvariant].map(([id, n]) => `\`${id}\` ${n}`).join(", ")}`;

function table(rows: readonly Row[]): string {
  const head = "| race | fixed kubelet | form | pct | random | runs/s (pct, random) |\n|---|---|---|---|---|---|";
  const body = rows.map((r) => {
    const [pct, random] = r.cells as [Cell, Cell];
    return `| ${r.race.id} | ${r.race.fixed.label} | ${r.form} | ${cellText(pct)} | ${cellText(random)} | ${pct.runsPerSec.toFixed(0)}, ${random.runsPerSec.toFixed(0)} |`;
  });
  return [head, ...body].join("\n");
}

const rows: Row[] = [];
for (const race of races) {
  for (const form of forms) {
    const started = Date.now();
    const row = await sweep(race, form);
    rows.push(row);
    const cells = row.cells.map((c) => `${c.strategy} ${cellText(c)}`).join("; ");
    process.stdout.write(`${race.id} ${form}: ${cells}  [${((Date.now() - started) / 1000).toFixed(0)}s]\n`);
  }
}

const caption =
  `Measured with \`npm run fixed-sides -- --runs ${runs} --jobs ${jobs}\`: each race's fixed side, in its ` +
  `deterministic form (demo) and its hunt form, ${runs} pct and ${runs} random runs (exploration seed 1) with every ` +
  `invariant of the registry watched (\`--invariants all\`) and the file's own expectations left out. A cell counts ` +
  `the failing runs, by the invariant (or verdict) that failed first.`;
const out = `${caption}\n\n${table(rows)}`;
const page = join(import.meta.dirname, "..", "docs", "exploring.md");
const text = readFileSync(page, "utf8");
const open = "<!-- fixed-sides-table -->";
const close = "<!-- /fixed-sides-table -->";
const a = text.indexOf(open);
const b = text.indexOf(close);
if (wanted !== undefined || forms.length !== 2 || a < 0 || b < a) {
  process.stdout.write(`\n${out}\n`);
} else {
  writeFileSync(`${page}.tmp`, `${text.slice(0, a + open.length)}\n${out}\n${text.slice(b)}`);
  renameSync(`${page}.tmp`, page);
  process.stdout.write(`wrote the table into ${page}\n`);
}
