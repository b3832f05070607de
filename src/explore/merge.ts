// Exploration past one machine: `explore --shard i/n --out DIR` writes its outcome to
// DIR/explore-shard-i-of-n.json, and `kubelet-sim merge DIR...` reads the n shard files and says
// what the unsharded exploration would have said: the same runs, the same first failure, the same
// repro (docs/exploring.md, "Past one machine").
//
// Why it is the same: run i is a function of (plan, i) alone, and shard k runs its indices in
// order, stopping at its own first failure f_k (unless --keep-going). The exploration's first
// failure f is min f_k, and every shard has run all its indices below f, so the union of the
// shards holds every run 0..f; the unsharded exploration runs exactly those (with one thread) and
// the shard whose first failure is f shrank it as the unsharded exploration would have.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { jsonEqual } from "../k8s/json.ts";
import { VERSION } from "../version.ts";
import type { RunSummary } from "./context.ts";
import type { DeterminismReport } from "./determinism.ts";
import type { StopReason } from "./explorer.ts";
import { writeFileAtomic } from "./files.ts";
import type { Shard } from "./seeds.ts";
import { firstFailing, type ExploreSummary } from "./summary.ts";

export const SHARD_FORMAT = "kubelet-sim/explore-shard/v1";

export interface ShardFile {
  format: typeof SHARD_FORMAT;
  tool: string;
  shard: Shard;
  /** N: the exploration's runs, of which this shard took every n-th. */
  runsTotal: number;
  keepGoing: boolean;
  summary: ExploreSummary;
}

/** The envelope is checked; the summary is what this version wrote (its tool must match). */
const shardFileSchema = z.object({
  format: z.literal(SHARD_FORMAT, { error: `expected format "${SHARD_FORMAT}"` }),
  tool: z.string(),
  shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }),
  runsTotal: z.number().int().min(0),
  keepGoing: z.boolean(),
  summary: z.object({ plan: z.record(z.string(), z.unknown()), strategy: z.string(), runs: z.array(z.record(z.string(), z.unknown())) }).passthrough(),
});

export function shardFileName(shard: Shard): string {
  return `explore-shard-${shard.index}-of-${shard.count}.json`;
}

/** Writes a shard's outcome into its --out folder; returns the path. */
export function writeShardFile(outDir: string, shard: Shard, runsTotal: number, keepGoing: boolean, summary: ExploreSummary): string {
  const file: ShardFile = { format: SHARD_FORMAT, tool: VERSION, shard, runsTotal, keepGoing, summary };
  const path = join(outDir, shardFileName(shard));
  writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
  return path;
}

/** A problem with the shard files, for the user (exit 2). */
export class MergeError extends Error {
  override name = "MergeError";
}

/** The shard files in the given folders (or files), each read and checked. */
export function readShardFiles(paths: readonly string[]): { path: string; file: ShardFile }[] {
  const files: string[] = [];
  for (const p of paths) {
    let dir: boolean;
    try {
      dir = statSync(p).isDirectory();
    } catch {
      throw new MergeError(`${p}: no such file or folder`);
    }
    if (!dir) files.push(p);
    else {
      const found = readdirSync(p).filter((n) => /^explore-shard-\d+-of-\d+\.json$/.test(n)).sort();
      if (found.length === 0) throw new MergeError(`${p}: no shard file (explore-shard-I-of-N.json) in this folder; was it the --out of \`explore --shard I/N\`?`);
      files.push(...found.map((n) => join(p, n)));
    }
  }
  return files.map((path) => ({ path, file: readShardFile(path) }));
}

function readShardFile(path: string): ShardFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new MergeError(`${path}: not a shard file: ${(err as Error).message}`);
  }
  const parsed = shardFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${path}: ${i.path.map(String).join(".") || "(top level)"}: ${i.message}`);
    throw new MergeError(`not a shard file (written by \`kubelet-sim explore --shard\`):\n${issues.join("\n")}`);
  }
  const file = json as ShardFile;
  if (file.tool !== VERSION) throw new MergeError(`${path}: written by kubelet-sim ${file.tool}; this is ${VERSION}, whose runs may differ: explore the shards again`);
  return file;
}

