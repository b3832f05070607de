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
//       --nodes 0: the node line's scenario instead (src/bench/workloads.ts nodeScenarioYaml: 110
//       pods on one node, no `nodes:`), to compare a pod there with a pod in a cluster.
//   node --expose-gc --import tsx scripts/cluster-steady.ts interleave TREE [--nodes 10] [--busy 60] [--busy-tree OTHER] [--slice 1] [--from 4] [--until 6]
//       the measured cluster of --nodes and a busy one of --busy nodes (TREE's modules, or OTHER's:
//       a copy as for beside) both started to --from minutes, then run in lockstep slices of --slice
//       virtual seconds, each slice's CPU on its cluster's account: the measured cluster's µs a
//       pod-second while another cluster's steady work runs between its slices (--busy 0: alone,
//       sliced the same way). The busy cluster's slices touch its whole working set between two of
//       the measured cluster's, as 100 nodes' interleaved events do; with OTHER they share no
//       module-level object, hidden class or compiled function with it. --still: the other cluster is
//       started and then left idle (its heap there, its working set untouched but by the collector).
//       --thrash MB (with --busy 0): a walk over MB of a typed array between two slices instead.
//   node --expose-gc --import tsx scripts/cluster-steady.ts heap TREE [--nodes 10] [--from 4] [--snapshot FILE]
//       what is live after a full collection at --from minutes (--nodes 0: the node line), in bytes a
//       pod; with --snapshot, a heap snapshot written there and summarised (self size by kind of object).
//   node --import tsx scripts/cluster-steady.ts gcsum FILE
//       FILE: the output of `node --trace-gc-nvp --import tsx scripts/cluster-steady.ts cpu ...`: the
//       steady window's collections by kind, their pauses, and the bytes promoted.
//   node --import tsx scripts/cluster-steady.ts memo [--nodes 10] [--until 10]
//       this tree's sources: the trace digest's string memo (calls, misses, restarts, distinct strings;
//       calls are those its key nodes' last values did not answer, since the digest's key trie).
//   node --import tsx scripts/cluster-steady.ts profile TREE [--nodes 1] [--from 4] [--until 8] [--top 40] [--save FILE]
//       TREE's dist/ under V8's sampling profiler over the steady minutes: self time by file and by
//       function in µs a pod-second (the load is in it: run the sizes in turn) and as shares;
//       --save writes the profile as a .cpuprofile (its call tree: inclusive times, callers).
//   node --import tsx scripts/cluster-steady.ts census TREE [--nodes 1] [--from 4] [--until 8] [--top 40]
//       TREE's dist/ over the steady minutes, instrumented: kernel steps, operations (calls by verb and
//       resource), records and CPU time in steps (process.cpuUsage around each), by goroutine (node and pod stripped), per
//       pod-minute; --nodes 0 against 1 shows what a node does only in a cluster.
//   node --import tsx scripts/cluster-steady.ts promoted [--nodes 10] [--from 4] [--until 7] [--minor] [--save FILE]
//       this tree's sources: V8's allocation sampling over the steady minutes, by allocating function,
//       of the objects that outlived a young-generation collection (with --minor: of all objects).
//   node --import tsx scripts/cluster-steady.ts calls TREE [--nodes 1] [--from 4] [--rounds 6]
//       TREE's dist/ run to --from minutes, then the syncLoop's housekeeping and sync-tick pieces
//       (filterOutInactivePods, getPodsToSync, RemoveOrphanedStatuses, CleanupPods, SyncKnownPods,
//       GetPods) called 10,000 times each on the first node's kubelet as it stands: their cost a
//       call, warm, outside the run (--nodes 0, the node line, against 1: the same code on its data).
//   node --import tsx scripts/cluster-steady.ts merge TREE [--nodes 10] [--until 1] [--rounds 6]
//       TREE's dist/: the SETs every node's PodConfig.Merge received until --until minutes, merged
//       again from empty storage (the incoming record's two arrays, then merge()), in rounds that
//       alternate between the SETs as the stores sent them and the same SETs without their
//       SetListing (as before clusync), and, between those, with the listing's keys alone (no
//       delta: every SET merged in full, as before clumerge): the config merge's own CPU.
import { join } from "node:path";
import { readFileSync, writeFileSync, writeSync } from "node:fs";
import { Session } from "node:inspector";
import { parseArgs } from "node:util";
import { PerformanceObserver, performance } from "node:perf_hooks";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { nodes: { type: "string" }, busy: { type: "string", default: "60" }, "busy-tree": { type: "string" }, slice: { type: "string", default: "1" }, thrash: { type: "string" }, still: { type: "boolean", default: false }, snapshot: { type: "string" }, "min-share": { type: "string" }, idle: { type: "string", default: "60" }, "idle-tree": { type: "string" }, from: { type: "string", default: "4" }, until: { type: "string" }, minor: { type: "boolean", default: false }, top: { type: "string" }, rounds: { type: "string", default: "6" }, save: { type: "string" } },
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
  const yaml = nodes === 0 ? (await import(join(tree, "src/bench/workloads.ts"))).nodeScenarioYaml(110, `${untilMin}m`) : clusterScenarioYaml({ nodes, podsPerNode: 110 }, `${untilMin}m`);
  const { scenario } = loadScenarioText(yaml, "cluster-bench.yaml");
  return startSimulation(scenario, { sinks: [{ wantsLines: false, write() {} }], keepRecords: false });
}

