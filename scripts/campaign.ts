// The discovery campaign: the generic swarm and the guided strategy over the basics scenarios and
// the example manifests, under the newest kubelets, every invariant watched, sharded and merged,
// and every distinct failure written out for triage:
//   npm run campaign -- [--runs 100000] [--shards 8] [--parallel 2] [--versions 1.35,1.33]
//                       [--targets scenarios/basics/01-pod-starts.yaml,...] [--out campaign-results]
//                       [--seed 1] [--islands 8] [--shrink-runs 300] [--report-only]
// Each (target, kubelet version) is one exploration of --runs runs (`explore FILE --swarm auto
// --strategy guided --keep-going --kubelet-version V`, with the file's own expectations left out:
// they describe its story as written, which the generic swarm's timings need not keep), split in
// --shards shards. Each shard runs in a child process (--parallel at once) and leaves its shard
// file in OUT/<target>@<V>/shard-i/; a shard whose file is there is not run again, so the campaign
// resumes where it stopped and may run for hours, or on several machines sharing OUT. When every
// shard of an exploration is there, they are merged (the same runs as the unsharded exploration),
// and each distinct failure (its kind and id) gets its first run written as a shrunk repro file in
// OUT/<target>@<V>/failures/. OUT/report.md sums it up (runs, time, coverage, failures).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import {
  exploreSync, jsonLine, makePlan, makeRunner, mergeShards, readShardFiles, reproduceRun, RunContext, shardFileName, summarize, writeShardFile,
  type ExploreSummary, type PlanRequest, type RunSummary,
} from "../src/explore/index.ts";
import { coverageOf } from "../src/explore/coverage_summary.ts";
import { describeFailure } from "../src/explore/failure.ts";
import { readRawScenario } from "../src/explore/raw.ts";
import { parseShard } from "../src/explore/seeds.ts";

const ROOT = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "100000" },
    shards: { type: "string", default: "8" },
    parallel: { type: "string", default: "1" },
    versions: { type: "string", default: "1.35,1.33" },
    targets: { type: "string" },
    out: { type: "string", default: "campaign-results" },
    seed: { type: "string", default: "1" },
    islands: { type: "string", default: "8" },
    "shrink-runs": { type: "string", default: "300" },
    "report-only": { type: "boolean", default: false },
    // Internal: run one shard in this process.
    one: { type: "string" },
    version: { type: "string" },
    shard: { type: "string" },
  },
});
const fail = (msg: string): never => {
  process.stderr.write(`campaign: ${msg}\n`);
  process.exit(2);
};
const whole = (name: string, v: string, min: number): number => {
  const n = Number(v);
  if (!(Number.isInteger(n) && n >= min)) fail(`--${name} ${v}: expected a whole number >= ${min}`);
  return n;
};
const runs = whole("runs", values.runs, 1);
const shards = whole("shards", values.shards, 1);
const parallel = whole("parallel", values.parallel, 1);
const seed = whole("seed", values.seed, 0);
const islands = whole("islands", values.islands, 1);
const shrinkRuns = whole("shrink-runs", values["shrink-runs"], 0);
if (shards > islands) fail(`--shards ${shards} is more than --islands ${islands}: a guided exploration splits into at most one shard per island`);

const defaultTargets = (): string[] => [
  ...readdirSync(join(ROOT, "scenarios/basics")).filter((f) => f.endsWith(".yaml")).sort().map((f) => `scenarios/basics/${f}`),
  ...readdirSync(join(ROOT, "examples/manifests")).filter((f) => f.endsWith(".yaml")).sort().map((f) => `examples/manifests/${f}`),
];
const targets = values.targets === undefined ? defaultTargets() : values.targets.split(",").map((t) => t.trim()).filter((t) => t !== "");
const versions = values.versions.split(",").map((v) => v.trim()).filter((v) => v !== "");
const slug = (target: string, version: string) => `${basename(target).replace(/\.ya?ml$/, "")}@${version}`;
const dirOf = (target: string, version: string) => join(values.out, slug(target, version));

/** The exploration of one target under one kubelet: its own expectations left out, every invariant watched. */
function request(target: string, version: string): PlanRequest & { runs: number } {
  const { raw } = readRawScenario(join(ROOT, target));
  return {
    source: { raw: { ...raw, expect: [] }, label: target },
    kubelet: { version },
    strategy: "guided",
    islands,
    swarm: "auto",
    seed,
    runs,
  };
}

// ---- one shard, in a child process -------------------------------------------------------------

if (values.one !== undefined) {
  const version = values.version ?? fail("--one needs --version");
  const shard = parseShard(values.shard ?? fail("--one needs --shard"));
  const started = performance.now(); // host-time-ok: a script's own timing
  const report = exploreSync({ ...request(values.one, version), shard, keepGoing: true, shrink: false, outDir: null, clock: () => performance.now() - started });
  const dir = join(dirOf(values.one, version), `shard-${shard.index}`);
  mkdirSync(dir, { recursive: true });
  writeShardFile(dir, shard, runs, true, summarize(report));
  process.exit(0);
}

// ---- the campaign --------------------------------------------------------------------------------

interface Job {
  target: string;
  version: string;
  shard: number;
}

