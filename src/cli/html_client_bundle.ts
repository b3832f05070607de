// The HTML view's page script: src/report/html_client/ with the d3 modules it imports, as one
// minified browser script the page inlines. `npm run build` bundles it into
// dist/report/html_client.js (scripts/build-html-client.mjs), which a built CLI reads; run from the
// sources (tests, tsx), it is bundled here on first use with the same esbuild options. Either way it
// sits in cli/, not report/, whose renderers stay pure: records in, a string out.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

let script: string | null = null;

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

/** The bundle the build made (dist/cli/ → dist/report/html_client.js), when this is a build. */
function prebuilt(): string | null {
  const path = here("../report/html_client.js");
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/** Bundles from the sources: esbuild and d3 are development tools, present in a clone. */
function bundleFromSources(): string {
  const entry = [here("../report/html_client/main.ts"), here("../../src/report/html_client/main.ts")].find((p) => existsSync(p));
  if (entry === undefined) throw new Error("the HTML view's page script is missing from this installation (dist/report/html_client.js; run npm run build)");
  const require = createRequire(import.meta.url);
  const { buildSync } = require("esbuild") as typeof import("esbuild");
  const { CLIENT_BUILD_OPTIONS } = require(here("../../scripts/html_client_options.cjs")) as { CLIENT_BUILD_OPTIONS: import("esbuild").BuildOptions };
  const text = buildSync({ ...CLIENT_BUILD_OPTIONS, entryPoints: [entry], write: false }).outputFiles?.[0]?.text;
  if (text === undefined) throw new Error("bundling the HTML view's page script produced no output");
  return text;
}

/** The page script, read or bundled once per process. */
export function htmlClientScript(): string {
  script ??= prebuilt() ?? bundleFromSources();
  return script;
}
