// The node bench's start-up alone (src/bench/node.ts's 110 pods: loadScenarioText, then the run to
// 2 virtual minutes), repeated in one process: the CPU time of each repetition in turn (how the
// first runs' JIT and heap growth fade), then the median of those after the first three, split
// into load and run. host-time-ok: a measuring tool, like scripts/node-steady.ts.
//
//   node --import tsx scripts/node-startup.ts TREE [--reps 12] [--threads]
//
// TREE's compiled dist/ runs (`npm run build` there). Run it for each tree in turn, several times.
// --threads (Linux): each repetition's CPU split into this process's main thread and its other
// threads (V8's concurrent compilers and GC helpers), read from /proc/self/task/*/stat: the CPU
// time the other figures give counts both.
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { readdirSync, readFileSync } from "node:fs";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { reps: { type: "string", default: "12" }, threads: { type: "boolean", default: false } } });
if (positionals.length !== 1) {
  process.stderr.write("usage: node --import tsx scripts/node-startup.ts TREE [--reps 12] [--threads]\n");
  process.exit(2);
}
const tree = resolve(positionals[0]!);
const reps = Number(values.reps);
const { nodeScenarioYaml } = await import(join(tree, "src/bench/node.ts"));
const { loadScenarioText } = await import(join(tree, "dist/scenario/index.js"));
const { startSimulation } = await import(join(tree, "dist/simulate.js"));
const sink = { wantsLines: false, write() {} };
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
/** CPU ms of the main thread and of the others, from /proc (clock ticks of 10 ms: USER_HZ 100). */
const threadsMs = (): { main: number; other: number } => {
  let main = 0;
  let other = 0;
  for (const tid of readdirSync("/proc/self/task")) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    } catch {
      continue; // a thread that ended meanwhile
    }
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ms = (Number(f[11]) + Number(f[12])) * 10;
    if (tid === String(process.pid)) main += ms;
    else other += ms;
  }
  return { main, other };
};
const loads: number[] = [];
const runs: number[] = [];
const split: string[] = [];
for (let r = 0; r < reps + 3; r++) {
  const t0 = values.threads ? threadsMs() : null;
  const c0 = cpuMs();
  const { scenario } = loadScenarioText(nodeScenarioYaml(110, "60m"), "node-110-pods.yaml");
  const c1 = cpuMs();
  const h = startSimulation(scenario, { sinks: [sink], keepRecords: false });
  for (let t = 5000; t <= 120_000; t += 5000) h.sim.runUntil(t);
  const c2 = cpuMs();
  loads.push(c1 - c0);
  runs.push(c2 - c1);
  if (t0 !== null) {
    const t1 = threadsMs();
    split.push(`${t1.main - t0.main}+${t1.other - t0.other}`);
  }
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
const total = loads.map((l, i) => l + runs[i]!);
console.log(`${tree}: start-up per repetition ${total.map((t) => t.toFixed(0)).join(" ")} ms CPU`);
console.log(
  `  after the first 3: median ${median(total.slice(3)).toFixed(0)} ms (load ${median(loads.slice(3)).toFixed(0)}, run ${median(runs.slice(3)).toFixed(0)}), min ${Math.min(...total.slice(3)).toFixed(0)}`,
);
if (values.threads) console.log(`  main thread + other threads, ms CPU per repetition: ${split.join(" ")}`);