const shardFile = (j: Job) => join(dirOf(j.target, j.version), `shard-${j.shard}`, shardFileName({ index: j.shard, count: shards }));
const jobs: Job[] = [];
for (const target of targets) for (const version of versions) for (let shard = 1; shard <= shards; shard++) jobs.push({ target, version, shard });
const todo = values["report-only"] ? [] : jobs.filter((j) => !existsSync(shardFile(j)));
process.stdout.write(`campaign: ${targets.length} targets x ${versions.length} kubelets x ${shards} shards of ${runs} runs; ${jobs.length - todo.length} shards done, ${todo.length} to run\n`);

function runJob(j: Job): Promise<void> {
  return new Promise((done) => {
    const args = ["--import", "tsx", join(ROOT, "scripts/campaign.ts"), "--one", j.target, "--version", j.version, "--shard", `${j.shard}/${shards}`,
      "--runs", String(runs), "--seed", String(seed), "--islands", String(islands), "--shards", String(shards), "--out", values.out];
    const started = performance.now(); // host-time-ok
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
    child.on("close", (code) => {
      process.stdout.write(`  ${slug(j.target, j.version)} shard ${j.shard}/${shards}: ${code === 0 ? "done" : `FAILED (exit ${code})`} in ${((performance.now() - started) / 1000).toFixed(0)}s\n`);
      done();
    });
  });
}

async function runAll(): Promise<void> {
  const queue = [...todo];
  await Promise.all(Array.from({ length: Math.min(parallel, queue.length) }, async () => {
    // A shard another process sharing OUT finished meanwhile is not run again.
    for (let j = queue.shift(); j !== undefined; j = queue.shift()) if (!existsSync(shardFile(j))) await runJob(j);
  }));
}

interface Distinct {
  key: string;
  runs: number;
  first: RunSummary;
  repro: string | null;
}

/** Failing runs grouped by what failed (kind and id); the first of each reproduced and written. */
function triage(target: string, version: string, merged: ExploreSummary): Distinct[] {
  const groups = new Map<string, Distinct>();
  for (const r of merged.runs) {
    if (r.failure === null) continue;
    const key = `${r.failure.kind} ${r.failure.id}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { key, runs: 1, first: r, repro: null });
    else g.runs++;
  }
  const distinct = [...groups.values()];
  if (distinct.length === 0) return distinct;
  const ctx = new RunContext(makePlan(request(target, version)));
  const runner = makeRunner(ctx, false);
  const out = join(dirOf(target, version), "failures");
  mkdirSync(out, { recursive: true });
  for (const d of distinct) {
    try {
      const r = reproduceRun(ctx, runner, d.first, { shrink: { maxRuns: shrinkRuns }, outDir: out });
      d.repro = r.repro?.path ?? null;
    } catch (err) {
      d.repro = `not reproduced: ${(err as Error).message}`;
    }
  }
  return distinct;
}

function report(): void {
  const rows: string[] = [];
  const failures: string[] = [];
  for (const target of targets) {
    for (const version of versions) {
      const mine = jobs.filter((j) => j.target === target && j.version === version);
      const missing = mine.filter((j) => !existsSync(shardFile(j)));
      if (missing.length > 0) {
        rows.push(`| \`${target}\` | ${version} | ${mine.length - missing.length}/${mine.length} shards | | | | |`);
        continue;
      }
      const merged = mergeShards(readShardFiles(mine.map((j) => join(dirOf(target, version), `shard-${j.shard}`))));
      const line = jsonLine(merged);
      const cov = coverageOf(merged.runs, merged.plan.coverage);
      const distinct = triage(target, version, merged);
      writeFileSync(join(dirOf(target, version), "merged.json"), `${JSON.stringify({ ...line, distinct: distinct.map((d) => ({ key: d.key, runs: d.runs, firstRun: d.first.index, seed: d.first.seed, message: d.first.failure?.message, repro: d.repro })) }, null, 2)}\n`);
      const cpuS = merged.exploreMs / 1000;
      rows.push(`| \`${target}\` | ${version} | ${merged.runs.length} | ${cpuS.toFixed(0)} s | ${cov?.features ?? "-"}${cov?.plateau != null ? " (stopped growing)" : ""} | ${line.runsDigest} | ${distinct.length === 0 ? "none" : distinct.map((d) => `${d.key} (${d.runs})`).join("; ")} |`);
      for (const d of distinct) failures.push(`- \`${target}\` @ ${version}: **${d.key}**, ${d.runs} runs, first run ${d.first.index}: ${describeFailure(d.first.failure!)}; repro: ${d.repro ?? "-"}`);
    }
  }
  const text = [
    `# Discovery campaign`,
    ``,
    `\`npm run campaign -- --runs ${runs} --shards ${shards} --versions ${versions.join(",")} --seed ${seed} --islands ${islands}\`: ` +
      `the generic swarm and the guided strategy, every invariant watched, the files' own expectations left out.`,
    ``,
    `| target | kubelet | runs | time (longest shard) | coverage (features) | runs digest | distinct failures (runs) |`,
    `|---|---|---|---|---|---|---|`,
    ...rows,
    ``,
    `## Failures`,
    ``,
    ...(failures.length === 0 ? ["None."] : failures),
    ``,
  ].join("\n");
  mkdirSync(values.out, { recursive: true });
  writeFileSync(join(values.out, "report.md"), text);
  process.stdout.write(`${text}\nwrote ${join(values.out, "report.md")}\n`);
}

await runAll();
report();