/** A connected inspector session of this process, as a promise-returning `post`. */
function inspector(): (method: string, params?: object) => Promise<any> {
  const s = new Session();
  s.connect();
  return (m, p) => new Promise<any>((res, rej) => s.post(m, p, (e, r) => (e ? rej(e) : res(r))));
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
  writeSync(1, `--- steady minutes from ${from}\n`); // marks where the steady window's lines of --trace-gc-nvp begin (stdout, written at once)
  const e1 = (h.sim as unknown as { events: number }).events; // the kernel's count so far (private)
  const run = h.finish().run;
  const c2 = cpuMs();
  const m2 = mainThreadMs();
  writeSync(1, `--- steady minutes until ${until}\n`);
  const perPodSecond = (ms: number, minutes: number) => ((1000 * ms) / (Math.max(nodes, 1) * 110 * minutes * 60)).toFixed(2);
  console.log(`${tree}: ${nodes}x110 start-up to ${from}m ${(c1 - c0).toFixed(0)} ms CPU (main thread ${(m1 - m0).toFixed(0)}), minutes ${from}-${until} ${(c2 - c1).toFixed(0)} ms CPU (main thread ${(m2 - m1).toFixed(0)}): ${perPodSecond(c2 - c1, until - from)} µs CPU a pod-second (main thread ${perPodSecond(m2 - m1, until - from)}), ${run.events - e1} events, (${run.traceHash}, ${run.events} events), max RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  void idle; // kept alive to here
} else if (mode === "interleave") {
  const tree = positionals[1] ?? here;
  const nodes = Number(values.nodes ?? 10);
  const busyNodes = Number(values.busy);
  const from = Number(values.from);
  const until = Number(values.until ?? 6);
  const sliceMs = Number(values.slice) * 1000;
  const gc = (globalThis as { gc?: () => void }).gc;
  const busy = busyNodes > 0 ? await start(values["busy-tree"] ?? tree, true, busyNodes, until) : null;
  busy?.sim.runUntil(from * 60_000);
  const h = await start(tree, true, nodes, until);
  h.sim.runUntil(from * 60_000);
  gc?.();
  const heapMB = (process.memoryUsage().heapUsed / 1e6).toFixed(0);
  let mine = 0;
  let theirs = 0;
  // --thrash MB: between two slices, a walk over MB of a typed array, one read a cache line: it
  // evicts the CPU's caches as another cluster's work would, with no object, hidden class or garbage.
  const thrash = values.thrash === undefined ? null : new Float64Array(Number(values.thrash) * 131_072).fill(1);
  const walk = (a: Float64Array): number => {
    let x = 0;
    for (let i = 0; i < a.length; i += 8) x += a[i]!;
    return x;
  };
  let sink = 0;
  const slices: number[] = []; // the measured slices' wall-clock bounds, to charge V8's collections to them
  const gcs: { start: number; ms: number; kind: number }[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ start: e.startTime, ms: e.duration, kind: (e.detail as { kind: number }).kind });
  });
  obs.observe({ entryTypes: ["gc"] });
  for (let t = from * 60_000 + sliceMs; t <= until * 60_000; t += sliceMs) {
    const w0 = performance.now();
    const c0 = cpuMs();
    h.sim.runUntil(t);
    const c1 = cpuMs();
    slices.push(w0, performance.now());
    if (!values.still) busy?.sim.runUntil(t);
    if (thrash !== null) sink += walk(thrash);
    mine += c1 - c0;
    theirs += cpuMs() - c1;
  }
  await new Promise((r) => setTimeout(r, 10));
  obs.disconnect();
  // Pause wall time (milliseconds, the host's load in it) of the collections that began in a measured slice, by kind.
  const inMine = (at: number) => {
    for (let i = 0; i < slices.length; i += 2) if (at >= slices[i]! && at <= slices[i + 1]!) return true;
    return false;
  };
  const gcKinds: Record<number, string> = { 1: "minor", 2: "major", 4: "incremental", 8: "weakcb" };
  const gcMine: Record<string, number> = {};
  for (const g of gcs) if (inMine(g.start)) gcMine[gcKinds[g.kind] ?? g.kind] = (gcMine[gcKinds[g.kind] ?? g.kind] ?? 0) + g.ms;
  const gcText = Object.entries(gcMine).map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(", ");
  const run = h.finish().run;
  const pps = (ms: number, n: number) => ((1000 * ms) / (n * 110 * (until - from) * 60)).toFixed(2);
  const beside = busy === null ? (thrash === null ? "alone" : `alone, ${values.thrash} MB walked between slices (${sink > 0 ? "read" : ""})`) : values.still ? `beside ${busyNodes} idle nodes of ${values["busy-tree"] ?? tree}'s modules` : `beside ${busyNodes} busy nodes of ${values["busy-tree"] ?? tree}'s modules (${pps(theirs, busyNodes)} µs a pod-second)`;
  console.log(`${tree}: ${nodes}x110 minutes ${from}-${until} in ${values.slice} s slices, ${beside}, heap ${heapMB} MB at ${from}m: ${mine.toFixed(0)} ms CPU, ${pps(mine, nodes)} µs CPU a pod-second, collections in its slices (ms wall) ${gcText} (${run.traceHash}, ${run.events} events)`);
} else if (mode === "heap") {
  const tree = positionals[1] ?? here;
  const nodes = Number(values.nodes ?? 10);
  const from = Number(values.from);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("heap: run node with --expose-gc");
  const { getHeapStatistics, writeHeapSnapshot } = await import("node:v8");
  const pods = Math.max(nodes, 1) * 110;
  gc();
  const before = getHeapStatistics().used_heap_size;
  const h = await start(tree, true, nodes, from + 1);
  h.sim.runUntil(from * 60_000);
  gc();
  const after = getHeapStatistics().used_heap_size;
  console.log(`${tree}: ${nodes}x110 at ${from}m: ${((after - before) / 1e6).toFixed(1)} MB live past the modules' (${((after - before) / pods / 1024).toFixed(1)} KB a pod), heap ${(after / 1e6).toFixed(1)} MB, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
  if (values.snapshot !== undefined) {
    writeHeapSnapshot(values.snapshot);
    void h;
    summariseSnapshot(values.snapshot, pods);
    dominators(values.snapshot, pods);
  }
} else if (mode === "gcsum") {
  // The lines of `node --trace-gc-nvp ... cpu` between the steady window's markers: collections by
  // kind (gc=s scavenge, gc=mc mark-compact) with their pauses (wall ms), and the bytes promoted.
  const counts = new Map<string, { n: number; pause: number }>();
  let promoted = 0;
  let on = false;
  for (const line of readFileSync(positionals[1]!, "utf8").split("\n")) {
    if (line.startsWith("--- steady minutes from")) on = true;
    else if (line.startsWith("--- steady minutes until")) on = false;
    else if (on && line.includes(" gc=")) {
      const f = new Map(line.split(" ").filter((w) => w.includes("=")).map((w) => w.split("=") as [string, string]));
      const c = counts.get(f.get("gc")!) ?? { n: 0, pause: 0 };
      c.n++;
      c.pause += Number(f.get("pause"));
      counts.set(f.get("gc")!, c);
      promoted += Number(f.get("promoted") ?? 0);
    }
  }
  console.log(`${[...counts].map(([k, c]) => `gc=${k} count ${c.n} pause ${c.pause.toFixed(0)} ms`).join("; ")}; promoted ${(promoted / 1e6).toFixed(1)} MB`);
} else if (mode === "dominators") {
  dominators(positionals[1]!, Math.max(Number(values.nodes ?? 10), 1) * 110);
} else if (mode === "memo") {
  const { TraceDigest } = await import("../src/sim/digest.ts");
  const proto = TraceDigest.prototype as unknown as { memoAt(this: { memo: Map<string, number>; memoLimit: number }, s: string): number };
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
      if (this.memo.size === this.memoLimit) restarts++;
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
  const post = inspector();
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: values.minor });
  h.finish();
  const { profile } = await post("HeapProfiler.stopSampling");
  if (values.save !== undefined) writeFileSync(values.save, JSON.stringify(profile)); // its allocation stacks
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
} else if (mode === "profile") {
  // V8's sampling profiler over TREE's dist/ in the steady minutes: self time by function and by
  // file, as µs a pod-second of the window (sampled time, so the host's load is in it; compare the
  // sizes' rows, --nodes 0 against 1 against 10, run in turn) and as shares.
  const tree = positionals[1] ?? here;
  const nodes = Number(values.nodes ?? 1);
  const from = Number(values.from);
  const until = Number(values.until ?? 8);
  const h = await start(tree, true, nodes, until);
  h.sim.runUntil(from * 60_000);
  const post = inspector();
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 250 });
  await post("Profiler.start");
  const c0 = cpuMs();
  const run = h.finish().run;
  const cpu = cpuMs() - c0;
  const { profile } = await post("Profiler.stop");
  if (values.save !== undefined) writeFileSync(values.save, JSON.stringify(profile)); // for call trees (Chrome DevTools, or a reader of its nodes)
  const byId = new Map<number, { callFrame: { functionName: string; url: string; lineNumber: number } }>();
  for (const n of profile.nodes) byId.set(n.id, n);
  const dt: number[] = profile.timeDeltas;
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id: number, i: number) => {
    const f = byId.get(id)!.callFrame;
    const where = f.url.replace(/^.*\/dist\//, "").replace(/^file:\/\/.*\/node_modules\//, "node_modules/");
    const us = dt[i + 1] ?? 0;
    total += us;
    const k = `${f.functionName || "(anonymous)"} ${where}:${f.lineNumber + 1}`;
    fn.set(k, (fn.get(k) ?? 0) + us);
    file.set(where || f.functionName, (file.get(where || f.functionName) ?? 0) + us);
  });
  const podSeconds = Math.max(nodes, 1) * 110 * (until - from) * 60;
  const top = Number(values.top ?? 40);
  console.log(`${tree}: ${nodes}x110 minutes ${from}-${until} profiled: ${((1000 * cpu) / podSeconds).toFixed(2)} µs CPU a pod-second, ${(total / podSeconds).toFixed(2)} µs sampled (${run.traceHash}, ${run.events} events)`);
  for (const [title, m] of [["self time by file", file], ["self time by function", fn]] as const) {
    console.log(`\n${title} (µs a pod-second, share):`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${(v / podSeconds).toFixed(3).padStart(8)} ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
  }
} else if (mode === "census") {
  // What a pod's steady minutes do, by goroutine, per pod-minute: kernel steps, operations yielded
  // (calls by verb and resource), records built, and the wall time inside each goroutine's steps
  // (instrumented: shares, not speeds). --nodes 0 is the node line's scenario: a cluster's line
  // over it is work the node does only in a cluster. Patches TREE's compiled kernel in this process.
  const tree = positionals[1] ?? here;
  const nodes = Number(values.nodes ?? 1);
  const from = Number(values.from);
  const until = Number(values.until ?? 8);
  const { Sim } = await import(join(tree, "dist/sim/kernel.js"));
  const { Trace } = await import(join(tree, "dist/sim/trace.js"));
  const ops = await import(join(tree, "dist/sim/ops.js"));
  const OP_NAMES = ["sleep", "recv", "send", "select", "lock", "rlock", "wait", "point", "gosched", "wlock", "call", "then", "gen"];
  /** "node-003/prober/default/web#2" → "prober": no node, no pod, no repeat. */
  const loop = (name: string): string => {
    const base = name.replace(/^node-\d+\//, "").replace(/#\d+$/, "");
    const slash = base.indexOf("/");
    if (slash < 0) return base;
    if (base.startsWith("kubelet/")) return base.split("/", 2).join("/"); // syncLoop, nodeLease, syncNodeStatus apart
    return base.slice(0, slash);
  };
  const call = (label: string): string => {
    const m = /^(\w+) \/api\/v1\/(?:namespaces\/[^/]+\/)?(\w+)(?:\/[^/ ]+)?(\/status)?/.exec(label);
    return m !== null ? `${m[1]} ${m[2]}${m[3] ?? ""}` : label.replace(/[0-9a-f]{8,}|node-\d+|bench-\d+-\w+/g, "*");
  };
  const add = (m: Map<string, number>, k: string, n = 1) => void m.set(k, (m.get(k) ?? 0) + n);
  const steps = new Map<string, number>();
  const stepNs = new Map<string, number>();
  const opsBy = new Map<string, number>();
  const records = new Map<string, number>();
  let on = false;
  let current = "(kernel)";
  const proto = Sim.prototype as Record<string, (...a: unknown[]) => unknown>;
  const origStep = proto.step!;
  proto.step = function (this: unknown) {
    if (!on) return origStep.call(this);
    const t0 = process.cpuUsage();
    const r = origStep.call(this);
    const t1 = process.cpuUsage(t0);
    add(stepNs, current, t1.user + t1.system);
    current = "(kernel)";
    return r;
  };
  const origCount = proto.countStep!;
  proto.countStep = function (this: unknown, p: { name: string }) {
    if (on) add(steps, (current = loop(p.name)));
    return origCount.call(this, p);
  };
  ops.opWatch.onOp = (op: { code: number; label: string }) => {
    if (!on || op.code === ops.OP_THEN || op.code === ops.OP_GEN) return;
    add(opsBy, `${current}: ${op.code === ops.OP_CALL ? `call ${call(op.label)}` : OP_NAMES[op.code]}`);
  };
  const tproto = Trace.prototype as Record<string, (...a: unknown[]) => unknown>;
  const origEmit = tproto.emit!;
  tproto.emit = function (this: unknown, t: number, component: string, kind: string, fields: unknown, node?: string) {
    if (on) add(records, `${current}: ${component} ${kind}`);
    return origEmit.call(this, t, component, kind, fields, node);
  };
  const h = await start(tree, true, nodes, until);
  h.sim.runUntil(from * 60_000);
  on = true;
  const c0 = cpuMs();
  const run = h.finish().run;
  const cpu = cpuMs() - c0;
  on = false;
  const podMinutes = Math.max(nodes, 1) * 110 * (until - from);
  const top = Number(values.top ?? 40);
  const table = (title: string, m: Map<string, number>, scale = 1) => {
    let total = 0;
    for (const v of m.values()) total += v;
    console.log(`\n${title}: ${((total * scale) / podMinutes).toFixed(2)} a pod-minute`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${((v * scale) / podMinutes).toFixed(3).padStart(10)} ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
  };
  console.log(`${tree}: ${nodes}x110 minutes ${from}-${until}, census (instrumented: ${((1000 * cpu) / (podMinutes * 60)).toFixed(2)} µs CPU a pod-second under it) (${run.traceHash}, ${run.events} events)`);
  table("kernel steps by goroutine", steps);
  table("CPU µs in steps by goroutine (the process's, instrumented)", stepNs);
  table("operations by goroutine and kind", opsBy);
  table("records by goroutine, component and kind", records);
} else if (mode === "calls") {
  const tree = positionals[1] ?? here;
  const nodes = Number(values.nodes ?? 1);
  const h = await start(tree, true, nodes, Number(values.from) + 1);
  h.sim.runUntil(Number(values.from) * 60_000);
  // The kubelet's members by their compiled names (private in TypeScript, plain properties in dist/).
  const k = h.cluster.first.kubelet;
  const handler = k.syncLoop.handler;
  const pods = k.core.podManager.GetPods();
  const uids = new Set<string>(pods.map((p: { metadata: { uid: string } }) => p.metadata.uid));
  let kept = 0;
  const pieces: [string, () => void][] = [
    ["filterOutInactivePods", () => void (kept += handler.filterOutInactivePods(pods).length)],
    ["getPodsToSync", () => void (kept += handler.getPodsToSync().length)],
    ["RemoveOrphanedStatuses", () => k.core.deps.statusManager.RemoveOrphanedStatuses(uids)],
    ["CleanupPods", () => k.core.deps.probeManager.CleanupPods(uids)],
    ["SyncKnownPods", () => void (kept += k.podWorkers.SyncKnownPods(pods).size)],
    ["GetPods", () => void (kept += k.core.podManager.GetPods().length)],
  ];
  for (let r = 1; r <= Number(values.rounds); r++) {
    const row = pieces.map(([name, f]) => {
      const c0 = cpuMs();
      for (let i = 0; i < 10_000; i++) f();
      return `${name} ${((cpuMs() - c0) / 10).toFixed(1)}`;
    });
    console.log(`${nodes} node(s), ${pods.length} pods, round ${r}, µs CPU a call: ${row.join(", ")}`);
  }
  void kept;
} else if (mode === "merge") {
  const tree = positionals[1] ?? here;
  const nodes = Number(values.nodes ?? 10);
  const until = Number(values.until ?? 1);
  const { PodConfig } = await import(join(tree, "dist/kubelet/config/config.js"));
  const { merge, emptyPodStorage } = await import(join(tree, "dist/kubelet/config/merge.js"));
  const { podKey } = await import(join(tree, "dist/k8s/podutil.js"));
  type Change = { Pods: { metadata: { uid?: string } }[]; Op: string; Source: string; listing?: { keys: string[] } };
  const bySource = new Map<unknown, { source: string; change: Change }[]>();
  const merge0 = PodConfig.prototype.Merge;
  PodConfig.prototype.Merge = function (this: unknown, source: string, change: Change) {
    let seq = bySource.get(this);
    if (seq === undefined) bySource.set(this, (seq = []));
    seq.push({ source, change });
    return merge0.call(this, source, change);
  };
  (await start(tree, true, nodes, until)).finish();
  const asSent = [...bySource.values()];
  const without = asSent.map((seq) => seq.map(({ source, change }) => ({ source, change: { Pods: change.Pods, Op: change.Op, Source: change.Source } as Change })));
  // The listing without what clumerge added (the store's push number and the one changed key): every SET merged in full, as at clusync.
  const keysOnly = asSent.map((seq) => seq.map(({ source, change }) => ({ source, change: (change.listing === undefined ? change : { ...change, listing: { keys: change.listing.keys, fullNamesDistinct: (change.listing as { fullNamesDistinct?: boolean }).fullNamesDistinct } }) as Change })));
  const ctx = { nowMs: 0, mapOrder: (keys: readonly string[]) => keys.slice() };
  let kept = 0;
  const pass = (seqs: typeof asSent): number => {
    const c0 = cpuMs();
    for (const seq of seqs) {
      let state = emptyPodStorage();
      for (const { source, change } of seq) {
        const pods = change.listing?.keys ?? change.Pods.map((p) => podKey(p)); // PodConfig.traceIncoming's arrays
        const uids = change.Pods.map((p) => p.metadata.uid ?? "");
        kept += pods.length + uids.length;
        state = merge(state, source, change, ctx).state;
      }
    }
    return cpuMs() - c0;
  };
  const entries = asSent.reduce((n, seq) => n + seq.reduce((m, { change }) => m + change.Pods.length, 0), 0);
  console.log(`${tree}: ${nodes}x110 to ${until}m: ${asSent.reduce((n, seq) => n + seq.length, 0)} merges, ${entries} pods in them`);
  for (let r = 1; r <= Number(values.rounds); r++) {
    const a = pass(without);
    const k = pass(keysOnly);
    const b = pass(asSent);
    console.log(`round ${r}: without the listing ${a.toFixed(0)} ms CPU, with its keys alone (every SET in full) ${k.toFixed(0)} ms, as sent ${b.toFixed(0)} ms: ${(a / b).toFixed(2)}x, ${(k / b).toFixed(2)}x`);
  }
  void kept;
} else {
  console.error("usage: scripts/cluster-steady.ts cpu TREE | beside TREE [--idle N] [--idle-tree OTHER] | interleave TREE [--busy N] [--busy-tree OTHER] [--slice S] | heap TREE [--snapshot FILE] | memo | promoted | merge TREE | calls TREE  [--nodes N] [--from MIN] [--until MIN] [--minor]");
  process.exit(2);
}

/** Self size of a heap snapshot's objects by kind (V8's node type and name: a class, "Object", "(string)", "Map"...), largest first, in bytes a pod. */
function summariseSnapshot(file: string, pods: number): void {
  const snap = JSON.parse(readFileSync(file, "utf8")) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
  const f = snap.snapshot.meta.node_fields;
  const width = f.length;
  const [iType, iName, iSize] = [f.indexOf("type"), f.indexOf("name"), f.indexOf("self_size")];
  const types = snap.snapshot.meta.node_types[0];
  const by = new Map<string, { bytes: number; count: number }>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + iType]!]!;
    const name = type === "object" || type === "closure" || type === "native" ? snap.strings[snap.nodes[i + iName]!]! : type === "hidden" || type === "array" || type === "code" ? `${type}:${snap.strings[snap.nodes[i + iName]!]!.slice(0, 40)}` : `(${type})`;
    const size = snap.nodes[i + iSize]!;
    total += size;
    const e = by.get(name) ?? { bytes: 0, count: 0 };
    e.bytes += size;
    e.count++;
    by.set(name, e);
  }
  console.log(`snapshot ${file}: ${(total / 1e6).toFixed(1)} MB self size in all, ${(total / pods / 1024).toFixed(1)} KB a pod`);
  for (const [name, e] of [...by].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 30)) {
    console.log(`${((100 * e.bytes) / total).toFixed(1).padStart(5)}% ${(e.bytes / pods / 1024).toFixed(2).padStart(7)} KB a pod ${(e.count / pods).toFixed(1).padStart(8)} a pod  ${name}`);
  }
}

