// CLI start-up: how long a user waits for `kubelet-sim --version` and for a whole small `run`,
// as whole processes, against `node -e 0` measured in the same run (the floor no CLI beats); and
// the CPU time of each, which a loaded machine disturbs far less than the wait.
// Runs the built CLI (bin/ on dist/), as an installed package does: `npm run build` first.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runTimedSync } from "./against/proc.ts";
import type { BenchLine } from "./kernel.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = fileURLToPath(new URL("../../bin/kubelet-sim.mjs", import.meta.url));
const ROUNDS = 15;

const COMMANDS: readonly (readonly [string, readonly string[]])[] = [
  ["--version", [BIN, "--version"]],
  ["run scenarios/basics/01-pod-starts.yaml", [BIN, "run", "scenarios/basics/01-pod-starts.yaml"]],
];

interface Timing {
  wall: number;
  cpu: number;
}

function timing(args: readonly string[]): Timing {
  const r = runTimedSync(process.execPath, args, { cwd: ROOT });
  if (r.code !== 0) throw new Error(`node ${args.join(" ")} exited ${String(r.code)}`);
  return { wall: r.wallMs, cpu: r.cpuMs };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** One line per command: its median wall and CPU times, bare node's in the same rounds, and the ratios. */
export function benchStartup(): BenchLine[] {
  if (!existsSync(new URL("../../dist/cli/main.js", import.meta.url))) throw new Error("cli-startup needs the build: npm run build");
  const bare: Timing[] = [];
  const times = COMMANDS.map(() => [] as Timing[]);
  // Interleaved, so a change in the machine's load touches every figure alike.
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(timing(["-e", "0"]));
    COMMANDS.forEach(([, args], i) => times[i]!.push(timing(args)));
  }
  const bareMs = median(bare.map((t) => t.wall));
  const bareCpuMs = median(bare.map((t) => t.cpu));
  const ratio = (x: number, y: number) => Math.round((x / y) * 100) / 100;
  return COMMANDS.map(([command], i) => {
    const ms = median(times[i]!.map((t) => t.wall));
    const cpuMs = median(times[i]!.map((t) => t.cpu));
    return {
      name: "cli-startup", command, ms: round1(ms), bareNodeMs: round1(bareMs), ratioToBareNode: ratio(ms, bareMs),
      cpuMs: round1(cpuMs), bareNodeCpuMs: round1(bareCpuMs), cpuRatioToBareNode: ratio(cpuMs, bareCpuMs),
    };
  });
}

const round1 = (x: number) => Math.round(x * 10) / 10;
