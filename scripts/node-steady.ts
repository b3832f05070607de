// The node bench's scenario (src/bench/node.ts, 110 pods with two probed containers each) split in
// its start-up and its steady minutes: what each costs in CPU, for one tree alone in this process.
// host-time-ok: a measuring tool, like src/bench/ and scripts/ab-cpu.ts.
//
//   node --import tsx scripts/node-steady.ts TREE [--from 2] [--until 60] [--warm 3] [--profile FILE] [--interval 50] [--alloc 20]
//
// TREE's compiled dist/ (`npm run build` there) runs --warm virtual minutes of the scenario first
// (JIT warm-up, as the bench's second repetition has it), then a fresh run: the CPU time to build it
// and run it to --from minutes (the pods' creation: every pod runs and is Ready by 2 minutes), then
// that of the minutes --from..--until, each with its speed in real time, and the trace hash. Run it
// for each tree in turn, several times (the trees share no heap, and neither is loaded second).
// --profile FILE: V8's sampling profiler (node:inspector, every --interval µs) over the steady
// minutes alone, written as a .cpuprofile (the CPU figures then include the profiler's cost).
// --alloc N: V8's sampling heap profiler over the steady minutes (every object, those a young
// collection frees included: what the collector's work is made of), the bytes sampled and the N
// functions that allocated most.
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: "string", default: "2" },
    until: { type: "string", default: "60" },
    warm: { type: "string", default: "3" },
    profile: { type: "string" },
    interval: { type: "string", default: "50" },
    alloc: { type: "string" },
  },
});
if (positionals.length !== 1) {
  process.stderr.write("usage: node --import tsx scripts/node-steady.ts TREE [--from 2] [--until 60] [--warm 3] [--profile FILE] [--interval 50] [--alloc 20]\n");
  process.exit(2);
}
const tree = resolve(positionals[0]!);
const from = Number(values.from);
const until = Number(values.until);
const warm = Number(values.warm);
const { nodeScenarioYaml } = await import(join(tree, "src/bench/node.ts"));
const { loadScenarioText } = await import(join(tree, "dist/scenario/index.js"));
const { startSimulation } = await import(join(tree, "dist/simulate.js"));
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const sink = { wantsLines: false, write() {} };
/** Runs to each 5-second mark in turn, as ab-cpu's lockstep and the bench's sink see it. */
const runTo = (h: { sim: { runUntil(ms: number): unknown } }, fromMs: number, untilMs: number) => {
  for (let t = fromMs + 5000; t <= untilMs; t += 5000) h.sim.runUntil(t);
};

if (warm > 0) {
  const { scenario } = loadScenarioText(nodeScenarioYaml(110, `${warm}m`), "node-110-pods.yaml");
  const w = startSimulation(scenario, { sinks: [sink], keepRecords: false });
  runTo(w, 0, warm * 60_000);
  w.finish();
}
const c0 = cpuMs();
const { scenario } = loadScenarioText(nodeScenarioYaml(110, `${until}m`), "node-110-pods.yaml");
const h = startSimulation(scenario, { sinks: [sink], keepRecords: false });
runTo(h, 0, from * 60_000);
const session = values.profile === undefined ? null : new Session();
if (session !== null) {
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: Number(values.interval) });
  session.post("Profiler.start");
}
const heap = values.alloc === undefined ? null : new Session();
if (heap !== null) {
  heap.connect();
  heap.post("HeapProfiler.enable");
  heap.post("HeapProfiler.startSampling", { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
}
const c1 = cpuMs();
runTo(h, from * 60_000, until * 60_000);
const c2 = cpuMs();
if (heap !== null) {
  heap.post("HeapProfiler.stopSampling", (err, r) => {
    if (err) throw err;
    printAllocations((r as unknown as { profile: { head: SampleNode } }).profile.head, Number(values.alloc));
  });
  heap.disconnect();
}
if (session !== null) {
  session.post("Profiler.stop", (err, r) => {
    if (err) throw err;
    writeFileSync(values.profile!, JSON.stringify((r as unknown as { profile: unknown }).profile));
  });
  session.disconnect();
}
const run = h.finish().run;
const x = (virtualMin: number, ms: number) => `${((virtualMin * 60_000) / ms).toFixed(0)}x`;
console.log(
  `${tree}: start-up to ${from}m ${(c1 - c0).toFixed(0)} ms CPU (${x(from, c1 - c0)}), minutes ${from}-${until} ${(c2 - c1).toFixed(0)} ms CPU (${x(until - from, c2 - c1)}), ` +
    `whole ${(c2 - c0).toFixed(0)} ms CPU (${x(until, c2 - c0)}); ${run.traceHash}, ${run.events} events`,
);

interface SampleNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: SampleNode[] }

/** The sampled bytes in all, and by allocating function (a native allocator named with its caller). */
function printAllocations(head: SampleNode, top: number): void {
  const bytes = new Map<string, number>();
  let total = 0;
  const where = (f: SampleNode["callFrame"]) => `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/dist\//, "")}:${f.lineNumber + 1}`;
  const walk = (n: SampleNode, caller: string | null): void => {
    const name = n.callFrame.url === "" && caller !== null ? `${n.callFrame.functionName} < ${caller}` : where(n.callFrame);
    if (n.selfSize > 0) {
      bytes.set(name, (bytes.get(name) ?? 0) + n.selfSize);
      total += n.selfSize;
    }
    for (const c of n.children) walk(c, where(n.callFrame));
  };
  walk(head, null);
  console.log(`allocated over minutes ${from}-${until}: ${(total / 1048576).toFixed(1)} MB sampled`);
  for (const [k, v] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${(v / 1048576).toFixed(2).padStart(7)} MB  ${k}`);
  }
}
