#!/usr/bin/env node
// Entry point of the `kubelet-sim` command: load the TypeScript sources through tsx, then run the CLI.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
