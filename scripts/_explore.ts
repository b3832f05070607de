import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { mutations } from "../test/fuzz/mutate.ts";
import { checkMutant, loadSeeds } from "../test/fuzz/property.ts";
const seeds = loadSeeds();
const dir = mkdtempSync(join(tmpdir(), "fz-"));
const N = Number(process.argv[2] ?? 200);
const samples = fc.sample(fc.tuple(fc.nat({ max: seeds.length - 1 }), mutations), { numRuns: N, seed: Number(process.argv[3] ?? 1) });
const seen = new Map<string, string>();
let i = 0;
for (const [s, m] of samples) {
  i++;
  const p = await checkMutant(seeds[s]!, m, dir);
  if (p !== null) {
    const key = p.split("\n").slice(0, 2).join(" ").replace(/\/tmp\/\S+/g, "F").slice(0, 160);
    if (!seen.has(key)) { seen.set(key, `${seeds[s]!.file} ${JSON.stringify(m)}`); console.log(`#${i} ${seeds[s]!.file} ${JSON.stringify(m).slice(0, 300)}\n   ${p.slice(0, 600)}\n`); }
  }
}
console.log(`done ${N}, ${seen.size} distinct problems`);
