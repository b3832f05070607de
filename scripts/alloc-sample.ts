// What a run allocates, by allocating function: V8's sampling heap profiler (node:inspector, in
// this process) over runs of the explore bench's scenario or of a race's hunt form through
// RunContext.runIndex over the compiled dist/, counting every object sampled, those a young
// collection frees included (the garbage collector's work is what they cost). A native allocator
// (Map, Set, Object.assign, sort) is named with the function that called it. A developer tool.
//
//   npm run build && node --import tsx scripts/alloc-sample.ts [explore|r10|...] [--runs 400] [--top 30] [--tree DIR]
//
// --tree: another built checkout to sample (a base commit), by this same script.
import { Session } from "node:inspector";
import { parseArgs } from "node:util";
import { join } from "node:path";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: "string", default: "400" }, top: { type: "string", default: "30" }, tree: { type: "string" } },
});
const root = values.tree ?? join(import.meta.dirname, "..");
const dist = (path: string) => import(join(root, "dist", `${path}.js`));
const { makePlan } = await dist("explore/plan");
const { RunContext } = await dist("explore/context");
const form = positionals[0] ?? "explore";
const runs = Number(values.runs);
let ctx;
if (form === "explore") {
  const { parseYaml } = await dist("scenario/yaml");
  const { EXPLORE_BENCH_SCENARIO } = await import(join(root, "src/bench/explore.ts"));
  ctx = new RunContext(makePlan({ source: { raw: parseYaml(EXPLORE_BENCH_SCENARIO, "bench-explore.yaml").value, label: "bench-explore.yaml" }, strategy: "pct" }));
} else {
  ctx = new RunContext(makePlan({ source: { file: join(root, "scenarios/races/hunt", `${form}-hunt.yaml`) }, strategy: "pct" }));
}
for (let i = 0; i < 200; i++) ctx.runIndex(100_000 + i); // warm-up

interface Frame { functionName: string; url: string; lineNumber: number }
interface SampleNode { callFrame: Frame; selfSize: number; children: SampleNode[] }
const s = new Session();
s.connect();
const post = (method: string, params: object = {}) =>
  new Promise<unknown>((resolve, reject) => s.post(method, params, (err, r) => (err ? reject(err) : resolve(r))));
await post("HeapProfiler.enable");
await post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
for (let i = 0; i < runs; i++) ctx.runIndex(i);
const { profile } = (await post("HeapProfiler.stopSampling")) as { profile: { head: SampleNode } };
s.disconnect();

const bytes = new Map<string, number>();
let total = 0;
const where = (f: Frame) => `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/dist\//, "")}:${f.lineNumber + 1}`;
function walk(n: SampleNode, caller: string | null): void {
  const name = n.callFrame.url === "" && caller !== null ? `${n.callFrame.functionName} < ${caller}` : where(n.callFrame);
  if (n.selfSize > 0) {
    bytes.set(name, (bytes.get(name) ?? 0) + n.selfSize);
    total += n.selfSize;
  }
  for (const c of n.children) walk(c, where(n.callFrame));
}
walk(profile.head, null);
console.log(`${form}: ${(total / runs / 1024).toFixed(0)} KB sampled a run (${runs} runs)`);
for (const [k, v] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
  console.log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${(v / runs / 1024).toFixed(1).padStart(6)} KB  ${k}`);
}
