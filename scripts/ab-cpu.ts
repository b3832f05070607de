// A/B of this tree against another checkout by CPU time, both loaded in this one process and run
// in alternation, so that a machine shared with other work loads both sides alike (a figure taken
// at another time says little on such a machine). host-time-ok: a measuring tool, like src/bench/.
// It is not neutral: the tree loaded first (--base, the old one) runs 5-10% faster than the same
// code loaded second (V8's shared inline caches and the heap's layout), so a new/old gain under
// about 10% is within its bias and noise unless it repeats.
//
//   git worktree add /tmp/base-7256ad8 7256ad8 && (cd /tmp/base-7256ad8 && npm ci)
//   node --import tsx scripts/ab-cpu.ts --base /tmp/base-7256ad8 [--explore 400] [--node 20] [--kernel 4] [--dist]
//
// --dist runs both trees' compiled dist/ (what the CLI and `npm run bench` run: build this tree
// first with `npm run build`) instead of their sources through tsx, whose closures carry a naming
// helper call each that the compiled code does not.
//
// explore: N runs of the explore bench's scenario through exploration's own run path
//   (pct, lazy records; RunContext.runBatch's lockstep batches of 8 where a tree has them, else
//   runIndex one by one: runRange), in batches of 24 alternating between the trees, after
//   --warm W runs of each (60; 1000 for a long exploration's steady state).
// node:    M virtual minutes of the 110-pod node (src/bench/node.ts, trace hashed and streamed to a
//   counting sink), both runs advanced in lockstep by 5-second slices, each slice timed.
// cluster: --cluster N:M: the cluster bench's scenario (src/bench/workloads.ts clusterScenarioYaml,
//   what cluster-100x110-1h runs) at N nodes of 110 pods for M virtual minutes, both runs advanced
//   in lockstep by 5-second slices as the node line's; both must give the same trace hash and
//   events. Not run by default; `--only cluster --cluster 20:5` runs it alone.
// kernel:  the kernel bench's two loops (1,000 sleepers against a bare heap of generators), K
//   alternations; the figure is the kernel's ratio to the bare loop in each tree.
// hunt:    --hunt r01,r10 [--hunt-runs 40] [--hunt-warm 10]: each race's hunt form (scenarios/races/hunt/) as
//   `explore` runs it (its swarm, every invariant, pct calibrated by a fifo run; a failing run
//   of a sampled index runs again in full, context.ts; lockstep as explore's), in batches of 8 runs alternating between the
//   trees, after --hunt-warm W runs of each (10: an exploration's first runs; hunt3 found a form
//   needs about 200 before its code is warm, so `--hunt-warm 200` compares them as a long
//   exploration runs them). Not run by default.
// digest:  --digest M: the trace digest alone (TraceDigest.add) over the records of M virtual
//   minutes of the 110-pod node from minute 2 on (collected once, unhashed, by this tree), fed to
//   each tree's digest in alternation, 10 passes each; both must give the same hex. Not run by
//   default; `--only digest --digest 8` runs it alone.
// Each line prints both trees' CPU milliseconds and new/old speed (old CPU / new CPU). Runs must do
// the same work in both trees (the same events); the script says so when they do not.
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { runRange } from "./bench_contexts.ts";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    explore: { type: "string", default: "400" },
    warm: { type: "string", default: "60" },
    node: { type: "string", default: "20" },
    kernel: { type: "string", default: "4" },
    only: { type: "string" },
    hunt: { type: "string" },
    digest: { type: "string" },
    cluster: { type: "string" },
    "hunt-runs": { type: "string", default: "40" },
    "hunt-warm": { type: "string", default: "10" },
    dist: { type: "boolean", default: false },
  },
});
if (values.base === undefined) {
  process.stderr.write("usage: node --import tsx scripts/ab-cpu.ts --base DIR [--explore RUNS] [--node MINUTES] [--kernel REPS] [--only explore|node|kernel|digest|cluster] [--hunt r01,r10 [--hunt-runs 40] [--hunt-warm 10]] [--digest MINUTES] [--cluster NODES:MINUTES]\n");
  process.exit(2);
}
const trees = [resolve(values.base), resolve(join(import.meta.dirname, ".."))];
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const ratio = (a: number, b: number) => (a / b).toFixed(2);
/** A module of a tree: its source, or its compiled form with --dist (the benches' scenarios stay sources: dist has no bench/). */
const mod = (tree: string, path: string) => import(values.dist ? join(tree, "dist", `${path}.js`) : join(tree, "src", `${path}.ts`));

