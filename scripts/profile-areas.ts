// Where the time goes, by area of the code: V8's sampling profiler (node:inspector, in this
// process) over the compiled dist/ that the CLI and the benches run, self time grouped by where
// each function lives. The table of docs/BENCHMARKS.md's "profile that remains" comes from it.
// A developer tool (profiling slows the run down; shares, not speeds, are the point).
//
//   npm run build && node --import tsx scripts/profile-areas.ts [--explore 800] [--node 10] [--hunt r20,r10] [--hunt-runs 60]
//
// explore: runs of the explore bench's scenario through exploration's own run path
//   (under pct, in lockstep batches where the tree has them: bench_contexts.ts runRange), after 200 runs of warm-up; node: virtual minutes of the
//   110-pod node (trace hashed, streamed to a sink that drops it); hunt: runs of a race's hunt form
//   (scenarios/races/hunt/) through RunContext.runIndex, after 10 of warm-up.
import { Session } from "node:inspector";
import { parseArgs } from "node:util";
import { join } from "node:path";
import { benchContexts, runRange } from "./bench_contexts.ts";

const { values } = parseArgs({
  options: {
    explore: { type: "string", default: "800" },
    node: { type: "string", default: "10" },
    hunt: { type: "string", default: "r20,r10" },
    "hunt-runs": { type: "string", default: "60" },
    top: { type: "string", default: "12" },
  },
});
const root = join(import.meta.dirname, "..");

interface CallFrame { functionName: string; url: string }
interface ProfileNode { id: number; callFrame: CallFrame }
interface Profile { nodes: ProfileNode[]; samples: number[] }

/** The areas, in the table's order; the first whose test matches a function's file takes its samples. */
const AREAS: readonly [string, (file: string, fn: string) => boolean][] = [
  ["the kubelet's models and src/k8s helpers", (f) => /\/dist\/(kubelet|k8s)\//.test(f)],
  ["the checker and its monitors (src/check)", (f) => f.includes("/dist/check/")],
  ["the trace's emit (src/sim/trace.ts)", (f) => f.endsWith("/dist/sim/trace.js")],
  ["garbage collection", (_f, fn) => fn === "(garbage collector)"],
  ["immer (the status manager, the config merge)", (f) => f.includes("/node_modules/immer/")],
  ["the kernel (src/sim but the trace and its digest)", (f) => f.includes("/dist/sim/") && !f.endsWith("/digest.js")],
  ["the trace digest (src/sim/digest.ts)", (f) => f.endsWith("/dist/sim/digest.js")],
  ["the CRI (src/cri)", (f) => f.includes("/dist/cri/")],
  ["the apiserver (src/apiserver)", (f) => f.includes("/dist/apiserver/")],
  ["the run path (src/node, simulate, src/explore)", (f) => /\/dist\/(node\/|explore\/|simulate\.js)/.test(f)],
  ["the scenario's compile per run (zod, src/scenario)", (f) => f.includes("/node_modules/zod/") || f.includes("/dist/scenario/")],
  ["everything else (Node's own, other dist/ code)", () => true],
];

/** A workload's shares: by area, and the functions with the most self time. */
interface Shares {
  areas: Map<string, number>;
  top: { fn: string; area: string; share: number }[];
}

function profile(work: () => void): Shares {
  const s = new Session();
  s.connect();
  s.post("Profiler.enable");
  s.post("Profiler.setSamplingInterval", { interval: 200 });
  s.post("Profiler.start");
  work();
  let out: Profile | null = null;
  s.post("Profiler.stop", (err, r) => {
    if (err) throw err;
    out = (r as { profile: Profile }).profile;
  });
  s.disconnect();
  if (out === null) throw new Error("the profiler gave no profile");
  return byArea(out);
}

function byArea(p: Profile): Shares {
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const counts = new Map<string, number>(AREAS.map(([name]) => [name, 0]));
  const fns = new Map<string, { area: string; n: number }>();
  let total = 0;
  for (const id of p.samples) {
    const { url, functionName } = nodes.get(id)!.callFrame;
    if (functionName === "(idle)") continue;
    const area = AREAS.find(([, test]) => test(url, functionName))![0];
    counts.set(area, counts.get(area)! + 1);
    const fn = `${functionName || "(anonymous)"} ${url.replace(/^.*\/(dist|node_modules)\//, "$1/")}`;
    const f = fns.get(fn) ?? { area, n: 0 };
    f.n++;
    fns.set(fn, f);
    total++;
  }
  for (const [k, v] of counts) counts.set(k, (100 * v) / total);
  const top = [...fns].sort((a, b) => b[1].n - a[1].n).slice(0, Number(values.top))
    .map(([fn, f]) => ({ fn, area: f.area, share: (100 * f.n) / total }));
  return { areas: counts, top };
}

const columns: [string, Shares][] = [];
const contexts = await benchContexts(root);

const exploreRuns = Number(values.explore);
if (exploreRuns > 0) {
  const ctx = contexts.explore();
  runRange(ctx, 100_000, 100_200);
  columns.push([`explore (${exploreRuns} runs)`, profile(() => void runRange(ctx, 0, exploreRuns))]);
}

const nodeMinutes = Number(values.node);
if (nodeMinutes > 0) {
  const run = await contexts.node(nodeMinutes);
  columns.push([`node (${nodeMinutes} virtual min)`, profile(run)]);
}

const huntRuns = Number(values["hunt-runs"]);
for (const form of values.hunt === "" ? [] : values.hunt.split(",")) {
  const ctx = contexts.hunt(form);
  runRange(ctx, 100_000, 100_010);
  columns.push([`hunt ${form} (${huntRuns} runs)`, profile(() => void runRange(ctx, 0, huntRuns))]);
}

const pct = (x: number) => (x >= 10 ? `${x.toFixed(0)}%` : `${x.toFixed(1)}%`);
console.log(`| self time in | ${columns.map(([name]) => name).join(" | ")} |`);
console.log(`|---|${columns.map(() => "---").join("|")}|`);
for (const [area] of AREAS) console.log(`| ${area} | ${columns.map(([, c]) => pct(c.areas.get(area)!)).join(" | ")} |`);
for (const [name, c] of columns) {
  console.log(`\n${name}: the functions with the most self time`);
  for (const f of c.top) console.log(`  ${pct(f.share).padStart(6)}  ${f.fn}  [${f.area}]`);
}
