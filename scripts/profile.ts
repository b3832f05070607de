// Where a workload spends its time: runs one of the benchmark workloads under V8's sampling
// profiler (node:inspector, in this process) and prints the functions by self time and by
// inclusive time, or what one function's time is spent in.
//
//   npm run profile -- node [--until 60m]         the node-110-pods-1h scenario
//   npm run profile -- steady [--until 20m]       the same node from minute 5 on: every pod running,
//                                                 only the quiet loops (probes, relists, housekeeping)
//   npm run profile -- explore [--runs 500]       pct runs of the explore bench's scenario, one thread
//   npm run profile -- hunt r10 [--runs 100]      a race's hunt form explored as the hunt-speed bench
//                                                 line does (explore's defaults, --keep-going, no shrink)
//   npm run profile -- cluster [--nodes 100] [--until 60m]   the cluster-100x110-1h scenario (fewer
//                                                 nodes or minutes to look at one part)
//   npm run profile -- cluster --nodes 10 --from 4m --until 10m   its steady minutes only (the start-up
//                                                 runs before the profiler starts)
//   npm run profile -- node --under relist        what relist's time is spent in, 3 levels deep
//   npm run profile -- node --out prof.cpuprofile also keep the profile (Chrome DevTools opens it)
//
// A developer tool next to the benchmarks (not a benchmark: profiling slows the run down).
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { nodeScenarioYaml } from "../src/bench/node.ts";
import { CLUSTER_SIZE, clusterScenarioYaml } from "../src/bench/workloads.ts";
import { EXPLORE_BENCH_SCENARIO } from "../src/bench/explore.ts";
import { huntForms } from "../src/bench/hunt.ts";
import { loadScenarioText } from "../src/scenario/index.ts";
import { simulate, startSimulation } from "../src/simulate.ts";
import { exploreSync } from "../src/explore/index.ts";
import { parseYaml } from "../src/scenario/yaml.ts";
import { parseDuration } from "../src/sim/duration.ts";

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[] }

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { until: { type: "string" }, from: { type: "string" }, nodes: { type: "string" }, runs: { type: "string", default: "500" }, under: { type: "string" }, depth: { type: "string", default: "3" }, top: { type: "string", default: "30" }, out: { type: "string" } },
});
const workload = positionals[0] ?? "node";

/** steady: the node's start-up (pods created, containers started) runs before the profiler starts. */
const STEADY_FROM_MS = 5 * 60_000;
function startSteady(): ReturnType<typeof startSimulation> {
  const { scenario } = loadScenarioText(nodeScenarioYaml(110, values.until ?? "20m"), "node-110-pods.yaml");
  const handle = startSimulation(scenario, { sinks: [{ wantsLines: false, write() {} }], keepRecords: false });
  handle.sim.runUntil(STEADY_FROM_MS);
  return handle;
}
const steady = workload === "steady" ? startSteady() : null;

/** cluster --from: the cluster run to that instant before the profiler starts. */
function startCluster(from: string): ReturnType<typeof startSimulation> {
  const size = { ...CLUSTER_SIZE, nodes: Number(values.nodes ?? CLUSTER_SIZE.nodes) };
  const { scenario } = loadScenarioText(clusterScenarioYaml(size, values.until ?? "60m"), "cluster.yaml");
  const handle = startSimulation(scenario, { sinks: [{ wantsLines: false, write() {} }], keepRecords: false });
  handle.sim.runUntil(parseDuration(from));
  return handle;
}
const clusterFrom = workload === "cluster" && values.from !== undefined ? startCluster(values.from) : null;

