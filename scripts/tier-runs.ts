// V8's tiering across runs: how many functions V8 optimizes and deoptimizes in each run of an
// exploration, by run index, from V8's own trace (`--trace-opt --trace-deopt`). A developer tool in
// two steps, over the compiled dist/ (as scripts/ab-cpu.ts runs it):
//
//   npm run build
//   node --trace-opt --trace-deopt --import tsx scripts/tier-runs.ts run [--hunt r10] [--runs 1200] > /tmp/tier.log
//   node --import tsx scripts/tier-runs.ts report /tmp/tier.log [--bucket 100] [--late 200]
//
// `run` runs the explore bench's scenario (or a race's hunt form) through RunContext.runIndex, run
// i with index 100,000 + i (ab-cpu's warm-up indexes), printing `@@RUN i` on stdout before each run,
// where V8 writes its trace lines too; on stderr, the CPU ms a run in blocks of 50. `report` splits
// the trace by those marks: TurboFan optimizations completed and deopts a bucket of runs, the
// deopts from run --late on by function, reason and bytecode offset, the functions first optimized
// at run 100 or later (by run index of their first optimization), and the functions optimized
// three or more times (keyed by SharedFunctionInfo address; a GC that moves an SFI splits a key).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { join } from "node:path";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    hunt: { type: "string", default: "" },
    runs: { type: "string", default: "1200" },
    bucket: { type: "string", default: "100" },
    late: { type: "string", default: "200" },
    tree: { type: "string", default: join(import.meta.dirname, "..") },
  },
});

async function run(): Promise<void> {
  const tree = values.tree;
  const mod = (p: string) => import(join(tree, "dist", `${p}.js`));
  const { makePlan } = await mod("explore/plan");
  const { RunContext } = await mod("explore/context");
  let source;
  if (values.hunt === "") {
    const { EXPLORE_BENCH_SCENARIO } = await import(join(tree, "src/bench/explore.ts"));
    const { parseYaml } = await mod("scenario/yaml");
    source = { raw: parseYaml(EXPLORE_BENCH_SCENARIO, "bench-explore.yaml").value, label: "bench-explore.yaml" };
  } else {
    source = { file: join(tree, "scenarios/races/hunt", `${values.hunt}-hunt.yaml`) };
  }
  const ctx = new RunContext(makePlan({ source, strategy: "pct" }));
  const cpu = (): number => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  const n = Number(values.runs);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    process.stdout.write(`@@RUN ${i}\n`);
    const t0 = cpu();
    ctx.runIndex(100_000 + i);
    times.push(cpu() - t0);
  }
  const blocks: string[] = [];
  for (let i = 0; i < n; i += 50) {
    const s = times.slice(i, i + 50);
    blocks.push((s.reduce((a, x) => a + x, 0) / s.length).toFixed(2));
  }
  process.stderr.write(`CPU ms a run, blocks of 50 runs: ${blocks.join(" ")}\n`);
}

function report(file: string): void {
  const bucket = Number(values.bucket);
  const late = Number(values.late);
  let runIndex = -1;
  const opts = new Map<number, number>();
  const deopts = new Map<number, number>();
  const lateDeopts = new Map<string, number>();
  const first = new Map<string, number>();
  const times = new Map<string, number>();
  const bump = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("@@RUN ")) runIndex = Number(line.slice(6));
    else if (line.startsWith("[completed optimizing") && !line.includes("OSR")) {
      const m = /<JSFunction ?(\S*) \(sfi = (\w+)/.exec(line);
      if (m === null) continue;
      const key = `${m[1] || "<anon>"} ${m[2]}`;
      bump(opts, runIndex);
      bump(times, key);
      if (!first.has(key)) first.set(key, runIndex);
    } else if (line.startsWith("[bailout")) {
      const m = /kind: ([\w-]+), reason: ([^)]*)\).*<JSFunction ?(\S*) .*bytecode offset (\d+)/.exec(line);
      if (m === null) continue;
      bump(deopts, runIndex);
      if (runIndex >= late) bump(lateDeopts, `${m[3] || "<anon>"} (${m[1]}: ${m[2]}, bytecode offset ${m[4]})`);
    }
  }
  const sum = (m: Map<number, number>, lo: number) => {
    let s = 0;
    for (let r = lo; r < lo + bucket; r++) s += m.get(r) ?? 0;
    return s;
  };
  console.log(`before run 0 (loading, planning): ${opts.get(-1) ?? 0} optimizations, ${deopts.get(-1) ?? 0} deopts`);
  console.log("runs        TurboFan optimizations  deopts");
  for (let lo = 0; lo <= runIndex; lo += bucket) console.log(`${String(lo).padStart(5)}-${String(lo + bucket - 1).padEnd(5)} ${String(sum(opts, lo)).padStart(12)} ${String(sum(deopts, lo)).padStart(12)}`);
  console.log(`deopts from run ${late} on, by function:`);
  for (const [k, v] of [...lateDeopts].sort((a, b) => b[1] - a[1])) console.log(`  ${v} ${k}`);
  const late100 = [...first].filter(([, r]) => r >= 100).sort((a, b) => a[1] - b[1]);
  console.log(`functions optimized: ${first.size}; first optimized at run >= 100: ${late100.length}; at run >= 200: ${late100.filter(([, r]) => r >= 200).length}`);
  console.log(`  ${late100.map(([k, r]) => `${k.split(" ")[0]}@${r}`).join(" ")}`);
  console.log(`optimized 3+ times: ${[...times].filter(([, v]) => v >= 3).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k.split(" ")[0]} x${v}`).join(", ")}`);
}

if (positionals[0] === "run") await run();
else if (positionals[0] === "report" && positionals[1] !== undefined) report(positionals[1]);
else {
  process.stderr.write("usage: node --trace-opt --trace-deopt --import tsx scripts/tier-runs.ts run [--hunt FORM] [--runs N] > LOG\n       node --import tsx scripts/tier-runs.ts report LOG [--bucket 100] [--late 200]\n");
  process.exit(2);
}
