// The hostile-input property, shared by the bounded fuzz test in `npm test` and the longer
// `npm run fuzz`: every mutant of a bundled scenario (or of a snapshot under examples/) either
// loads and runs to a verdict within the run bounds, or is refused with exit 2 and a located
// message; never a stack trace or an internal error. `npm run fuzz` also reports a mutant that takes
// longer than MAX_MS of wall time; `npm test` does not (no test asserts wall time: a loaded host
// would fail it, and the run bounds already end every run).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseAllDocuments, stringify } from "yaml";
import { main } from "../../src/cli/main.ts";
import { applyMutations, type Mutation, type Value } from "./mutate.ts";

export const ROOT = join(import.meta.dirname, "..", "..");

export interface Seed {
  /** Relative to the repository root. */
  readonly file: string;
  /** `run` for scenarios and manifests, `actions` for the computePodActions snapshots under examples/actions. */
  readonly command: "run" | "actions";
  readonly value: Value;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return yamlFiles(p);
    return /\.ya?ml$/.test(name) ? [p] : [];
  });
}

/** A file's value; several documents (a manifest file with `---`) as the `kind: List` they equal. */
function fileValue(path: string): Value {
  const docs = parseAllDocuments(readFileSync(path, "utf8"));
  if (!Array.isArray(docs) || docs.length === 1) return (Array.isArray(docs) ? docs[0]!.toJS() : null) as Value;
  return { apiVersion: "v1", kind: "List", items: docs.map((d) => d.toJS() as Value) } as Value;
}

/** The bundled scenarios, the example manifests and the example snapshots, parsed. */
export function loadSeeds(): Seed[] {
  const seed = (path: string, command: Seed["command"]): Seed => ({ file: relative(ROOT, path), command, value: fileValue(path) });
  const examples = yamlFiles(join(ROOT, "examples"));
  const actions = join(ROOT, "examples", "actions");
  return [
    ...yamlFiles(join(ROOT, "scenarios")).map((p) => seed(p, "run")),
    ...examples.map((p) => seed(p, p.startsWith(actions) ? "actions" : "run")),
  ];
}

export interface CliRun {
  code: number;
  out: string;
  err: string;
  ms: number;
}

/** main(argv) in this process, with what it writes to stdout and stderr captured. */
export async function runCli(argv: readonly string[]): Promise<CliRun> {
  let out = "";
  let err = "";
  const stdout = process.stdout.write;
  const stderr = process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => ((out += String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => ((err += String(chunk)), true)) as typeof process.stderr.write;
  const started = process.hrtime.bigint();
  try {
    const code = await main(argv);
    return { code, out, err, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
}

/** With `npm run fuzz`: how long one mutant may take (load and a run capped at `UNTIL` of virtual time) before it is reported as too slow. */
export const MAX_MS = 30_000;
/** Runs are capped in virtual time so that a long `until` costs no more than a short one here. */
export const UNTIL = "3m";

const STACK = /\n\s+at .+:\d+:\d+\)?$/m;
const LOCATED = /^\S.*:\d+:\d+: .+/m;

/** The mutant's text as a user would write it. */
export function mutantText(seed: Seed, mutations: readonly Mutation[]): string {
  return stringify(applyMutations(seed.value, mutations), { lineWidth: 0 });
}

/**
 * Runs one mutant; returns what is wrong with the outcome, or null when the property holds. With
 * maxMs (npm run fuzz, not npm test), a mutant that took longer is reported too.
 */
export async function checkMutant(seed: Seed, mutations: readonly Mutation[], dir: string, maxMs: number | null = null): Promise<string | null> {
  const file = join(dir, `mutant-${seed.command}.yaml`);
  writeFileSync(file, mutantText(seed, mutations));
  const argv = seed.command === "run" ? ["run", file, "--until", UNTIL, "--format", "events"] : ["actions", file];
  const r = await runCli(argv);
  const all = `${r.out}\n${r.err}`;
  if (STACK.test(all)) return `a stack trace (exit ${r.code}):\n${r.err.slice(0, 2000)}`;
  if (maxMs !== null && r.ms > maxMs) return `took ${Math.round(r.ms)} ms (more than ${maxMs} ms)`;
  if (r.code === 2 && !LOCATED.test(r.err)) return `exit 2 without a located message:\n${r.err.slice(0, 2000)}`;
  if (r.code !== 0 && r.code !== 1 && r.code !== 2) return `exit ${r.code}:\n${r.err.slice(0, 2000)}`;
  return null;
}