function run(): string {
  if (steady !== null) {
    const r = steady.finish();
    return `node-110-pods steady from 5m: ${r.run.events} events in all`;
  }
  if (workload === "node") {
    const until = values.until ?? "60m";
    const { scenario } = loadScenarioText(nodeScenarioYaml(110, until), "node-110-pods.yaml");
    const r = simulate(scenario, { sinks: [{ wantsLines: false, write() {} }], keepRecords: false });
    return `node-110-pods ${until}: ${r.run.events} events`;
  }
  if (clusterFrom !== null) {
    const r = clusterFrom.finish();
    return `cluster ${values.nodes ?? CLUSTER_SIZE.nodes}x${CLUSTER_SIZE.podsPerNode} from ${values.from} to ${values.until ?? "60m"}: ${r.run.events} events in all`;
  }
  if (workload === "cluster") {
    const until = values.until ?? "60m";
    const size = { ...CLUSTER_SIZE, nodes: Number(values.nodes ?? CLUSTER_SIZE.nodes) };
    const { scenario } = loadScenarioText(clusterScenarioYaml(size, until), "cluster.yaml");
    const r = simulate(scenario, { sinks: [{ wantsLines: false, write() {} }], keepRecords: false });
    return `cluster ${size.nodes}x${size.podsPerNode} ${until}: ${r.run.events} events`;
  }
  if (workload === "explore") {
    const y = parseYaml(EXPLORE_BENCH_SCENARIO, "bench-explore.yaml");
    if (!y.ok) throw new Error("the explore bench's scenario does not parse");
    const r = exploreSync({ source: { raw: y.value, label: "bench-explore.yaml" }, runs: Number(values.runs), strategy: "pct", shrink: false, outDir: null });
    return `explore: ${r.runs.length} pct runs`;
  }
  if (workload === "hunt") {
    const id = positionals[1];
    if (id === undefined) throw new Error("hunt needs a race id: npm run profile -- hunt r10");
    const [file] = huntForms(join(import.meta.dirname, ".."), [id.toLowerCase()]);
    const r = exploreSync({ source: { file: file! }, runs: Number(values.runs), strategy: "pct", keepGoing: true, shrink: false, outDir: null });
    return `hunt ${id}: ${r.runs.length} pct runs (${r.failures} failing), ${r.runs.reduce((n, x) => n + x.events, 0)} kernel events`;
  }
  throw new Error(`unknown workload ${workload}: node, steady, cluster, explore or hunt`);
}

function profile(): Profile {
  const session = new Session();
  session.connect();
  let result: Profile | null = null;
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 200 });
  session.post("Profiler.start");
  const start = performance.now();
  const what = run();
  const seconds = (performance.now() - start) / 1000;
  session.post("Profiler.stop", (err, r) => {
    if (err) throw err;
    result = (r as unknown as { profile: Profile }).profile;
  });
  session.disconnect();
  process.stdout.write(`${what} in ${seconds.toFixed(2)} s (profiled)\n`);
  return result!;
}

const name = (n: ProfileNode) => `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*\/src\//, "src/").replace(/^file:\/\//, "")}`;

function report(p: Profile): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const hits = new Map<number, number>();
  for (const s of p.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
  const inclusive = new Map<number, number>();
  const inc = (id: number): number => {
    const known = inclusive.get(id);
    if (known !== undefined) return known;
    let c = hits.get(id) ?? 0;
    for (const ch of byId.get(id)!.children ?? []) c += inc(ch);
    inclusive.set(id, c);
    return c;
  };
  const total = p.samples.length;
  const pct = (c: number) => `${((100 * c) / total).toFixed(1).padStart(5)}%`;
  const top = Number(values.top);
  const print = (title: string, m: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(v)} ${k}\n`);
  };
  if (values.under !== undefined) {
    const target = values.under;
    const below = new Map<string, number>();
    const depth = Number(values.depth);
    const walk = (id: number, d: number) => {
      const n = byId.get(id)!;
      if (d > 0) below.set(`${"  ".repeat(d - 1)}${name(n)}`, (below.get(`${"  ".repeat(d - 1)}${name(n)}`) ?? 0) + inc(id));
      if (d < depth) for (const ch of n.children ?? []) walk(ch, d + 1);
    };
    const find = (id: number) => {
      const n = byId.get(id)!;
      if (n.callFrame.functionName === target) walk(id, 0);
      else for (const ch of n.children ?? []) find(ch);
    };
    find(p.nodes[0]!.id);
    print(`time under ${target} (inclusive, ${depth} levels)`, below);
    return;
  }
  const self = new Map<string, number>();
  for (const [id, c] of hits) self.set(name(byId.get(id)!), (self.get(name(byId.get(id)!)) ?? 0) + c);
  const incl = new Map<string, number>();
  const walk = (id: number, seen: Set<string>) => {
    const k = name(byId.get(id)!);
    const first = !seen.has(k);
    if (first) {
      incl.set(k, (incl.get(k) ?? 0) + inc(id));
      seen.add(k);
    }
    for (const ch of byId.get(id)!.children ?? []) walk(ch, seen);
    if (first) seen.delete(k);
  };
  walk(p.nodes[0]!.id, new Set());
  print("self time", self);
  print("inclusive time (recursion counted once)", incl);
}

const p = profile();
if (values.out !== undefined) writeFileSync(values.out, JSON.stringify(p));
report(p);