async function abExplore(runs: number): Promise<void> {
  const ctxs = await Promise.all(trees.map(async (t) => {
    const { EXPLORE_BENCH_SCENARIO } = await import(join(t, "src/bench/explore.ts"));
    const { parseYaml } = await mod(t, "scenario/yaml");
    const { makePlan } = await mod(t, "explore/plan");
    const { RunContext } = await mod(t, "explore/context");
    const y = parseYaml(EXPLORE_BENCH_SCENARIO, "bench-explore.yaml");
    return new RunContext(makePlan({ source: { raw: y.value, label: "bench-explore.yaml" }, strategy: "pct" }));
  }));
  // Warm-up: V8 keeps tiering a run's code up for about a thousand runs (the cost of a batch of
  // 100 falls from about 4x to 1x of its final value), so --warm 1000 compares the trees as a
  // long exploration runs them, and the default (60) as a short one does.
  const warm = Number(values.warm);
  for (let i = 0; i < warm; i += 8) for (const c of ctxs) runRange(c, 100_000 + i, 100_000 + i + 8);
  const spent = [0, 0];
  const events = [0, 0];
  const batch = 24;
  // Each batch pair's ratio too: the median of those is what a burst of load on a shared host
  // moves least (a burst lands on one batch of one tree, and the sums carry it).
  const ratios: number[] = [];
  for (let done = 0; done < runs; done += batch) {
    const pair = [0, 0];
    for (const k of (done / batch) % 2 === 0 ? [0, 1] : [1, 0]) {
      const t0 = cpuMs();
      for (const r of runRange(ctxs[k], done, Math.min(runs, done + batch))) events[k] += r.events;
      pair[k] = cpuMs() - t0;
      spent[k] += pair[k]!;
    }
    ratios.push(pair[0]! / pair[1]!);
  }
  ratios.sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)]!;
  const same = events[0] === events[1] ? "" : `  (events differ: ${events[0]} / ${events[1]})`;
  console.log(`explore ${runs} runs (after ${warm} of warm-up): old ${(spent[0]! / runs).toFixed(2)} ms/run, new ${(spent[1]! / runs).toFixed(2)} ms/run; new/old speed ${ratio(spent[0]!, spent[1]!)}x, median of ${ratios.length} batch pairs ${median.toFixed(2)}x${same}`);
}

async function abNode(minutes: number): Promise<void> {
  const handles = await Promise.all(trees.map(async (t) => {
    const { nodeScenarioYaml } = await import(join(t, "src/bench/node.ts"));
    const { loadScenarioText } = await mod(t, "scenario/index");
    const { startSimulation } = await mod(t, "simulate");
    const { scenario } = loadScenarioText(nodeScenarioYaml(110, `${minutes}m`), "node-110-pods.yaml");
    return startSimulation(scenario, { sinks: [{ wantsLines: false, write() {} }], keepRecords: false });
  }));
  const spent = lockstep(handles, minutes * 60_000);
  const runs = handles.map((h) => h.finish().run);
  const same = runs[0].traceHash === runs[1].traceHash ? "same trace hash" : `trace hashes differ: ${runs[0].traceHash} / ${runs[1].traceHash}`;
  const speed = (ms: number) => Math.round((minutes * 60_000) / ms);
  console.log(`node-110-pods ${minutes} virtual min: old ${spent[0]!.toFixed(0)} ms CPU (${speed(spent[0]!)}x), new ${spent[1]!.toFixed(0)} ms CPU (${speed(spent[1]!)}x); new/old speed ${ratio(spent[0]!, spent[1]!)}x (${same})`);
}

