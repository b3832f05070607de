// Where the list calls' time goes in real runs: V8's sampling profiler (node:inspector, in this
// process) over a tree's compiled dist/, for runs of the explore bench's scenario (after 1,000 of
// warm-up), of race hunt forms (after 200) and minutes of the 110-pod node. Prints the self time of
// the functions that serve or consume a whole-node listing (the listing cache, the list handlers
// and views, kuberuntime's GetPods, the relist's compare and metrics, the runtime cache), the
// inclusive time under the relist, GetPods, HandlePodCleanups and the CRI call's trace record, what
// the first three spend it in, and the top functions by self time. A developer tool: profiling
// slows a run down, and on a loaded host a sampled share moves by a few tenths of a percent.
//
//   npm run build && node --import tsx scripts/list-profile.ts [TREE] [--explore 1500] [--hunt r10,r20] [--hunt-runs 100] [--node 10] [--interval 100]
import { Session } from "node:inspector";
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { benchContexts } from "./bench_contexts.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { explore: { type: "string", default: "1000" }, node: { type: "string", default: "0" }, hunt: { type: "string", default: "" }, "hunt-runs": { type: "string", default: "100" }, interval: { type: "string", default: "100" } },
});
const root = resolve(positionals[0] ?? ".");

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[] }

function profile(work: () => void): Profile {
  const s = new Session();
  s.connect();
  s.post("Profiler.enable");
  s.post("Profiler.setSamplingInterval", { interval: Number(values.interval) });
  s.post("Profiler.start");
  work();
  let out: Profile | null = null;
  s.post("Profiler.stop", (err, r) => { if (err) throw err; out = (r as { profile: Profile }).profile; });
  s.disconnect();
  return out!;
}

const LIST_FILES = ["cri/listing_cache.js", "cri/label_index.js", "kubelet/kuberuntime/get_pods.js", "kubelet/pleg/metrics.js", "kubelet/pleg/generic_events.js"];
const LIST_FNS: [string, RegExp][] = [
  ["cri/sandbox_ops.js", /ListPodSandbox|listCount|^$/],
  ["cri/container_ops.js", /ListContainers|^$/],
  ["cri/views.js", /podSandboxView|toContainer$|toPodSandbox|copyOf|frozenCopy/],
  ["cri/api.js", /matchLabels/],
  ["cri/runtime.js", /ListPodSandbox|ListContainers/],
  ["kubelet/pleg/generic.js", /relist|eventsOf|sameItems|reinspect/],
  ["kubelet/kuberuntime/kuberuntime_sandbox.js", /getKubeletSandboxes/],
  ["kubelet/container/runtime_cache.js", /.*/],
];
const INCL = [/^relist$/, /^GetPods$/, /^ListPodSandbox$/, /^ListContainers$/, /^HandlePodCleanups$/, /^traceCall$/, /^call$/, /^finish$/, /^match$/, /^drawMs$/];

function analyse(name: string, p: Profile): void {
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let total = 0;
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  const topSelf = new Map<string, number>();
  const under = new Map<string, Map<string, number>>();
  for (const id of p.samples) {
    const cf = nodes.get(id)!.callFrame;
    if (cf.functionName === "(idle)") continue;
    total++;
    const file = cf.url.replace(/^.*\/dist\//, "");
    const key = `${cf.functionName || "(anon)"}@${file}:${cf.lineNumber}`;
    topSelf.set(key, (topSelf.get(key) ?? 0) + 1);
    const isList = LIST_FILES.includes(file) || LIST_FNS.some(([f, re]) => f === file && re.test(cf.functionName));
    if (isList) self.set(key, (self.get(key) ?? 0) + 1);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = nodes.get(cur)!.callFrame;
      for (const re of INCL) if (re.test(f.functionName)) { const k = `${f.functionName}@${f.url.replace(/^.*\/dist\//, "")}`; if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + 1); if (k === "relist@kubelet/pleg/generic.js" || k === "HandlePodCleanups@kubelet/kubelet_handlers.js" || k === "traceCall@cri/core.js") { let m = under.get(k); if (!m) under.set(k, (m = new Map())); m.set(key, (m.get(key) ?? 0) + 1); } } }
    }
  }
  const pct = (x: number) => `${((100 * x) / total).toFixed(2)}%`;
  console.log(`\n== ${name}: ${total} samples`);
  let sum = 0;
  for (const v of self.values()) sum += v;
  console.log(`list-specific self time: ${pct(sum)}`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${pct(v).padStart(7)} ${k}`);
  console.log("inclusive:");
  for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(v).padStart(7)} ${k}`);
  for (const [k, m] of under) {
    console.log(`self time under ${k}:`);
    for (const [f, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(v).padStart(7)} ${f}`);
  }
  console.log("top self:");
  for (const [k, v] of [...topSelf].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${pct(v).padStart(7)} ${k}`);
}

const contexts = await benchContexts(root);
const exploreRuns = Number(values.explore);
if (exploreRuns > 0) {
  const ctx = contexts.explore();
  for (let i = 0; i < 1000; i++) ctx.runIndex(100_000 + i);
  analyse(`explore ${exploreRuns}`, profile(() => { for (let i = 0; i < exploreRuns; i++) ctx.runIndex(i); }));
}
for (const form of values.hunt === "" ? [] : values.hunt.split(",")) {
  const ctx = contexts.hunt(form);
  for (let i = 0; i < 200; i++) ctx.runIndex(100_000 + i);
  const n = Number(values["hunt-runs"]);
  analyse(`hunt ${form} ${n}`, profile(() => { for (let i = 0; i < n; i++) ctx.runIndex(i); }));
}
const nodeMinutes = Number(values.node);
if (nodeMinutes > 0) {
  const run = await contexts.node(nodeMinutes);
  analyse(`node ${nodeMinutes} min`, profile(run));
}
