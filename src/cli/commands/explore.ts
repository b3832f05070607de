// `kubelet-sim explore FILE`: many runs of a scenario under random or pct scheduling, every
// registered invariant checked; the first failure is shrunk and written as a repro file that
// `kubelet-sim replay` reproduces. See docs/exploring.md.
import { promisify } from "node:util";
import type { ArgumentsCamelCase, Argv } from "yargs";
import { parseDuration } from "../../sim/index.ts";
import { ScenarioError, formatIssueList } from "../../scenario/index.ts";
import { UnknownInvariantError } from "../../check/invariants.ts";
import { DEFAULT_ISLANDS, MAX_ISLANDS, exploreParallel, humanSummary, jsonLine, parseShard, summarize, writeShardFile, type ExploreOptions, type ExploreProgress, type ExploreReport } from "../../explore/index.ts";
import { EXIT_INTERNAL, EXIT_OK, EXIT_VIOLATION, UserError } from "../exit.ts";
import { resolveScenarioArg } from "../scenario_arg.ts";
import { AtomicFile } from "../atomic.ts";
import { renderExploreHtml, type ExploreViewEntry } from "../../report/explore_view.ts";
import type { CommandFactory } from "./index.ts";
import { kubeletOverridesOf } from "./run.ts";

interface Args {
  file: string;
  runs: number;
  strategy: string;
  islands?: number;
  swarm?: string;
  coverage: boolean;
  html?: string;
  compare?: string;
  depth?: number;
  steps?: number;
  seed?: number;
  jobs: number;
  shard?: string;
  timeBudget?: string;
  out: string;
  json: boolean;
  checkDeterminism: boolean;
  invariants: string;
  keepGoing: boolean;
  shrink: boolean;
  shrinkRuns: number;
  shrinkTime: string;
  kubeletVersion?: string;
  variant?: string[];
  featureGate?: string[];
  node?: string;
}