/** The shards of one exploration, together: what the unsharded exploration would report. */
export function mergeShards(shards: readonly { path: string; file: ShardFile }[]): ExploreSummary {
  const sorted = checkShards(shards);
  const all: RunSummary[] = sorted.flatMap((s) => s.file.summary.runs).sort((a, b) => a.index - b.index);
  const { keepGoing, runsTotal } = sorted[0]!.file;
  const firstFail = all.find((r) => r.failure !== null) ?? null;
  const runs = firstFail === null || keepGoing ? all : all.filter((r) => r.index <= firstFail.index);
  const owner = firstFail === null ? null : sorted.find((s) => firstFailing(s.file.summary)?.index === firstFail.index)!.file.summary;
  const end = firstFail === null || keepGoing ? runsTotal : firstFail.index + 1;
  const complete = runs.length === end && runs.every((r, i) => r.index === i);
  const stoppedBy: StopReason = firstFail !== null && !keepGoing ? "failure" : complete ? "done" : "time-budget";
  if (!complete && stoppedBy === "failure") {
    throw new MergeError(`the shards did not run every run before the first failure (run ${firstFail!.index}): a shard stopped early (--time-budget?); explore it again`);
  }
  const base = sorted[0]!.file.summary;
  return {
    plan: base.plan,
    strategy: base.strategy,
    runs,
    failures: runs.filter((r) => r.failure !== null).length,
    stoppedBy,
    exploreMs: Math.max(...sorted.map((s) => s.file.summary.exploreMs)),
    timeToFirstFailureMs: owner?.timeToFirstFailureMs ?? null,
    failure: owner?.failure ?? null,
    shrink: owner?.shrink ?? null,
    repro: owner?.repro ?? null,
    asFound: owner?.asFound ?? null,
    determinism: mergeDeterminism(sorted.map((s) => s.file.summary.determinism)),
  };
}

/** One exploration's shards, each once, all of them: else a MergeError naming what is wrong. */
function checkShards(shards: readonly { path: string; file: ShardFile }[]): { path: string; file: ShardFile }[] {
  if (shards.length === 0) throw new MergeError("no shard files given");
  const first = shards[0]!;
  for (const s of shards.slice(1)) {
    const f = s.file;
    const same = f.shard.count === first.file.shard.count && f.runsTotal === first.file.runsTotal && f.keepGoing === first.file.keepGoing
      && jsonEqual(f.summary.plan, first.file.summary.plan) && f.summary.strategy === first.file.summary.strategy;
    if (!same) throw new MergeError(`${s.path} and ${first.path} are shards of different explorations (scenario, strategy, seed, --runs, shard count or --keep-going differ)`);
  }
  const n = first.file.shard.count;
  const byIndex = new Map<number, string>();
  for (const s of shards) {
    const other = byIndex.get(s.file.shard.index);
    if (other !== undefined) throw new MergeError(`shard ${s.file.shard.index}/${n} is given twice: ${other} and ${s.path}`);
    byIndex.set(s.file.shard.index, s.path);
  }
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new MergeError(`missing shard${missing.length === 1 ? "" : "s"} ${missing.map((i) => `${i}/${n}`).join(", ")} (have ${[...byIndex.keys()].sort((a, b) => a - b).map((i) => `${i}/${n}`).join(", ")})`);
  return [...shards].sort((a, b) => a.file.shard.index - b.file.shard.index);
}

function mergeDeterminism(reports: readonly (DeterminismReport | null)[]): DeterminismReport | null {
  if (reports.some((r) => r === null)) return null;
  const all = reports as DeterminismReport[];
  const mismatches = all.flatMap((r) => r.mismatches);
  return { checked: all.reduce((n, r) => n + r.checked, 0), ok: mismatches.length === 0, mismatches };
}
