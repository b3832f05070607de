// Compares guided variants on the discovery table: each variant is a directory holding the
// cells.jsonl (or such a .jsonl file itself) a `npm run discovery-table -- --strategies guided --out DIR` wrote (the code changed
// between them), set against the random, pct and pos cells of the table in docs (their code is
// untouched), all capped at --runs (a find past the cap counts as none, as in a capped run):
//   node --import tsx scripts/discovery-variants.ts --runs 300 --seeds 20 /tmp/dy-a docs/data/discovery/variants/Y-final.jsonl
// (--seed-from 21 compares the variants' seeds 21-40; the other strategies' medians, the
// thresholds, are those of --base on seeds --base-seed-from (1) to --base-seed-from + --seeds - 1.)
// Prints per race the best other strategy's median, each variant's median, and a * where the
// variant's median is at most half the best other's; then each variant's count of such races.
// --bootstrap B adds, per variant, the expected count: the mean over B resamples (each race's
// cells drawn with replacement, as many as it has; a fixed seed) of the races halved, which says
// how much of a count is the luck of its seeds.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import type { DiscoveryCell } from "../src/races/discovery.ts";
import { Rng } from "../src/sim/rng.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string", default: "300" },
    seeds: { type: "string", default: "20" },
    "seed-from": { type: "string", default: "1" },
    "base-seed-from": { type: "string", default: "1" },
    bootstrap: { type: "string", default: "0" },
    base: { type: "string", default: join(import.meta.dirname, "..", "docs", "data", "discovery", "cells.jsonl") },
  },
});
const cap = Number(values.runs);
const seeds = Number(values.seeds);
const seedFrom = Number(values["seed-from"]);
const baseFrom = Number(values["base-seed-from"]);
const read = (file: string): DiscoveryCell[] =>
  readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as DiscoveryCell).filter((c) => c.seed >= seedFrom && c.seed < seedFrom + seeds);

/** The median of runs capped at `cap` (null: none within it), or null when at least half found nothing. */
function median(cells: readonly DiscoveryCell[]): number | null {
  const runs = cells.map((c) => (c.runs !== null && c.runs <= cap ? c.runs : Infinity)).sort((a, b) => a - b);
  if (runs.length === 0) return null;
  const m = runs.length % 2 === 1 ? runs[(runs.length - 1) / 2]! : (runs[runs.length / 2 - 1]! + runs[runs.length / 2]!) / 2;
  return Number.isFinite(m) ? m : null;
}

const base = readFileSync(values.base, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as DiscoveryCell).filter((c) => c.strategy !== "guided" && c.seed >= baseFrom && c.seed < baseFrom + seeds);
// A variant is a directory holding cells.jsonl, or a .jsonl file of cells.
const variants = positionals.map((p) => ({
  name: basename(p).replace(/\.jsonl$/, ""),
  cells: read(p.endsWith(".jsonl") ? p : join(p, "cells.jsonl")).filter((c) => c.strategy === "guided"),
}));
// The races every variant measured.
const races = [...new Set(variants.flatMap((v) => v.cells.map((c) => c.race)))].filter((r) => variants.every((v) => v.cells.some((c) => c.race === r))).sort();
const show = (m: number | null) => (m === null ? `>${cap}` : String(m));
const halved = new Map<string, string[]>(variants.map((v) => [v.name, []]));
process.stdout.write(`| race | best other | ${variants.map((v) => v.name).join(" | ")} |\n|---|---|${variants.map(() => "---").join("|")}|\n`);
for (const race of races) {
  const others = ["random", "pct", "pos"].map((s) => median(base.filter((c) => c.race === race && c.strategy === s))).map((m) => m ?? Infinity);
  const best = Math.min(...others);
  const cols = variants.map((v) => {
    const mine = v.cells.filter((c) => c.race === race);
    const m = median(mine);
    const found = mine.filter((c) => c.runs !== null && c.runs <= cap).length;
    const half = m !== null && m * 2 <= best;
    if (half) halved.get(v.name)!.push(race);
    return `${show(m)} (${found}/${mine.length})${half ? " *" : ""}`;
  });
  process.stdout.write(`| ${race} | ${Number.isFinite(best) ? best : `>${cap}`} | ${cols.join(" | ")} |\n`);
}
const bootstrap = Number(values.bootstrap);
for (const v of variants) {
  let expected = "";
  if (bootstrap > 0) {
    const rng = new Rng("discovery-variants", `bootstrap/${v.name}`);
    let sum = 0;
    for (const race of races) {
      const best = Math.min(...["random", "pct", "pos"].map((s) => median(base.filter((c) => c.race === race && c.strategy === s)) ?? Infinity));
      const mine = v.cells.filter((c) => c.race === race);
      let k = 0;
      for (let b = 0; b < bootstrap; b++) {
        const m = median(mine.map(() => mine[rng.below(mine.length)]!));
        if (m !== null && m * 2 <= best) k++;
      }
      sum += k / bootstrap;
    }
    expected = `; expected over ${bootstrap} resamples ${sum.toFixed(1)}`;
  }
  process.stdout.write(`${v.name}: at most half the best other's median on ${halved.get(v.name)!.length} of ${races.length} (${halved.get(v.name)!.join(", ")})${expected}\n`);
}