export const exploreCommand: CommandFactory = (ctx) => ({
  command: "explore <file>",
  describe: "Hunt races: many runs under random or pct scheduling, every invariant checked; shrink the first failure to a repro file",
  builder: (y: Argv) =>
    y
      .positional("file", { type: "string", describe: "a scenario file (YAML), or a bundled scenario's name (r05)" })
      .option("kubelet-version", { type: "string", describe: 'explore under this kubelet instead of the scenario\'s kubelet.version, e.g. "1.22" or "1.22.4"' })
      .option("variant", { type: "string", array: true, describe: "switch a model variant on (NAME) or off (NAME=false), over kubelet.variants; repeatable" })
      .option("feature-gate", { type: "string", array: true, describe: "set a kubelet feature gate (NAME=true or NAME=false), over kubelet.featureGates; repeatable" })
      .option("node", { type: "string", describe: "run as this node (node.name); of a manifest dump bound to several nodes, the one whose pods run" })
      .option("runs", { type: "number", default: 1000, describe: "how many runs (run i's seed derives from --seed and i)" })
      .option("strategy", { type: "string", default: "pct", choices: ["random", "pct", "pos", "guided"], describe: "how each run schedules: random walk, pct (priorities with change points), pos (partial order sampling) or guided (coverage-guided mutation of earlier runs' schedules and knobs)" })
      .option("islands", { type: "number", describe: `guided only: independent corpora (default ${DEFAULT_ISLANDS}); threads and shards take whole islands` })
      .option("swarm", { type: "string", choices: ["auto", "none"], describe: "auto: draw every run's timings from generic ranges around the scenario's own (over a file's swarm ranges); none: no knobs" })
      .option("coverage", { type: "boolean", default: false, describe: "measure coverage under random, pct and pos too (guided always does)" })
      .option("html", { type: "string", describe: "also write the HTML view of the exploration: what it reached, and its coverage over runs" })
      .option("compare", { type: "string", describe: "with --html: explore the same runs under these strategies too (e.g. pos,random) and draw each one's coverage" })
      .option("depth", { type: "number", describe: "pct's bug depth d (default 3)" })
      .option("steps", { type: "number", describe: "pct's step count k (default: the proc choices of a fifo run)" })
      .option("seed", { type: "number", describe: "the exploration seed (default: the scenario's seed)" })
      .option("jobs", { type: "number", default: 1, describe: "worker threads; the runs are the same whatever the number" })
      .option("shard", { type: "string", describe: "run only shard i of n (i/n): every n-th run, starting at run i-1; its outcome goes to --out for `kubelet-sim merge`" })
      .option("time-budget", { type: "string", describe: "stop handing out runs after this much wall time (e.g. 30s, 5m)" })
      .option("out", { type: "string", default: "repros", describe: "where the repro file (and, with --shard, the shard's outcome) goes" })
      .option("json", { type: "boolean", default: false, describe: "print one JSON line at the end instead of the summary" })
      .option("check-determinism", { type: "boolean", default: false, describe: "run a sample of runs again and compare their traces" })
      .option("invariants", { type: "string", default: "all", describe: "invariants to check: all, or ids separated by commas" })
      .option("keep-going", { type: "boolean", default: false, describe: "run every run even after a failure (the first one is shrunk)" })
      .option("shrink", { type: "boolean", default: true, describe: "shrink the first failure (--no-shrink keeps it as found)" })
      .option("shrink-runs", { type: "number", default: 500, describe: "the most runs shrinking may spend" })
      .option("shrink-time", { type: "string", default: "60s", describe: "the most wall time shrinking may spend" })
      .example("$0 explore scenarios/default.yaml --runs 200 --strategy pct --json", "200 pct runs, one JSON line")
      .example("$0 explore x.yaml --runs 5000 --jobs 4 --time-budget 5m", "a long hunt on four threads")
      .example("$0 explore x.yaml --runs 1000 --shard 2/4", "this machine's quarter of a 1000-run exploration")
      .example("$0 explore x.yaml --swarm auto --strategy guided --runs 5000", "discover: generic timings, coverage-guided schedules")
      .example("$0 explore scenarios/races/r05-pw-kill-pinning.yaml --runs 2000 --kubelet-version 1.22", "the same hunt under the fixed kubelet")
      .epilogue("Exit codes: 0 no failure, 1 a failure was found (repro written), 2 usage or scenario error, 3 nondeterminism (a bug in kubelet-sim)."),
  handler: async (raw: ArgumentsCamelCase) => {
    const argv = raw as unknown as Args;
    const options = { ...exploreOptions(argv), onNote: (text: string) => void process.stderr.write(`note: ${text}\n`) };
    // A big scenario's runs go to a `node` with a larger young generation (young.ts), as `run`'s do.
    const { rerunIfBig } = await import("../big_run.ts");
    const again = await rerunIfBig(ctx.respawn, resolveScenarioArg(argv.file), options.kubelet);
    if (again !== null) {
      ctx.exitCode = again;
      return;
    }
    const progress = process.stderr.isTTY ? new ProgressBar() : null;
    const compare = compareStrategies(argv);
    // Opened before the runs, so an unwritable page fails at once, not after a long exploration.
    const page = argv.html === undefined ? null : AtomicFile.open(argv.html);
    let report: ExploreReport;
    const others: ExploreViewEntry[] = [];
    try {
      report = await explore({ ...options, coverage: options.coverage === true || page !== null, ...(progress === null ? {} : { onProgress: (p: ExploreProgress) => progress.update(p) }) });
      for (const strategy of compare) {
        const other = await explore({ ...options, strategy, coverage: true, shrink: false, outDir: null, checkDeterminism: false, ...(progress === null ? {} : { onProgress: (p: ExploreProgress) => progress.update(p) }) });
        others.push({ label: other.strategy, summary: summarize(other) });
      }
    } catch (err) {
      page?.abort();
      throw asUserError(argv.file, err);
    } finally {
      progress?.clear();
    }
    const summary = summarize(report);
    if (page !== null) {
      page.write(renderExploreHtml([{ label: summary.strategy, summary }, ...others]));
      page.commit();
    }
    // A shard leaves its outcome beside its repro, for `kubelet-sim merge` (docs/exploring.md).
    if (options.shard !== undefined) writeShardFile(argv.out, options.shard, options.runs, argv.keepGoing, summary);
    process.stdout.write(argv.json ? `${JSON.stringify(jsonLine(summary))}\n` : humanSummary(summary));
    if (report.determinism !== null && !report.determinism.ok) ctx.exitCode = EXIT_INTERNAL;
    else ctx.exitCode = report.first === null ? EXIT_OK : EXIT_VIOLATION;
  },
});

