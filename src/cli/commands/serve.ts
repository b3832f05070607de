// `kubelet-sim serve FILE --at 30s`: run a scenario to a virtual instant and serve the simulated
// kubelet's HTTP endpoints (/pods, /runningpods/, /healthz) on 127.0.0.1 until Ctrl-C.
import type { ArgumentsCamelCase, Argv } from "yargs";
import { formatDuration, formatStrategy, isFailureVerdict, parseDuration } from "../../sim/index.ts";
import { EXIT_OK, EXIT_USAGE, UserError } from "../exit.ts";
import { processIo, type CliIo } from "../io.ts";
import type { Listening } from "../serve_http.ts";
import { stopSignal } from "../signals.ts";
import type { ServeSession } from "../../server/index.ts";
import { resolveScenarioArg } from "../scenario_arg.ts";
import { docPath } from "../package_files.ts";
import { kubeletOverridesOf, seedOf, strategyOf } from "./run.ts";
import type { CommandFactory } from "./index.ts";

export interface ServeArgs {
  file: string;
  at?: string[];
  step?: string;
  port: number | string;
  allowHost?: string[];
  seed?: number;
  strategy?: string;
  kubeletVersion?: string;
  variant?: string[];
  /** In a cluster (`nodes:`), the node whose kubelet is served. */
  node?: string;
}

export const DEFAULT_SERVE_PORT = 10255;

export const serveCommand: CommandFactory = (ctx) => ({
  command: "serve <file>",
  describe: "Run a scenario to a virtual instant and serve the kubelet's read-only HTTP endpoints there",
  builder: (y: Argv) =>
    y
      .positional("file", { type: "string", describe: `a scenario file (YAML, see ${docPath("scenarios.md")}), or a bundled scenario's name (default, r05)` })
      .option("at", { type: "string", array: true, describe: "the virtual instant to serve (e.g. 30s); repeat it for the instants POST /-/advance steps through. Default: the scenario's end" })
      .option("step", { type: "string", describe: "how far POST /-/advance moves the clock once the --at instants are used up (e.g. 5s)" })
      .option("port", { type: "number", default: DEFAULT_SERVE_PORT, describe: "the port on 127.0.0.1 (0: any free port)" })
      .option("allow-host", { type: "string", array: true, describe: "also answer requests whose Host is NAME (by default only localhost, 127.0.0.1 and [::1], against DNS rebinding); * for any; repeatable" })
      .option("node", { type: "string", describe: "in a cluster (nodes:), the node whose kubelet's endpoints are served (default: the first node)" })
      .option("seed", { type: "number", describe: "override the scenario's seed" })
      .option("strategy", { type: "string", describe: "override the scenario's strategy: fifo, random, pct, pct:DEPTH[:STEPS], pos" })
      .option("kubelet-version", { type: "string", describe: 'serve the scenario under this kubelet, e.g. "1.22"' })
      .option("variant", { type: "string", array: true, describe: "switch a model variant on (NAME) or off (NAME=false); repeatable" })
      .example("$0 serve scenarios/default.yaml --at 30s", "then: curl localhost:10255/pods, or kubectl get --raw")
      .example("$0 serve scenarios/basics/02-crash-loop-backoff.yaml --at 10s --at 40s --step 5s --port 0", "POST /-/advance moves to 40s, then 5s at a time")
      .epilogue(`Ctrl-C (SIGINT), SIGTERM or SIGHUP stops the server; exit 0. Exit 2 for a bad scenario or flag, or a port in use. See ${docPath("serve.md")}.`),
  handler: async (raw: ArgumentsCamelCase) => {
    const io = processIo();
    const running = await startServe(raw as unknown as ServeArgs, io);
    if (running === null) {
      ctx.exitCode = EXIT_USAGE;
      return;
    }
    await stopSignal();
    await running.stop();
    ctx.exitCode = EXIT_OK;
  },
});

export interface RunningServe {
  readonly listening: Listening;
  readonly session: ServeSession;
  readonly replayKey: string;
  stop(): Promise<void>;
}