/** Both trees' simulations advanced in lockstep by 5-second slices, each slice's CPU time on its tree's account. */
function lockstep(handles: { sim: { runUntil(ms: number): unknown } }[], untilMs: number): number[] {
  const spent = [0, 0];
  const sliceMs = 5000;
  for (let t = sliceMs, k = 0; t <= untilMs; t += sliceMs, k++) {
    for (const i of k % 2 === 0 ? [0, 1] : [1, 0]) {
      const t0 = cpuMs();
      handles[i]!.sim.runUntil(t);
      spent[i]! += cpuMs() - t0;
    }
  }
  return spent;
}

async function abCluster(spec: string): Promise<void> {
  const m = /^(\d+):(\d+)$/.exec(spec);
  if (m === null) throw new Error(`--cluster wants NODES:MINUTES (e.g. 20:5), not ${spec}`);
  const size = { nodes: Number(m[1]), podsPerNode: 110 };
  const minutes = Number(m[2]);
  const handles = await Promise.all(trees.map(async (t) => {
    const { clusterScenarioYaml } = await import(join(t, "src/bench/workloads.ts"));
    const { loadScenarioText } = await mod(t, "scenario/index");
    const { startSimulation } = await mod(t, "simulate");
    const t0 = cpuMs();
    const { scenario } = loadScenarioText(clusterScenarioYaml(size, `${minutes}m`), "cluster-bench.yaml");
    const handle = startSimulation(scenario, { sinks: [{ wantsLines: false, write() {} }], keepRecords: false });
    return { handle, buildMs: cpuMs() - t0 };
  }));
  const spent = lockstep(handles.map((h) => h.handle), minutes * 60_000);
  // Building the cluster (its nodes' plans and runtimes) is part of the line's cost.
  for (const i of [0, 1]) spent[i]! += handles[i]!.buildMs;
  const runs = handles.map((h) => h.handle.finish().run);
  const same = runs[0].traceHash === runs[1].traceHash && runs[0].events === runs[1].events
    ? `same trace hash, ${runs[0].events} events`
    : `runs differ: ${runs[0].traceHash} / ${runs[1].traceHash}, ${runs[0].events} / ${runs[1].events} events`;
  const speed = (ms: number) => ((minutes * 60_000) / ms).toFixed(2);
  console.log(`cluster-${size.nodes}x110 ${minutes} virtual min: old ${spent[0]!.toFixed(0)} ms CPU (${speed(spent[0]!)}x), new ${spent[1]!.toFixed(0)} ms CPU (${speed(spent[1]!)}x); new/old speed ${ratio(spent[0]!, spent[1]!)}x (${same})`);
}

async function abKernel(reps: number): Promise<void> {
  const PROCS = 1000;
  const WAKES = 2000;
  const mods = await Promise.all(trees.map(async (t) => ({ sim: await mod(t, "sim/index"), heap: await mod(t, "sim/heap") })));
  type E = { dueMs: number; seq: number; cancelled: boolean; gen: Generator<number, void, unknown> };
  const bare = (m: (typeof mods)[number]): void => {
    const heap = new m.heap.TimerHeap();
    let seq = 0;
    for (let i = 0; i < PROCS; i++) {
      const gen = (function* (period: number) {
        for (let k = 0; k < WAKES; k++) yield period;
      })(1 + (i % 7));
      heap.push({ dueMs: 0, seq: seq++, cancelled: false, gen });
    }
    for (let e: E | undefined = heap.pop(); e !== undefined; e = heap.pop()) {
      const r = e.gen.next();
      if (r.done !== true) heap.push({ dueMs: e.dueMs + r.value, seq: seq++, cancelled: false, gen: e.gen });
    }
  };
  const kernel = (m: (typeof mods)[number]): void => {
    const sim = new m.sim.Sim({ seed: 1, strategy: { name: "fifo" }, hash: false });
    const sleep = m.sim.sleep;
    for (let i = 0; i < PROCS; i++) {
      const period = 1 + (i % 7);
      sim.go(`sleeper/${i}`, function* () {
        for (let k = 0; k < WAKES; k++) yield* sleep(period);
      });
    }
    sim.run();
  };
  const t = { bare: [0, 0], kernel: [0, 0] };
  for (let r = 0; r < reps; r++) {
    for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
      let t0 = cpuMs();
      bare(mods[i]!);
      t.bare[i]! += cpuMs() - t0;
      t0 = cpuMs();
      kernel(mods[i]!);
      t.kernel[i]! += cpuMs() - t0;
    }
  }
  const rate = (i: number) => ratio(t.bare[i]!, t.kernel[i]!);
  console.log(`kernel (2,001,000 events, ${reps} alternations): ratio to the bare loop old ${rate(0)}x, new ${rate(1)}x; kernel new/old speed ${ratio(t.kernel[0]!, t.kernel[1]!)}x`);
}

