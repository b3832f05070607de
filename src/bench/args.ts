// `npm run bench`'s command line: which lines, --json, and for `--against REV` how many pairs, how
// big the workloads are and whether to build this tree. A pure parse, so a typo is refused before
// minutes of measuring start (and tested table-driven in test/bench/args.test.ts).
import { parseArgs } from "node:util";

/** The lines of a plain `npm run bench`, in the order they run. */
export const PLAIN_LINES = ["kernel", "channel-ping-pong", "select-heavy", "node-110-pods-1h", "cluster-100x110-1h", "explore", "cli-startup", "hunt-speed", "hostile-input", "validate-keys", "consumer-tsc"] as const;

/** The lines `--against` can measure on both trees, in the order they run. */
export const AGAINST_LINES = ["kernel", "explore", "explore-jobs2", "node-110-pods-1h", "cluster-100x110-1h", "cli-startup", "hunt-speed", "hostile-input"] as const;
export type AgainstLineName = (typeof AGAINST_LINES)[number];

/**
 * What `--against` measures when no line is named: all but explore-jobs2, which doubles the explore
 * line's time and, on a shared 2-core machine, mostly measures the other users' load, and
 * cluster-100x110-1h, whose one run takes many minutes (four of them per pair of pairs).
 */
export const DEFAULT_AGAINST_LINES: readonly AgainstLineName[] = AGAINST_LINES.filter((l) => l !== "explore-jobs2" && l !== "cluster-100x110-1h");

/** Pairs (old, new) per line unless --repeat says otherwise: the default run stays under 15 minutes. */
export const DEFAULT_REPEAT = 2;
const MAX_REPEAT = 50;

export interface BenchArgs {
  /** The revision to compare with, as the user wrote it; null for a plain bench of this tree. */
  against: string | null;
  json: boolean;
  /** With --against: measurements per tree and line, taken alternately (old, new, old, new...). */
  repeat: number;
  /** With --against: workloads cut to a few runs, for the harness's own test (figures mean nothing). */
  tiny: boolean;
  /** With --against: build this tree (`npm run build`) before measuring it; --no-build uses dist/ as it is. */
  build: boolean;
  /** hunt-speed's forms by race id (["r01", "r10"]); null for all of them. */
  forms: string[] | null;
  /** The lines asked for, in the order they run; all of them when none is named. */
  lines: string[];
  help: boolean;
}

/** A command line the bench refuses; main prints the message and exits 2. */
export class BenchArgError extends Error {}

export const BENCH_USAGE = `npm run bench -- [LINE...] [--json] [--forms r01,r10]
npm run bench -- --against REV [LINE...] [--repeat N] [--json] [--forms r01,r10] [--no-build]

Plain lines: ${PLAIN_LINES.join(", ")}
With --against REV (a commit, branch or tag of this repository), REV is built in a temporary git
worktree and each line runs on both trees alternately; each figure is printed with both values and
the ratio new/old. Lines: ${AGAINST_LINES.join(", ")} (all but explore-jobs2
and cluster-100x110-1h unless named). See docs/BENCHMARKS.md.

  --repeat N   measurements per tree and line, alternately (default ${DEFAULT_REPEAT})
  --forms L    hunt-speed: only these races' hunt forms (ids separated by commas)
  --no-build   use this tree's dist/ as it is instead of running npm run build first
  --tiny       tiny workloads, to check the harness itself (the figures mean nothing)
  --json       one JSON object per figure, and a last one named "host"
`;

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const { values, positionals } = parseOrRefuse(argv);
  const against = values.against ?? null;
  if (against !== null && (against === "" || against.startsWith("-"))) throw new BenchArgError(`--against: expected a revision (a commit, branch or tag), found "${against}"`);
  for (const flag of ["repeat", "tiny", "no-build"] as const) {
    if (against === null && values[flag] !== undefined) throw new BenchArgError(`--${flag} is an option of --against REV`);
  }
  const known: readonly string[] = against === null ? PLAIN_LINES : AGAINST_LINES;
  for (const name of positionals) {
    if (!known.includes(name)) throw new BenchArgError(`unknown line "${name}"${against === null ? "" : " for --against"}: expected one of ${known.join(", ")}`);
  }
  return {
    against,
    json: values.json === true,
    repeat: values.repeat === undefined ? DEFAULT_REPEAT : parseRepeat(values.repeat),
    tiny: values.tiny === true,
    build: values["no-build"] !== true,
    forms: values.forms === undefined ? null : parseForms(values.forms),
    lines: positionals.length === 0 ? [...(against === null ? PLAIN_LINES : DEFAULT_AGAINST_LINES)] : known.filter((l) => positionals.includes(l)),
    help: values.help === true,
  };
}

function parseOrRefuse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        against: { type: "string" },
        json: { type: "boolean" },
        repeat: { type: "string" },
        tiny: { type: "boolean" },
        "no-build": { type: "boolean" },
        forms: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new BenchArgError(plainParseError(err as Error & { code?: string }));
  }
}

/** node:util's parse errors in one line: which option, and what is wrong with it. */
function plainParseError(err: Error & { code?: string }): string {
  const option = /'(-[-\w]+)/.exec(err.message)?.[1] ?? "an option";
  if (err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return `${option} needs a value (--against REV, --repeat N, --forms r01,r10)`;
  if (err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${option}`;
  return err.message.split("\n")[0]!;
}

function parseRepeat(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_REPEAT) throw new BenchArgError(`--repeat ${text}: expected a whole number from 1 to ${MAX_REPEAT}`);
  return n;
}

/** "r01,R10, r7" → ["r01", "r10", "r07"]: race ids as the hunt forms' file names spell them. */
export function parseForms(text: string): string[] {
  const ids = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (ids.length === 0) throw new BenchArgError("--forms: expected race ids separated by commas, e.g. r01,r10");
  return ids.map((id) => {
    const m = /^r(\d{1,2})$/i.exec(id);
    if (m === null) throw new BenchArgError(`--forms: "${id}" is not a race id (r01 to r25)`);
    return `r${m[1]!.padStart(2, "0")}`;
  });
}