/** --compare's strategies: only with --html and without --shard; each one of explore's strategies. */
function compareStrategies(argv: Args): ExploreOptions["strategy"][] {
  if (argv.compare === undefined) return [];
  if (argv.html === undefined) throw new UserError("--compare: only with --html (the comparison is drawn there)");
  if (argv.shard !== undefined) throw new UserError("--compare: not with --shard (compare whole explorations)");
  const names = argv.compare.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const n of names) {
    if (!["random", "pct", "pos", "guided"].includes(n)) throw new UserError(`--compare: unknown strategy "${n}": expected random, pct, pos or guided, separated by commas`);
  }
  return names as ExploreOptions["strategy"][];
}

/** exploreParallel as a promise (src/explore itself makes none). */
function explore(opts: ExploreOptions): Promise<ExploreReport> {
  return promisify(exploreParallel)(opts) as Promise<ExploreReport>;
}

/** The flags as explore options; every malformed value is a UserError (exit 2). */
export function exploreOptions(argv: Args): ExploreOptions {
  const whole = (name: string, v: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER) => {
    if (v === undefined || (Number.isInteger(v) && v >= min && v <= max)) return v;
    throw new UserError(`--${name} ${String(v)}: expected a whole number from ${min} to ${max}`);
  };
  const depth = whole("depth", argv.depth, 1, 100);
  const steps = whole("steps", argv.steps, 1);
  const seed = whole("seed", argv.seed, 0, 2 ** 32 - 1);
  const islands = whole("islands", argv.islands, 1, MAX_ISLANDS);
  if (islands !== undefined && argv.strategy !== "guided") throw new UserError("--islands: only with --strategy guided");
  return {
    source: { file: resolveScenarioArg(argv.file) },
    ...kubeletOverridesOf(argv),
    runs: whole("runs", argv.runs, 0)!,
    strategy: argv.strategy === "random" || argv.strategy === "pos" || argv.strategy === "guided" ? argv.strategy : "pct",
    ...(islands === undefined ? {} : { islands }),
    ...(argv.swarm === "auto" || argv.swarm === "none" ? { swarm: argv.swarm } : {}),
    coverage: argv.coverage,
    ...(depth === undefined ? {} : { depth }),
    ...(steps === undefined ? {} : { steps }),
    ...(seed === undefined ? {} : { seed }),
    jobs: whole("jobs", argv.jobs, 1, 256)!,
    ...(argv.shard === undefined ? {} : { shard: userParse("--shard", () => parseShard(argv.shard!)) }),
    timeBudgetMs: argv.timeBudget === undefined ? null : userParse("--time-budget", () => parseDuration(argv.timeBudget!)),
    keepGoing: argv.keepGoing,
    checkDeterminism: argv.checkDeterminism,
    invariants: argv.invariants.split(",").map((s) => s.trim()).filter((s) => s !== ""),
    shrink: argv.shrink ? { maxRuns: whole("shrink-runs", argv.shrinkRuns, 0)!, maxMs: userParse("--shrink-time", () => parseDuration(argv.shrinkTime)) } : false,
    outDir: argv.out,
    clock: () => performance.now(),
  };
}

function userParse<T>(flag: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new UserError(`${flag}: ${(err as Error).message}`);
  }
}

function asUserError(file: string, err: unknown): unknown {
  if (err instanceof ScenarioError) return new UserError(formatIssueList(err.issues).join("\n"));
  if (err instanceof UnknownInvariantError) return new UserError(`--invariants: ${err.message}`);
  if (err instanceof Error && /^bad (shard|run index|--jobs|--islands)/.test(err.message)) return new UserError(`${file}: ${err.message}`);
  return err;
}

/** One line on stderr, redrawn at most ten times a second: done/total, rate, failures. */
class ProgressBar {
  private lastDrawMs = -Infinity;
  private drawn = false;

  update(p: ExploreProgress): void {
    const now = performance.now();
    if (p.phase === "explore" && p.done < p.total && now - this.lastDrawMs < 100) return;
    this.lastDrawMs = now;
    const width = 30;
    const filled = p.total === 0 ? width : Math.round((p.done / p.total) * width);
    const rate = p.elapsedMs > 0 ? ` ${(p.done / (p.elapsedMs / 1000)).toFixed(1)} runs/s` : "";
    const text = p.phase === "explore"
      ? `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${p.done}/${p.total} runs${rate}, ${p.failures} failing`
      : p.phase === "shrink" ? "shrinking the first failure..." : "checking determinism...";
    process.stderr.write(`\r\x1b[2K${text}`);
    this.drawn = true;
  }

  clear(): void {
    if (this.drawn) process.stderr.write("\r\x1b[2K");
  }
}
