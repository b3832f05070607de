// The hostile-record property, shared by the bounded fuzz test in `npm test` and `npm run fuzz`:
// every mutant of a real run record (record_mutate.ts), given to `replay` or to `diff` against the
// record it came from, is either refused with exit 2 and a message naming the record (or, for a
// scenario text the record carries, a located one), reported as a divergence (exit 3), or accepted;
// and accepted only when it still says what the run did: the same trace hash, verdict, `ok` and
// number of choices. Never a stack trace or an internal error (nor, in `npm run fuzz`, which alone
// checks wall time, a run that takes too long).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tapeLength } from "../../src/record/tape.ts";
import { runCli, ROOT, type CliRun } from "./property.ts";
import { applyRecordMutations, type RecordJson, type RecordMutation } from "./record_mutate.ts";

export interface RecordSeed {
  /** What the record is of, for messages and file names. */
  readonly name: string;
  /** The record's file in the fuzz folder (diff compares a mutant with it). */
  readonly file: string;
  readonly record: RecordJson;
  /** The text of the scenario the record pins. */
  readonly scenarioText: string;
  /** How `replay` of the unchanged record exits (0, or 1 for a run that fails an expectation). */
  readonly exitCode: number;
}

export type RecordCommand = "replay" | "diff";

/** The runs recorded, as a user would record them (paths relative to the repository root, the working folder). */
const RECORDED: ReadonlyArray<{ name: string; argv: readonly string[] }> = [
  { name: "pod-starts", argv: ["scenarios/basics/01-pod-starts.yaml", "--strategy", "random", "--seed", "3"] },
  { name: "r05", argv: ["scenarios/races/r05-pw-kill-pinning.yaml"] },
  { name: "prestop-pct", argv: ["scenarios/basics/09-graceful-delete-prestop.yaml", "--strategy", "pct:3:1000", "--seed", "5", "--kubelet-version", "1.29"] },
  { name: "job-manifest", argv: ["examples/manifests/job.yaml", "--strategy", "random", "--until", "20s"] },
];

async function cli(argv: readonly string[]): Promise<CliRun> {
  const r = await runCli(argv);
  if (r.code !== 0 && r.code !== 1) throw new Error(`making the fuzz's records: kubelet-sim ${argv.join(" ")}: exit ${r.code}\n${r.err.slice(0, 2000)}`);
  return r;
}

function readRecord(path: string): RecordJson {
  return JSON.parse(readFileSync(path, "utf8")) as RecordJson;
}

/**
 * Records to mutate, made in `dir` with the CLI itself: runs of bundled scenarios and of a manifest
 * (passing, failing, pct with a kubelet override), one that carries its scenario's text (as a
 * play-mode export at the learner's timing does), and an explore repro file with its scenario
 * beside it. Also what hostile `scenario` fields name there: a FIFO and a folder called *.yaml.
 */
export async function makeRecordSeeds(dir: string): Promise<RecordSeed[]> {
  if (process.cwd() !== ROOT.replace(/\/$/, "")) throw new Error(`the record fuzz runs from the repository's root (${ROOT}), not ${process.cwd()}`);
  const seeds: RecordSeed[] = [];
  for (const { name, argv } of RECORDED) {
    const file = join(dir, `${name}.json`);
    const r = await cli(["run", ...argv, "--record", file, "--format", "jsonl", "--out", join(dir, `${name}.jsonl`)]);
    const record = readRecord(file);
    seeds.push({ name, file, record, scenarioText: readFileSync(String(record["scenario"]), "utf8"), exitCode: r.code });
  }
  // The text inside the record, and its file nowhere to be found.
  const first = seeds[0]!;
  const inline = { ...first.record, scenario: "gone/01-pod-starts.yaml", scenarioText: first.scenarioText };
  const inlineFile = join(dir, "inline-text.json");
  writeFileSync(inlineFile, `${JSON.stringify(inline, null, 2)}\n`);
  seeds.push({ ...first, name: "inline-text", file: inlineFile, record: inline });
  // An explore repro: the shrunk scenario lies beside it, named by its base name.
  const out = join(dir, "explore");
  await cli(["explore", "scenarios/races/r05-pw-kill-pinning.yaml", "--runs", "20", "--seed", "1", "--out", out]);
  const repro = readdirSync(out).find((f) => f.endsWith(".json"));
  if (repro === undefined) throw new Error("making the fuzz's records: explore of r05 wrote no repro");
  const reproFile = join(dir, repro);
  copyFileSync(join(out, repro), reproFile);
  const record = readRecord(reproFile);
  copyFileSync(join(out, String(record["scenario"])), join(dir, String(record["scenario"])));
  seeds.push({ name: "repro", file: reproFile, record, scenarioText: readFileSync(join(dir, String(record["scenario"])), "utf8"), exitCode: 1 });
  mkdirSync(join(dir, "folder.yaml"));
  spawnSync("mkfifo", [join(dir, "fifo.yaml")]);
  return seeds;
}

