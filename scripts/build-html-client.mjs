// Part of `npm run build`: bundles the HTML view's page script (src/report/html_client/, with the
// d3 modules it imports) into dist/report/html_client.js, the one script every HTML page inlines,
// and the play page's (src/play/client/) into dist/play/play_client.js.
// A built package reads it from there; esbuild and d3 are needed only here, at build time.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import options from "./html_client_options.cjs";

const { CLIENT_BUILD_OPTIONS } = options;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function bundle(entry, out) {
  const result = buildSync({ ...CLIENT_BUILD_OPTIONS, entryPoints: [join(root, "src", ...entry)] });
  mkdirSync(dirname(join(root, "dist", ...out)), { recursive: true });
  writeFileSync(join(root, "dist", ...out), result.outputFiles[0].text);
}

bundle(["report", "html_client", "main.ts"], ["report", "html_client.js"]);
// The play page's script: the kernel, the models and the controls, run in the browser (kubelet-sim play).
bundle(["play", "client", "main.ts"], ["play", "play_client.js"]);
