// Regenerates docs/scenario-reference.md from the scenario schema: `npm run docs:reference`.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateReference } from "../src/scenario/reference.ts";

const target = fileURLToPath(new URL("../docs/scenario-reference.md", import.meta.url));
writeFileSync(target, generateReference());
process.stdout.write(`wrote ${target}\n`);
