// A/B of guided exploration's runs by CPU time: this tree against another checkout, both loaded
// in this one process, each with its own guided runner over the same plan, run in alternation.
// host-time-ok: a measuring tool, like scripts/ab-cpu.ts (read its header: the tree loaded first
// runs a few percent faster than the same code loaded second, so swap the trees and invert).
//
//   node --import tsx scripts/guided-lockstep.ts --base /tmp/base-6a6a1f3 [--dist] \
//     [--forms explore,r01,r10,r20] [--islands 4] [--runs 480] [--warm 240] [--batch 24]
//   ... --base /work/guidedlock --new /tmp/base-6a6a1f3: the other load order (invert the ratios)
//
// A form is the explore bench's scenario (src/bench/explore.ts EXPLORE_BENCH_SCENARIO, "explore")
// or a race's hunt form (scenarios/races/hunt/rNN-hunt.yaml, its own swarm), under
// `--strategy guided --islands I`, coverage measured as `explore` does. Each tree's runner runs
// runs 0..W-1 (warm-up), then W..W+N-1 measured, in chunks of --batch runs (a multiple of the
// islands), alternating which tree goes first; a chunk goes through Runner.runBatch (a tree with
// guided lockstep batches runs them; one before runs them one by one) or runIndex where a tree has
// no runBatch. An island's runs go in order in each tree, so both trees make the same runs: the
// script checks their identities and new features match. Prints CPU ms per run for each tree,
// new/old speed (old CPU / new CPU) by the sums and by the median of the chunk pairs' ratios.
// --shard 1/2: only the runs of the islands k with k mod 2 = 0, as a shard or one of two threads
// runs them (with 4 islands, batches of 2); W and N then count those runs.
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    new: { type: "string" },
    forms: { type: "string", default: "explore,r01,r10,r20" },
    islands: { type: "string", default: "4" },
    runs: { type: "string", default: "480" },
    warm: { type: "string", default: "240" },
    batch: { type: "string", default: "24" },
    dist: { type: "boolean", default: false },
    shard: { type: "string" },
  },
});
if (values.base === undefined) {
  process.stderr.write("usage: node --import tsx scripts/guided-lockstep.ts --base DIR [--dist] [--forms explore,r01,...] [--islands 4] [--runs 480] [--warm 240] [--batch 24]\n");
  process.exit(2);
}
const trees = [resolve(values.base), resolve(values.new ?? join(import.meta.dirname, ".."))];
const islands = Number(values.islands);
const batch = Number(values.batch);
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const mod = (tree: string, path: string) => import(values.dist ? join(tree, "dist", `${path}.js`) : join(tree, "src", `${path}.ts`));

interface Summary {
  index: number;
  identity: string;
  newFeatures?: string[];
}

/** A tree's guided runner over a form's plan. */
async function runnerOf(tree: string, form: string): Promise<any> {
  const { makePlan } = await mod(tree, "explore/plan");
  const { RunContext } = await mod(tree, "explore/context");
  const { makeRunner } = await mod(tree, "explore/runner");
  const req = { strategy: "guided", islands };
  if (form === "explore") {
    const { EXPLORE_BENCH_SCENARIO } = await import(join(tree, "src/bench/explore.ts"));
    const { parseYaml } = await mod(tree, "scenario/yaml");
    const y = parseYaml(EXPLORE_BENCH_SCENARIO, "bench-explore.yaml");
    return makeRunner(new RunContext(makePlan({ ...req, source: { raw: y.value, label: "bench-explore.yaml" } })), true);
  }
  return makeRunner(new RunContext(makePlan({ ...req, source: { file: join(tree, "scenarios/races/hunt", `${form}-hunt.yaml`) } })), true);
}

/** The run indices this script runs: every run, or a shard's islands' (guided.ts guidedShardIndices). */
const [shardIndex, shardCount] = (values.shard ?? "1/1").split("/").map(Number) as [number, number];
const owned = (n: number): number[] => {
  const out: number[] = [];
  for (let i = 0; out.length < n; i++) if ((i % islands) % shardCount === shardIndex - 1) out.push(i);
  return out;
};
let order: number[] = [];

/** Runs order[from..to-1] through a runner, as exploreSync hands them out. */
function runRange(runner: any, from: number, to: number): Summary[] {
  const indices = order.slice(from, to);
  return runner.runBatch === undefined ? indices.map((i) => runner.runIndex(i, false)) : runner.runBatch(indices, new Set());
}

async function abForm(form: string, runs: number, warm: number): Promise<void> {
  const runners = await Promise.all(trees.map((t) => runnerOf(t, form)));
  order = owned(warm + runs);
  const seen: string[][] = [[], []];
  const note = (k: number, out: Summary[]) => {
    for (const r of out) seen[k]!.push(`${r.index}:${r.identity}:${(r.newFeatures ?? []).length}`);
  };
  for (let at = 0; at < warm; at += batch) for (const k of [0, 1]) note(k, runRange(runners[k], at, Math.min(warm, at + batch)));
  const spent = [0, 0];
  const ratios: number[] = [];
  for (let at = warm; at < warm + runs; at += batch) {
    const pair = [0, 0];
    for (const k of ((at - warm) / batch) % 2 === 0 ? [0, 1] : [1, 0]) {
      const t0 = cpuMs();
      const out = runRange(runners[k], at, Math.min(warm + runs, at + batch));
      pair[k] = cpuMs() - t0;
      spent[k] += pair[k]!;
      note(k, out);
    }
    ratios.push(pair[0]! / pair[1]!);
  }
  ratios.sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)]!;
  const same = seen[0]!.join() === seen[1]!.join() ? "same runs" : "RUNS DIFFER";
  const batches = runners.map((r) => r.batchRuns ?? 1).join("/");
  console.log(
    `guided ${form} (${islands} islands${values.shard === undefined ? "" : `, shard ${values.shard}`}, batches ${batches}) ${runs} runs after ${warm}: old ${(spent[0]! / runs).toFixed(3)} ms/run, new ${(spent[1]! / runs).toFixed(3)} ms/run; ` +
      `new/old speed ${(spent[0]! / spent[1]!).toFixed(3)}x, median of ${ratios.length} chunk pairs ${median.toFixed(3)}x (${same})`,
  );
}

console.log(`old: ${trees[0]}\nnew: ${trees[1]}\n(${values.dist ? "dist/, compiled" : "src/ through tsx"}; load ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" ")})`);
for (const form of values.forms!.split(",")) await abForm(form, Number(values.runs), Number(values.warm));
