// Part of `npm run build`: bundles the HTML view's page script (src/report/html_client/, with the
// d3 modules it imports) into dist/report/html_client.js, the one script every HTML page inlines,
// and the play page's (src/play/client/) into dist/play/play_client.js, with the play page's
// source index (scripts/play_sources.cjs) beside it in dist/play/play_sources.json.
// A built package reads them from there; esbuild, d3 and typescript are needed only here, at build time.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import options from "./html_client_options.cjs";

const require = createRequire(import.meta.url);
const { buildSourceIndex } = require("./play_sources.cjs");
const { CLIENT_BUILD_OPTIONS, PLAY_BUILD_OPTIONS } = options;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function write(out, text) {
  mkdirSync(dirname(join(root, "dist", ...out)), { recursive: true });
  writeFileSync(join(root, "dist", ...out), text);
}

function bundle(entry, out) {
  const result = buildSync({ ...CLIENT_BUILD_OPTIONS, entryPoints: [join(root, "src", ...entry)] });
  write(out, result.outputFiles[0].text);
}

bundle(["report", "html_client", "main.ts"], ["report", "html_client.js"]);

// The play page's script: the kernel, the models and the controls, run in the browser (kubelet-sim
// play). Its source map is read here, into the source index, and not kept.
const outfile = join(root, "dist", "play", "play_client.js");
const play = buildSync({ ...CLIENT_BUILD_OPTIONS, ...PLAY_BUILD_OPTIONS, outfile, entryPoints: [join(root, "src", "play", "client", "main.ts")] });
const js = play.outputFiles.find((f) => f.path.endsWith(".js")).text;
const map = JSON.parse(play.outputFiles.find((f) => f.path.endsWith(".map")).text);
write(["play", "play_client.js"], js);
write(["play", "play_sources.json"], JSON.stringify(buildSourceIndex(root, js, map, dirname(outfile))));