const STACK = /\n\s+at .+:\d+:\d+\)?$/m;
const LOCATED = /^\S.*:\d+:\d+: .+/m;

/** What an accepted record must still say: the run's trace, verdict, ok and number of choices. */
function contradicts(seed: RecordSeed, text: string): string | null {
  let mutant: RecordJson;
  try {
    mutant = JSON.parse(text) as RecordJson;
  } catch {
    return "accepted a record that is not JSON";
  }
  for (const key of ["traceHash", "verdict", "ok"]) {
    if (mutant[key] !== seed.record[key]) return `accepted a record whose ${key} is ${JSON.stringify(mutant[key])}, not the run's ${JSON.stringify(seed.record[key])}`;
  }
  const made = tapeLength(String(seed.record["choices"]));
  const holds = tapeLength(String(mutant["choices"]));
  return holds === made ? null : `accepted a record of ${holds} choices for a run of ${made}`;
}

/** Runs one mutant through `replay` or `diff`; returns what is wrong with the outcome (past `maxMs` of wall time, when given, too), or null when the property holds. */
export async function checkRecordMutant(seed: RecordSeed, mutations: readonly RecordMutation[], command: RecordCommand, dir: string, maxMs: number | null = null): Promise<string | null> {
  const text = applyRecordMutations(seed.record, seed.scenarioText, mutations);
  const file = join(dir, `mutant-${seed.name}.json`);
  writeFileSync(file, text);
  const r = await runCli(command === "replay" ? ["replay", file, "--format", "jsonl"] : ["diff", file, seed.file]);
  return judgeRecordRun(seed, text, command, file, r, maxMs);
}

/** The property on one outcome: what is wrong with `r`, the CLI given the mutant `text` in `file`, or null. */
export function judgeRecordRun(seed: RecordSeed, text: string, command: RecordCommand, file: string, r: CliRun, maxMs: number | null = null): string | null {
  const all = `${r.out}\n${r.err}`;
  if (STACK.test(all)) return `a stack trace (exit ${r.code}):\n${r.err.slice(0, 2000)}`;
  if (maxMs !== null && r.ms > maxMs) return `took ${Math.round(r.ms)} ms (more than ${maxMs} ms)`;
  switch (r.code) {
    case 0:
    case 1: {
      const want = command === "replay" ? seed.exitCode : 0;
      if (r.code !== want) return `exit ${r.code}, where the record's run exits ${want}:\n${r.err.slice(0, 2000)}`;
      return contradicts(seed, text);
    }
    case 2:
      // The refusal may follow the rerun's outputs (an edit only the rerun shows): a line of its own.
      if (!/^kubelet-sim: /m.test(r.err)) return `exit 2 without a kubelet-sim message:\n${r.err.slice(0, 2000)}`;
      if (!r.err.includes(file) && !LOCATED.test(r.err)) return `exit 2 naming neither the record nor a place in its scenario:\n${r.err.slice(0, 2000)}`;
      return null;
    case 3: {
      const diverged = command === "replay" ? `kubelet-sim: replay of ${file} diverged: ` : `kubelet-sim: ${file}: the replay did not reproduce the recorded trace`;
      return r.err.includes(diverged) ? null : `exit 3 that is no divergence:\n${r.err.slice(0, 2000)}`;
    }
    default:
      return `exit ${r.code}:\n${r.err.slice(0, 2000)}`;
  }
}

/** The mutant's text, for a counterexample's report. */
export function recordMutantText(seed: RecordSeed, mutations: readonly RecordMutation[]): string {
  return applyRecordMutations(seed.record, seed.scenarioText, mutations);
}
