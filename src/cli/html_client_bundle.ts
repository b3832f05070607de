// The HTML view's page script: src/report/html_client/ with the d3 modules it imports, as one
// minified browser script the page inlines. `npm run build` bundles it into
// dist/report/html_client.js (scripts/build-html-client.mjs), which a built CLI reads; run from the
// sources (tests, tsx), it is bundled here on first use with the same esbuild options. Either way it
// sits in cli/, not report/, whose renderers stay pure: records in, a string out.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SourceIndex } from "../play/sources.ts";

// The play page's script (src/play/client/: the kernel, the models and the controls) is made the
// same way, into dist/play/play_client.js, with the source index that maps its stack frames to the
// model's TypeScript (scripts/play_sources.cjs) in dist/play/play_sources.json: the two are made
// together, from the same bundle, or the index's table would point at another script's lines.
const scripts = new Map<string, string>();
let playSources: SourceIndex | null = null;

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

/** One bundled page script: its place in dist/ and its entry point under src/. */
interface ClientScript {
  built: string;
  entry: string;
  what: string;
}

const HTML_CLIENT: ClientScript = { built: "report/html_client.js", entry: "report/html_client/main.ts", what: "the HTML view's page script" };
const PLAY_CLIENT: ClientScript = { built: "play/play_client.js", entry: "play/client/main.ts", what: "the play page's script" };

/** The bundle the build made (dist/cli/ → dist/...), when this is a build. */
function prebuilt(c: ClientScript): string | null {
  const path = here(`../${c.built}`);
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/** Bundles from the sources: esbuild and d3 are development tools, present in a clone. */
function bundleFromSources(c: ClientScript): string {
  const entry = [here(`../${c.entry}`), here(`../../src/${c.entry}`)].find((p) => existsSync(p) && p.endsWith(".ts"));
  if (entry === undefined) throw new Error(`${c.what} is missing from this installation (dist/${c.built}; run npm run build)`);
  const require = createRequire(import.meta.url);
  const { buildSync } = require("esbuild") as typeof import("esbuild");
  const options = require(here("../../scripts/html_client_options.cjs")) as { CLIENT_BUILD_OPTIONS: import("esbuild").BuildOptions; PLAY_BUILD_OPTIONS: import("esbuild").BuildOptions };
  if (c !== PLAY_CLIENT) {
    const text = buildSync({ ...options.CLIENT_BUILD_OPTIONS, entryPoints: [entry], write: false }).outputFiles?.[0]?.text;
    if (text === undefined) throw new Error(`bundling ${c.what} produced no output`);
    return text;
  }
  // As scripts/build-html-client.mjs does: the bundle, and its source map read into the source index.
  const root = join(here("../.."));
  const outfile = join(root, "dist", c.built);
  const out = buildSync({ ...options.CLIENT_BUILD_OPTIONS, ...options.PLAY_BUILD_OPTIONS, outfile, entryPoints: [entry], write: false }).outputFiles ?? [];
  const js = out.find((f) => f.path.endsWith(".js"))?.text;
  const map = out.find((f) => f.path.endsWith(".map"))?.text;
  if (js === undefined || map === undefined) throw new Error(`bundling ${c.what} produced no output`);
  const { buildSourceIndex } = require(here("../../scripts/play_sources.cjs")) as { buildSourceIndex: (root: string, js: string, map: unknown, mapDir: string) => SourceIndex };
  playSources = buildSourceIndex(root, js, JSON.parse(map), join(root, "dist", "play"));
  return js;
}

function clientScript(c: ClientScript): string {
  let text = scripts.get(c.built);
  if (text === undefined) {
    text = prebuilt(c) ?? bundleFromSources(c);
    scripts.set(c.built, text);
  }
  return text;
}

/** The HTML view's page script, read or bundled once per process. */
export function htmlClientScript(): string {
  return clientScript(HTML_CLIENT);
}

/** The play page's script, read or bundled once per process. */
export function playClientScript(): string {
  return clientScript(PLAY_CLIENT);
}

/** The play page's source index, made with its script (read beside the built one, or made with the bundle). */
export function playSourceIndex(): SourceIndex {
  clientScript(PLAY_CLIENT);
  if (playSources === null) {
    const path = here("../play/play_sources.json");
    if (!existsSync(path)) throw new Error("the play page's source index is missing from this installation (dist/play/play_sources.json; run npm run build)");
    playSources = JSON.parse(readFileSync(path, "utf8")) as SourceIndex;
  }
  return playSources;
}