/** Loads, runs to the first instant, listens, prints the replay key and the URL. Null after reporting a bad scenario. */
export async function startServe(argv: ServeArgs, io: CliIo): Promise<RunningServe | null> {
  const port = portOf(argv.port);
  const stepMs = argv.step === undefined ? null : durationOf("--step", argv.step);
  if (stepMs !== null && stepMs <= 0) throw new UserError(`--step ${argv.step}: the virtual clock only moves forward`);
  // --node picks the node served; it renames nothing (run's --node renames a one-node scenario's node).
  const overrides = kubeletOverridesOf({ ...argv, node: undefined });
  // Loaded here, not at the top: the models are needed only when something runs (--help stays fast).
  const { loadOrReport, replayKey } = await import("../session.ts");
  const { ServeSession, serveHandler } = await import("../../server/index.ts");
  const { listen } = await import("../serve_http.ts");
  const loaded = loadOrReport(resolveScenarioArg(argv.file), overrides.kubelet, io);
  if (loaded === null) return null;
  const { scenario } = loaded;
  const names = scenario.nodes?.map((n) => n.node.name) ?? [scenario.node.name];
  if (argv.node !== undefined && !names.includes(argv.node)) {
    throw new UserError(`--node ${argv.node}: expected ${scenario.nodes === undefined ? `the scenario's one node, ${names[0]}` : `one of the cluster's nodes (${names.join(", ")})`}`);
  }
  const atMs = (argv.at ?? [formatDuration(scenario.untilMs)]).map((t) => durationOf("--at", t));
  for (const [i, ms] of atMs.entries()) {
    if (ms > scenario.untilMs) throw new UserError(`--at ${argv.at![i]}: after the scenario's end (until ${formatDuration(scenario.untilMs)})`);
  }
  const seed = argv.seed === undefined ? scenario.seed : seedOf(argv.seed);
  const strategy = argv.strategy === undefined ? scenario.strategy : strategyOf(argv.strategy);
  const key = replayKey(argv.file, seed, formatStrategy(strategy), null, overrides.kubelet);
  io.stdout.write(`${io.stdout.palette.dim("# replay:")} ${key}\n`);
  const session = new ServeSession({ scenario, scenarioFile: argv.file, seed, strategy, atMs, stepMs });
  const listening = await listen(serveHandler(session, key, argv.node), port, { allowHosts: argv.allowHost ?? [], allowHostOption: "--allow-host" });
  io.stdout.write(describeStart(argv.file, session, listening.url, scenario.nodes === undefined ? null : argv.node ?? names[0]!));
  return {
    listening,
    session,
    replayKey: key,
    stop: async () => {
      await listening.close();
      io.stdout.write(`${io.stdout.palette.dim(`# stopped; the run was at t=${formatDuration(session.nowMs)}`)}\n`);
    },
  };
}

function describeStart(file: string, session: ServeSession, url: string, node: string | null): string {
  const lines = [`serving the simulated kubelet of ${node === null ? "" : `node ${node} of `}${file} at t=${formatDuration(session.nowMs)} on ${url}`];
  const ended = session.verdict;
  if (ended !== null && isFailureVerdict(ended as never)) lines.push(`warning: the run ended with ${ended} before that instant; the state served is where it stopped (see \`kubelet-sim run\`)`);
  else if (ended !== null) lines.push("(the run has reached its end: POST /-/advance cannot move it further)");
  lines.push("  GET /pods  /runningpods/  /healthz?verbose   GET /-/  POST /-/advance[?by=5s]   Ctrl-C stops");
  return `${lines.join("\n")}\n`;
}

function portOf(port: number | string): number {
  if (typeof port === "number" && Number.isInteger(port) && port >= 0 && port <= 65535) return port;
  throw new UserError(`--port ${String(port)}: expected a port number from 0 to 65535`);
}

function durationOf(flag: string, text: string): number {
  try {
    return parseDuration(text);
  } catch (err) {
    throw new UserError(`${flag} ${text}: ${(err as Error).message}`);
  }
}

