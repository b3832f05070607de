// The cluster bench's scenario (src/bench/workloads.ts clusterScenarioYaml, 110 pods a node) past
// its start-up: what its steady minutes cost, and what they leave to the garbage collector.
// host-time-ok: a measuring tool, like src/bench/ and scripts/ab-cpu.ts.
//
//   node --import tsx scripts/cluster-steady.ts cpu TREE [--nodes 30] [--from 4] [--until 6]
//       one tree's compiled dist/ (`npm run build` there) in this process alone: the CPU time of
//       building and running to --from minutes, then of the minutes --from..--until, and the trace
//       hash. Run it for each tree in turn, several times: unlike ab-cpu.ts, the trees share no
//       heap, so neither's collections are charged to the other (and neither is loaded second).
//   node --expose-gc --import tsx scripts/cluster-steady.ts beside TREE [--nodes 10] [--idle 60] [--idle-tree OTHER] [--from 4] [--until 12]
//       as cpu, with another cluster of --idle nodes started to --from minutes first and then left
//       idle in the same heap: built from TREE's modules (they share every module-level object,
//       hidden class and compiled function with the measured cluster) or from OTHER's, a copy of
//       TREE (cp -r TREE/{dist,src,package.json} OTHER; ln -s TREE/node_modules OTHER: its own
//       module instances). Whether what a pod costs grows with the heap or with what is shared.
//   node --import tsx scripts/cluster-steady.ts memo [--nodes 10] [--until 10]
//       this tree's sources: the trace digest's string memo (calls, misses, restarts, distinct strings).
//   node --import tsx scripts/cluster-steady.ts promoted [--nodes 10] [--from 4] [--until 7] [--minor]
//       this tree's sources: V8's allocation sampling over the steady minutes, by allocating function,
//       of the objects that outlived a young-generation collection (with --minor: of all objects).
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { Session } from "node:inspector";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { nodes: { type: "string" }, idle: { type: "string", default: "60" }, "idle-tree": { type: "string" }, from: { type: "string", default: "4" }, until: { type: "string" }, minor: { type: "boolean", default: false } },
});
const mode = positionals[0];
const here = join(import.meta.dirname, "..");
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
/** The main thread's CPU ms (Linux: /proc/self/task/<pid>/stat, in clock ticks of 10 ms); the rest of cpuMs is V8's helper threads (concurrent marking, sweeping) and libuv's. */
const mainThreadMs = (): number => {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // from field 3 (state) on: utime is field 14, stime 15
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
};

async function start(tree: string, dist: boolean, nodes: number, untilMin: number) {
  const { clusterScenarioYaml } = await import(join(tree, "src/bench/workloads.ts"));
  const { loadScenarioText } = await import(join(tree, dist ? "dist/scenario/index.js" : "src/scenario/index.ts"));
  const { startSimulation } = await import(join(tree, dist ? "dist/simulate.js" : "src/simulate.ts"));
  const { scenario } = loadScenarioText(clusterScenarioYaml({ nodes, podsPerNode: 110 }, `${untilMin}m`), "cluster-bench.yaml");
  return startSimulation(scenario, { sinks: [{ wantsLines: false, write() {} }], keepRecords: false });
}

if (mode === "cpu" || mode === "beside") {
  const tree = positionals[1] ?? here;
  const nodes = Number(values.nodes ?? (mode === "cpu" ? 30 : 10));
  const from = Number(values.from);
  const until = Number(values.until ?? (mode === "cpu" ? 6 : 12));
  let idle: unknown = null;
  if (mode === "beside" && Number(values.idle) > 0) {
    idle = await start(values["idle-tree"] ?? tree, true, Number(values.idle), 60);
    (idle as { sim: { runUntil(ms: number): void } }).sim.runUntil(from * 60_000);
    (globalThis as { gc?: () => void }).gc?.();
    console.log(`beside ${values.idle} idle nodes of ${values["idle-tree"] ?? tree}'s modules, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
  }
  const c0 = cpuMs();
  const m0 = mainThreadMs();
  const h = await start(tree, true, nodes, until);
  h.sim.runUntil(from * 60_000);
  const c1 = cpuMs();
  const m1 = mainThreadMs();
  const e1 = (h.sim as unknown as { events: number }).events; // the kernel's count so far (private)
  const run = h.finish().run;
  const c2 = cpuMs();
  const m2 = mainThreadMs();
  const perPodSecond = (ms: number, minutes: number) => ((1000 * ms) / (nodes * 110 * minutes * 60)).toFixed(2);
  console.log(`${tree}: ${nodes}x110 start-up to ${from}m ${(c1 - c0).toFixed(0)} ms CPU (main thread ${(m1 - m0).toFixed(0)}), minutes ${from}-${until} ${(c2 - c1).toFixed(0)} ms CPU (main thread ${(m2 - m1).toFixed(0)}): ${perPodSecond(c2 - c1, until - from)} µs CPU a pod-second (main thread ${perPodSecond(m2 - m1, until - from)}), ${run.events - e1} events, (${run.traceHash}, ${run.events} events)`);
  void idle; // kept alive to here
} else if (mode === "memo") {
  const { TraceDigest } = await import("../src/sim/digest.ts");
  const proto = TraceDigest.prototype as unknown as { memoAt(this: { memo: Map<string, number> }, s: string): number };
  const memoAt = proto.memoAt;
  let calls = 0;
  let misses = 0;
  let restarts = 0;
  const distinct = new Set<string>();
  proto.memoAt = function (s: string): number {
    calls++;
    distinct.add(s);
    if (!this.memo.has(s)) {
      misses++;
      if (this.memo.size === 1 << 14) restarts++;
    }
    return memoAt.call(this, s);
  };
  const nodes = Number(values.nodes ?? 10);
  const until = Number(values.until ?? 10);
  const run = (await start(here, false, nodes, until)).finish().run;
  console.log(`${nodes}x110 ${until}m (${run.events} events): memoAt ${calls} calls, ${misses} misses, ${restarts} restarts, ${distinct.size} distinct strings`);
} else if (mode === "promoted") {
  const nodes = Number(values.nodes ?? 10);
  const from = Number(values.from);
  const until = Number(values.until ?? 7);
  const h = await start(here, false, nodes, until);
  h.sim.runUntil(from * 60_000);
  const s = new Session();
  s.connect();
  const post = (m: string, p?: object) => new Promise<any>((res, rej) => s.post(m, p, (e, r) => (e ? rej(e) : res(r))));
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: values.minor });
  h.finish();
  const { profile } = await post("HeapProfiler.stopSampling");
  const self = new Map<string, number>();
  let total = 0;
  const walk = (n: { callFrame: { functionName: string; url: string }; selfSize: number; children: unknown[] }) => {
    const k = `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*\/src\//, "src/")}`;
    total += n.selfSize;
    self.set(k, (self.get(k) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c as typeof n);
  };
  walk(profile.head);
  console.log(`${nodes}x110 minutes ${from}-${until}: ${(total / 1e6).toFixed(0)} MB sampled (${values.minor ? "all objects" : "objects that outlived a young collection"})`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${((100 * v) / total).toFixed(1).padStart(5)}% ${(v / 1e6).toFixed(1).padStart(6)} MB  ${k}`);
} else {
  console.error("usage: scripts/cluster-steady.ts cpu TREE | beside TREE [--idle N] [--idle-tree OTHER] | memo | promoted  [--nodes N] [--from MIN] [--until MIN] [--minor]");
  process.exit(2);
}
