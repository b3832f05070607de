// Regenerates the generated docs pages: docs/scenario-reference.md from the scenario schema and
// docs/invariants.md from the invariant registry. `npm run docs:reference`.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateReference } from "../src/scenario/reference.ts";
import { generateInvariantsPage } from "../src/check/invariants_doc.ts";

for (const [page, text] of [
  ["../docs/scenario-reference.md", generateReference()],
  ["../docs/invariants.md", generateInvariantsPage()],
] as const) {
  const target = fileURLToPath(new URL(page, import.meta.url));
  writeFileSync(target, text);
  process.stdout.write(`wrote ${target}\n`);
}
