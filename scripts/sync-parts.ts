// What a pod sync's parts cost inside a run against the same parts repeated at once on the same
// inputs (issue 21, docs/BENCHMARKS-history.md "The pod sync's cost in a run (syncpath)"). Runs the
// explore bench's scenario (or a race's hunt form) through RunContext.runIndex over the compiled
// dist/, as scripts/ab-cpu.ts runs them, warm (after --warm runs), with timing wrappers patched on
// the compiled prototypes before the warm-up (so the warm code is the wrapped code):
//   - the kubelet's SyncPod (every resume of its generator, inclusive: the whole sync's CPU),
//   - the kuberuntime's SyncPod (the same, nested), the status manager's SetPodStatus,
//   - generateAPIPodStatus: timed as the run calls it ("in run"), then, with --repeat K, called K
//     more times at once on the same arguments ("repeat 1..K": the same code, inputs and state,
//     with the caches as the first call left them). It builds a new status and reads the rest,
//     but for the prober's readyOf, which sends a manual readiness trigger: in a repeat readyOf
//     answers without it, so the repeats change nothing in the run (the events printed are the
//     same with --repeat 0 and with --repeat 2: compare them when changing this script).
// --between MODE: before each repeat, unrelated work: "none"; "sweep" reads a
//   Float64Array of --sweep-kb KB (data only), "code" calls --fns small distinct functions (code
//   only), "run" runs a whole other run of the same scenario (a second RunContext; nothing in it is
//   timed or repeated), to tell what the first call pays for.
// --profile FILE: a .cpuprofile (100 µs samples) of the measured runs; with --trace-opt/--trace-deopt
//   the script prints "@@MEASURE" where the measured runs start.
// A developer tool: host time is read here only (host-time-ok), never inside a run.
//
//   npm run build && node --import tsx scripts/sync-parts.ts [--runs 200] [--warm 1000] [--repeat 3] [--hunt r20] [--between none|sweep|code|run] [--sweep-kb 4096] [--fns 600] [--profile FILE]
import { parseArgs } from "node:util";
import { join } from "node:path";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { benchContexts } from "./bench_contexts.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "200" },
    warm: { type: "string", default: "1000" },
    repeat: { type: "string", default: "3" },
    hunt: { type: "string", default: "" },
    between: { type: "string", default: "none" },
    "sweep-kb": { type: "string", default: "4096" },
    fns: { type: "string", default: "600" },
    tree: { type: "string", default: join(import.meta.dirname, "..") },
    profile: { type: "string", default: "" }, // write a .cpuprofile of the measured runs (100 µs samples) here
  },
});
const root = values.tree;
const dist = (path: string) => import(join(root, "dist", `${path}.js`));
const contexts = await benchContexts(root);
const { KubeletSyncer } = await dist("kubelet/kubelet_sync");
const { StatusManager } = await dist("kubelet/status/status_manager");
const { KubeGenericRuntimeManager } = await dist("kubelet/kuberuntime/kuberuntime_manager_sync");
const { ProberManager } = await dist("kubelet/prober/prober_manager");

// readyOf triggers a readiness probe (a channel send): the repeats must not, so that the runs stay
// the runs (checked: the same events with --repeat 0 and 3). The rest of generateAPIPodStatus is pure.
let inRepeat = false;
let triggers = 0; // readiness probes triggered by the call being timed
const origReadyOf = ProberManager.prototype.readyOf;
ProberManager.prototype.readyOf = function (this: any, podUID: string, name: string, id: string) {
  if (!inRepeat) {
    const w = this.getWorker(podUID, name, "readiness");
    if (w !== undefined && w.manualTriggerCh !== null && this.readinessManager.Get(id) !== "Success") triggers++;
    return origReadyOf.call(this, podUID, name, id);
  }
  const r = this.readinessManager.Get(id);
  if (!this.era.resultsToSyncLoop && r !== undefined) return r === "Success";
  if (r === "Success") return true;
  return this.getWorker(podUID, name, "readiness") === undefined;
};

const now = () => performance.now() * 1000; // µs
let measuring = false;
let nested = 0; // inside a --between run run: time nothing, repeat nothing
const acc = new Map<string, number[]>();
const intervals: [number, number][] = []; // in-run generateAPIPodStatus calls, for GC overlap
const add = (k: string, v: number) => {
  if (!measuring || nested > 0) return;
  let a = acc.get(k);
  if (a === undefined) acc.set(k, (a = []));
  a.push(v);
};

/** An iterator over g that adds the time of each resume to its sync's total (yield* calls next/return/throw). */
// Wall time, not CPU time: process.cpuUsage() costs about 7 µs a call on this VM (getrusage),
// performance.now() about 0.56 µs; so medians, not means, are the figures (a descheduled process
// puts milliseconds into a mean on a loaded host).
function timedGen(name: string, g: Generator): Generator {
  let total = 0, resumes = 0;
  const step = (f: () => IteratorResult<unknown>) => {
    const t = now();
    resumes++;
    try {
      const r = f();
      if (r.done === true) {
        const w = total + (now() - t);
        add(name, w);
        const kind = resumes === 1 ? "1 resume (no call made)" : resumes <= 4 ? "2-4 resumes" : "5+ resumes";
        add(`${name}, ${kind}`, w);
      }
      return r;
    } finally {
      total += now() - t;
    }
  };
  const it = {
    next: (v?: unknown) => step(() => g.next(v)),
    return: (v?: unknown) => step(() => g.return(v)),
    throw: (e?: unknown) => step(() => g.throw(e)),
    [Symbol.iterator]() { return it; },
  };
  return it as unknown as Generator;
}