/**
 * The snapshot's dominator tree (Cooper, Harvey and Kennedy's iteration; weak edges left out, as
 * DevTools does): from the root down, each object that keeps alive more than `minShare` of the heap
 * (its retained size: what would be freed with it), with the edge that reaches it from its
 * dominator; a chain whose one child keeps nearly all of its parent is shown as one line.
 */
function dominators(file: string, pods: number, minShare = Number(values["min-share"] ?? 0.01), maxDepth = 14): void {
  const snap = JSON.parse(readFileSync(file, "utf8")) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } }; nodes: number[]; edges: number[]; strings: string[] };
  const meta = snap.snapshot.meta;
  const nw = meta.node_fields.length;
  const ew = meta.edge_fields.length;
  const [nType, nName, nSize, nEdges] = ["type", "name", "self_size", "edge_count"].map((k) => meta.node_fields.indexOf(k)) as [number, number, number, number];
  const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((k) => meta.edge_fields.indexOf(k)) as [number, number, number];
  const edgeTypes = meta.edge_types[0];
  const weak = edgeTypes.indexOf("weak");
  const N = snap.nodes.length / nw;
  const firstEdge = new Uint32Array(N + 1);
  for (let i = 0; i < N; i++) firstEdge[i + 1] = firstEdge[i]! + snap.nodes[i * nw + nEdges]! * ew;
  // Postorder by an iterative depth-first walk from the root (node 0).
  const post = new Int32Array(N).fill(-1);
  const order: number[] = [];
  const seen = new Uint8Array(N);
  const stack: number[] = [0];
  const next = new Uint32Array(N);
  seen[0] = 1;
  for (let i = 0; i < N; i++) next[i] = firstEdge[i]!;
  while (stack.length > 0) {
    const v = stack[stack.length - 1]!;
    if (next[v]! < firstEdge[v + 1]!) {
      const e = next[v]!;
      next[v] = e + ew;
      if (snap.edges[e + eType] === weak) continue;
      const w = snap.edges[e + eTo]! / nw;
      if (seen[w] === 0) {
        seen[w] = 1;
        stack.push(w);
      }
    } else {
      stack.pop();
      post[v] = order.length;
      order.push(v);
    }
  }
  const preds: number[][] = new Array(N);
  for (const v of order) {
    for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += ew) {
      if (snap.edges[e + eType] === weak) continue;
      const w = snap.edges[e + eTo]! / nw;
      (preds[w] ??= []).push(v);
    }
  }
  const idom = new Int32Array(N).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (post[a]! < post[b]!) a = idom[a]!;
      while (post[b]! < post[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = order.length - 2; k >= 0; k--) {
      const v = order[k]!;
      let d = -1;
      for (const p of preds[v] ?? []) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
      if (d !== -1 && idom[v] !== d) {
        idom[v] = d;
        changed = true;
      }
    }
  }
  const retained = new Float64Array(N);
  for (const v of order) retained[v]! += snap.nodes[v * nw + nSize]!;
  for (const v of order) if (v !== 0) retained[idom[v]!]! += retained[v]!;
  const children: number[][] = new Array(N);
  for (const v of order) if (v !== 0) (children[idom[v]!] ??= []).push(v);
  const total = retained[0]!;
  const types = meta.node_types[0];
  const label = (v: number): string => {
    const t = types[snap.nodes[v * nw + nType]!]!;
    const name = snap.strings[snap.nodes[v * nw + nName]!]!.slice(0, 50).replace(/\s+/g, " ");
    return t === "object" || t === "closure" ? name : `(${t}) ${name}`;
  };
  const edgeTo = (from: number, to: number): string => {
    for (let e = firstEdge[from]!; e < firstEdge[from + 1]!; e += ew) {
      if (snap.edges[e + eTo]! / nw !== to) continue;
      const t = edgeTypes[snap.edges[e + eType]!]!;
      return t === "element" || t === "hidden" ? `[${snap.edges[e + eName]}]` : `.${snap.strings[snap.edges[e + eName]!]}`;
    }
    return " ~";
  };
  console.log(`dominators: ${(total / 1e6).toFixed(1)} MB reachable, ${order.length} objects; retained KB a pod, share`);
  const show = (v: number, depth: number, prefix: string): void => {
    let path = prefix;
    let u = v;
    for (;;) {
      const big = (children[u] ?? []).filter((c) => retained[c]! >= 0.9 * retained[u]!);
      if (big.length !== 1) break;
      path += `${edgeTo(u, big[0]!)} ${label(big[0]!)}`;
      u = big[0]!;
    }
    console.log(`${"  ".repeat(depth)}${(retained[v]! / pods / 1024).toFixed(2).padStart(7)} ${((100 * retained[v]!) / total).toFixed(1).padStart(5)}%  ${path}`);
    if (depth >= maxDepth) return;
    const kids = (children[u] ?? []).filter((c) => retained[c]! >= minShare * total).sort((a, b) => retained[b]! - retained[a]!);
    for (const c of kids) show(c, depth + 1, `${edgeTo(u, c)} ${label(c)}`);
  };
  show(0, 0, label(0));
}
