// `npm run bench` (a benchmark, not a timed test): prints a table, or with --json one JSON object
// per line, each with a "name". Figures are rates and ratios against baselines measured in the
// same run, so they compare across machines better than raw times. With `--against REV` each line
// runs on REV's tree and on this one alternately and prints the ratio new/old (against/against.ts).
import { BENCH_USAGE, BenchArgError, parseBenchArgs, type BenchArgs } from "./args.ts";
import { runAgainst } from "./against/against.ts";
import { benchHostile } from "./hostile.ts";
import { benchHuntSpeed } from "./hunt.ts";
import { benchKernel, benchPingPong, benchSelect, type BenchLine } from "./kernel.ts";
import { benchNode } from "./node.ts";
import { benchCluster, clusterSemiSpace } from "./cluster.ts";
import { benchExplore } from "./explore.ts";
import { benchStartup } from "./startup.ts";
import { benchValidateKeys } from "./validate_keys.ts";
import { benchConsumerTsc } from "./consumer_tsc.ts";
import { respawn } from "../cli/young.ts";

type Bench = (args: BenchArgs) => BenchLine | BenchLine[] | Promise<BenchLine[]>;
const BENCHES: Record<string, Bench> = {
  kernel: benchKernel,
  "channel-ping-pong": benchPingPong,
  "select-heavy": benchSelect,
  "node-110-pods-1h": benchNode,
  "cluster-100x110-1h": () => benchCluster(),
  explore: benchExplore,
  "cli-startup": benchStartup,
  "hunt-speed": (args) => benchHuntSpeed(args.forms),
  "hostile-input": benchHostile,
  "validate-keys": benchValidateKeys,
  "consumer-tsc": benchConsumerTsc,
};

async function main(argv: readonly string[]): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(argv);
  } catch (err) {
    if (!(err instanceof BenchArgError)) throw err;
    process.stderr.write(`bench: ${err.message}\n\n${BENCH_USAGE}`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(BENCH_USAGE);
    return 0;
  }
  const io = { out: (s: string) => void process.stdout.write(s), err: (s: string) => void process.stderr.write(s) };
  if (args.against !== null) {
    // A revision that is not a commit, or a form that does not exist: exit 2, as for a bad flag.
    return runAgainst({ ...args, against: args.against }, io).catch((err: Error) => (io.err(`bench: ${err.message}\n`), err instanceof BenchArgError ? 2 : 1));
  }
  for (const name of args.lines) {
    const semiSpace = name === "cluster-100x110-1h" ? clusterSemiSpace() : null;
    if (semiSpace !== null) {
      // As `kubelet-sim run` runs a cluster this big (src/cli/young.ts): in a `node` of its own with a
      // larger young generation, unless the user chose one (NODE_OPTIONS); its line on this stdout.
      const code = await respawn(process.argv[1]!, [name, ...(args.json ? ["--json"] : [])], semiSpace);
      if (code !== 0) return code;
      continue;
    }
    for (const line of [await BENCHES[name]!(args)].flat()) io.out(args.json ? `${JSON.stringify(line)}\n` : `${formatLine(line)}\n`);
  }
  return 0;
}


function formatLine(line: BenchLine): string {
  const fields = Object.entries(line)
    .filter(([k]) => k !== "name")
    .map(([k, v]) => `${k}=${typeof v === "number" ? v.toLocaleString("en-US") : v}`);
  return `${line.name.padEnd(22)} ${fields.join("  ")}`;
}

process.exitCode = await main(process.argv.slice(2));
