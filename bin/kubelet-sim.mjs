#!/usr/bin/env node
// Entry point of the `kubelet-sim` command: the compiled CLI in dist/ (`npm run build`; a clone
// builds it on `npm install` through the `prepare` script).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

// A reader that went away (`kubelet-sim run x.yaml | head`) is not an error of ours: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(process.exitCode ?? 0);
  });
}

// `--version` alone needs no parser and no models: answer it before loading them (start-up time).
const args = process.argv.slice(2);
if (args.length === 1 && args[0] === "--version") {
  const { VERSION } = await import(new URL("../dist/version.js", import.meta.url).href).catch(() => ({ VERSION: null }));
  if (VERSION !== null) {
    process.stdout.write(`${VERSION}\n`);
    process.exit(0);
  }
}

// The CLI as one bundled file (scripts/build-node-bundles.mjs) starts about twice as fast as the
// per-module files it is made from; those stay the fallback, and the library.
const bundled = new URL("../dist/bundle/main.js", import.meta.url);
const main = existsSync(bundled) ? bundled : new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("kubelet-sim: dist/ is missing: in a clone, run `npm install` (it builds) or `npm run build`\n");
  process.exit(3);
}
const cli = await import(main.href);
// This file, so that a long run can start it again with a larger young generation (src/cli/young.ts).
process.exitCode = await cli.main(args, undefined, { script: fileURLToPath(import.meta.url) });
