// `npm run bench` (a benchmark, not a timed test): prints a table, or with --json one JSON object
// per line, each with a "name". Figures are rates and ratios against baselines measured in the
// same run, so they compare across machines better than raw times.
import { benchKernel, benchPingPong, benchSelect, type BenchLine } from "./kernel.ts";
import { benchNode } from "./node.ts";
import { benchExplore } from "./explore.ts";
import { benchStartup } from "./startup.ts";
import { benchValidateKeys } from "./validate_keys.ts";
import { benchConsumerTsc } from "./consumer_tsc.ts";

type Bench = () => BenchLine | BenchLine[];
const BENCHES: readonly [string, Bench][] = [
  ["kernel", benchKernel],
  ["channel-ping-pong", benchPingPong],
  ["select-heavy", benchSelect],
  ["node-110-pods-1h", benchNode],
  ["explore", benchExplore],
  ["cli-startup", benchStartup],
  ["validate-keys", benchValidateKeys],
  ["consumer-tsc", benchConsumerTsc],
];

function main(argv: readonly string[]): number {
  const json = argv.includes("--json");
  const only = argv.filter((a) => !a.startsWith("--"));
  for (const [name, bench] of BENCHES) {
    if (only.length > 0 && !only.includes(name)) continue;
    for (const line of [bench()].flat()) process.stdout.write(json ? `${JSON.stringify(line)}\n` : `${formatLine(line)}\n`);
  }
  return 0;
}

function formatLine(line: BenchLine): string {
  const fields = Object.entries(line)
    .filter(([k]) => k !== "name")
    .map(([k, v]) => `${k}=${typeof v === "number" ? v.toLocaleString("en-US") : v}`);
  return `${line.name.padEnd(22)} ${fields.join("  ")}`;
}

process.exitCode = main(process.argv.slice(2));
