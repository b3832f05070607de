// Regenerates the Mermaid diagrams of every race page in docs/races/ from fresh runs:
//   node --import tsx scripts/update-race-docs.ts
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RACES } from "../src/races/catalog.ts";
import { withFreshDiagrams } from "../src/races/diagrams.ts";

const ROOT = join(import.meta.dirname, "..");
for (const race of RACES) {
  const path = join(ROOT, "docs", "races", `${race.id.toLowerCase()}.md`);
  const next = withFreshDiagrams(readFileSync(path, "utf8"), race);
  writeFileSync(`${path}.tmp`, next);
  renameSync(`${path}.tmp`, path);
  process.stdout.write(`updated ${path}\n`);
}
