// Part of `npm run build`: bundles the HTML view's page script (src/report/html_client/, with the
// d3 modules it imports) into dist/report/html_client.js, the one script every HTML page inlines.
// A built package reads it from there; esbuild and d3 are needed only here, at build time.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import options from "./html_client_options.cjs";

const { CLIENT_BUILD_OPTIONS } = options;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "report", "html_client.js");
const result = buildSync({ ...CLIENT_BUILD_OPTIONS, entryPoints: [join(root, "src", "report", "html_client", "main.ts")] });
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, result.outputFiles[0].text);