function wrapGen(proto: Record<string, unknown>, method: string, name: string): void {
  const orig = proto[method] as (...a: unknown[]) => Generator;
  proto[method] = function (this: unknown, ...a: unknown[]) { return timedGen(name, orig.apply(this, a)); };
}
wrapGen(KubeletSyncer.prototype, "SyncPod", "kubelet SyncPod (whole sync)");
wrapGen(KubeGenericRuntimeManager.prototype, "SyncPod", "kuberuntime SyncPod");

const origSet = StatusManager.prototype.SetPodStatus;
StatusManager.prototype.SetPodStatus = function (this: unknown, ...a: unknown[]) {
  const t = now();
  try { return origSet.apply(this, a); } finally { add("SetPodStatus", now() - t); }
};

// Unrelated work between repeats.
const sweep = new Float64Array((Number(values["sweep-kb"]) * 1024) / 8).fill(1);
const fns: (() => number)[] = [];
for (let i = 0; i < Number(values.fns); i++) fns.push(new Function(`let s = ${i}; for (let j = 0; j < 3; j++) s = (s * 31 + j + ${i}) | 0; return s;`) as () => number);
for (let r = 0; r < 300; r++) for (const f of fns) f();
let sink = 0;
let other: { runIndex(i: number): { events: number } } | null = null; // "run": another RunContext of the same scenario
let otherIndex = 500_000;
function between(): void {
  if (values.between === "run" && other === null) return;
  if (values.between === "run") { const was = inRepeat; inRepeat = false; nested++; try { sink += other!.runIndex(otherIndex++).events; } catch (e) { console.error("between run:", e); process.exit(1); } nested--; inRepeat = was; return; }
  if (values.between === "sweep") { let s = 0; for (let i = 0; i < sweep.length; i += 8) s += sweep[i]!; sink += s; }
  else if (values.between === "code") { for (const f of fns) sink += f(); }
}

const repeat = Number(values.repeat);
const wrapped = new WeakSet<object>();
const origSync = KubeletSyncer.prototype.SyncPod as (...a: unknown[]) => Generator;
KubeletSyncer.prototype.SyncPod = function (this: { kl: { deps: { statusGenerator: Record<string, unknown> } } }, ...a: unknown[]) {
  const gen = this.kl.deps.statusGenerator;
  if (!wrapped.has(gen)) {
    wrapped.add(gen);
    const orig = gen.generateAPIPodStatus as (...b: unknown[]) => unknown;
    gen.generateAPIPodStatus = (...b: unknown[]) => {
      if (nested > 0) return orig(...b);
      const before = triggers;
      const t = now();
      const r = orig(...b);
      const t1 = now();
      add("generateAPIPodStatus: in run", t1 - t);
      add(`generateAPIPodStatus: in run, ${triggers === before ? "no probe triggered" : "a probe triggered"}`, t1 - t);
      if (measuring && nested === 0) intervals.push([t, t1]);
      for (let k = 1; k <= repeat; k++) {
        between();
        inRepeat = true;
        const s = now();
        orig(...b);
        add(`generateAPIPodStatus: repeat ${k}`, now() - s);
        inRepeat = false;
      }
      return r;
    };
  }
  return origSync.apply(this, a);
};

const gcs: [number, number][] = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) gcs.push([e.startTime * 1000, (e.startTime + e.duration) * 1000]); }).observe({ entryTypes: ["gc"] });

const scenarioRuns = () => (values.hunt !== "" ? contexts.hunt(values.hunt) : contexts.explore());
const ctx = scenarioRuns() as { runIndex(i: number): { events: number } };
if (values.between === "run") other = scenarioRuns() as { runIndex(i: number): { events: number } };
const warm = Number(values.warm), runs = Number(values.runs);
for (let i = 0; i < warm; i++) ctx.runIndex(100_000 + i);
const { Session } = await import("node:inspector/promises");
const session = new Session();
if (values.profile !== "") {
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
}
if (process.execArgv.some((a) => a.startsWith("--trace-"))) console.log("@@MEASURE");
measuring = true;
let events = 0;
const t0 = now();
for (let i = 0; i < runs; i++) events += ctx.runIndex(i).events as number;
const total = now() - t0;
measuring = false;
if (values.profile !== "") {
  const { profile } = await session.post("Profiler.stop");
  (await import("node:fs")).writeFileSync(values.profile, JSON.stringify(profile));
}
await new Promise((r) => setTimeout(r, 50));

const q = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.floor(p * (a.length - 1))]!;
const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
console.log(`${values.hunt !== "" ? `hunt ${values.hunt}` : "explore"}: ${runs} runs after ${warm}, ${events} events, ${(total / runs / 1000).toFixed(2)} ms a run (repeat ${repeat}, between ${values.between}); sink ${sink % 7}`);
console.log("part | calls a run | median µs | mean µs | p90 µs | share of the runs' time");
for (const [k, a] of acc) {
  console.log(`${k} | ${(a.length / runs).toFixed(1)} | ${q(a, 0.5).toFixed(1)} | ${(sum(a) / a.length).toFixed(1)} | ${q(a, 0.9).toFixed(1)} | ${k.includes("repeat") ? "-" : `${((100 * sum(a)) / total).toFixed(1)}%`}`);
}
// GC inside the in-run calls.
let inGc = 0, hit = 0;
for (const [s, e] of intervals) {
  let o = 0;
  for (const [gs, ge] of gcs) if (ge > s && gs < e) o += Math.min(e, ge) - Math.max(s, gs);
  if (o > 0) hit++;
  inGc += o;
}
console.log(`generateAPIPodStatus in run: ${hit} of ${intervals.length} calls overlap a GC, ${(inGc / Math.max(1, intervals.length)).toFixed(2)} µs a call in GC; GCs in the measured runs: ${gcs.filter(([s]) => s >= t0).length}`);
