// CLI start-up: how long a user waits for `kubelet-sim --version` and for a whole small `run`,
// as whole processes, against `node -e 0` measured in the same run (the floor no CLI beats).
// Runs the built CLI (bin/ on dist/), as an installed package does: `npm run build` first.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import type { BenchLine } from "./kernel.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = fileURLToPath(new URL("../../bin/kubelet-sim.mjs", import.meta.url));
const ROUNDS = 15;

const COMMANDS: readonly (readonly [string, readonly string[]])[] = [
  ["--version", [BIN, "--version"]],
  ["run scenarios/basics/01-pod-starts.yaml", [BIN, "run", "scenarios/basics/01-pod-starts.yaml"]],
];

function wallMs(args: readonly string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: "ignore" });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${String(r.status)}`);
  return ms;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** One line per command: its median wall time, bare node's in the same rounds, and the ratio. */
export function benchStartup(): BenchLine[] {
  if (!existsSync(new URL("../../dist/cli/main.js", import.meta.url))) throw new Error("cli-startup needs the build: npm run build");
  const bare: number[] = [];
  const times = COMMANDS.map(() => [] as number[]);
  // Interleaved, so a change in the machine's load touches every figure alike.
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(wallMs(["-e", "0"]));
    COMMANDS.forEach(([, args], i) => times[i]!.push(wallMs(args)));
  }
  const bareMs = median(bare);
  return COMMANDS.map(([command], i) => {
    const ms = median(times[i]!);
    return { name: "cli-startup", command, ms: round1(ms), bareNodeMs: round1(bareMs), ratioToBareNode: Math.round((ms / bareMs) * 100) / 100 };
  });
}

const round1 = (x: number) => Math.round(x * 10) / 10;
