// Regenerates the generated docs pages: docs/scenario-reference.md from the scenario schema,
// docs/invariants.md from the invariant registry, and the usage blocks of docs/cli.md from the
// commands' yargs definitions (run `npm run build` first: the blocks are the built CLI's --help).
// `npm run docs:reference`.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateReference } from "../src/scenario/reference.ts";
import { generateInvariantsPage } from "../src/check/invariants_doc.ts";
import { CLI_DOC, refreshCliDoc } from "./cli_doc.ts";

for (const [page, text] of [
  ["../docs/scenario-reference.md", generateReference()],
  ["../docs/invariants.md", generateInvariantsPage()],
] as const) {
  const target = fileURLToPath(new URL(page, import.meta.url));
  writeFileSync(target, text);
  process.stdout.write(`wrote ${target}\n`);
}

writeFileSync(CLI_DOC, refreshCliDoc(readFileSync(CLI_DOC, "utf8")));
process.stdout.write(`wrote ${CLI_DOC}\n`);