async function abHunt(forms: readonly string[], runs: number, warm: number): Promise<void> {
  for (const form of forms) {
    const ctxs = await Promise.all(trees.map(async (t) => {
      const { makePlan } = await mod(t, "explore/plan");
      const { RunContext } = await mod(t, "explore/context");
      return new RunContext(makePlan({ source: { file: join(t, "scenarios/races/hunt", `${form}-hunt.yaml`) }, strategy: "pct" }));
    }));
    for (let i = 0; i < warm; i += 8) for (const c of ctxs) runRange(c, 100_000 + i, 100_000 + i + 8); // warm-up, in alternation
    const spent = [0, 0];
    const ids = [[], []] as string[][];
    const batch = 8;
    for (let done = 0; done < runs; done += batch) {
      for (const k of (done / batch) % 2 === 0 ? [0, 1] : [1, 0]) {
        const t0 = cpuMs();
        for (const r of runRange(ctxs[k], done, Math.min(runs, done + batch))) ids[k]!.push(r.identity);
        spent[k] += cpuMs() - t0;
      }
    }
    const same = ids[0]!.join() === ids[1]!.join() ? "same runs" : "runs differ";
    console.log(`hunt ${form} ${runs} runs (after ${warm} of warm-up): old ${(spent[0]! / runs).toFixed(2)} ms/run (${Math.round((1000 * runs) / spent[0]!)} runs/s), new ${(spent[1]! / runs).toFixed(2)} ms/run (${Math.round((1000 * runs) / spent[1]!)} runs/s); new/old speed ${ratio(spent[0]!, spent[1]!)}x (${same})`);
  }
}

async function abDigest(minutes: number): Promise<void> {
  const { nodeScenarioYaml } = await import(join(trees[1]!, "src/bench/node.ts"));
  const { loadScenarioText } = await mod(trees[1]!, "scenario/index");
  const { startSimulation } = await mod(trees[1]!, "simulate");
  const records: unknown[] = [];
  const { scenario } = loadScenarioText(nodeScenarioYaml(110, `${minutes + 2}m`), "node-110-pods.yaml");
  startSimulation(scenario, { hash: false, sinks: [{ wantsLines: false, write: (r: { t: number }) => void (r.t >= 120_000 && records.push(r)) }], keepRecords: false }).finish();
  const digests = await Promise.all(trees.map(async (t) => (await mod(t, "sim/digest")).TraceDigest));
  const spent = [0, 0];
  const hex = ["", ""];
  for (let k = 0; k < 20; k++) {
    const i = [0, 1, 1, 0][k % 4]!; // old, new, new, old: neither tree always goes first
    const d = new digests[i]();
    const t0 = cpuMs();
    for (const r of records) d.add(r);
    spent[i] += cpuMs() - t0;
    hex[i] = d.hex();
  }
  const same = hex[0] === hex[1] ? "same digest" : `digests differ: ${hex[0]} / ${hex[1]}`;
  console.log(`digest of ${records.length} node records x10: old ${spent[0]!.toFixed(0)} ms CPU, new ${spent[1]!.toFixed(0)} ms CPU; new/old speed ${ratio(spent[0]!, spent[1]!)}x (${same})`);
}

console.log(`old: ${trees[0]}\nnew: ${trees[1]}\n(${values.dist ? "dist/, compiled" : "src/ through tsx"})`);
const only = values.only;
if (only === undefined || only === "kernel") await abKernel(Number(values.kernel));
if (only === undefined || only === "explore") await abExplore(Number(values.explore));
if (only === undefined || only === "node") await abNode(Number(values.node));
if (values.cluster !== undefined) await abCluster(values.cluster);
if (values.digest !== undefined) await abDigest(Number(values.digest));
if (values.hunt !== undefined) await abHunt(values.hunt.split(","), Number(values["hunt-runs"]), Number(values["hunt-warm"]));
