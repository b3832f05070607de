#!/usr/bin/env node
// Entry point of the `kubelet-sim` command: load the TypeScript sources through tsx, then run the CLI.
import { register } from "tsx/esm/api";

// A reader that went away (`kubelet-sim run x.yaml | head`) is not an error of ours: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(process.exitCode ?? 0);
  });
}

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
