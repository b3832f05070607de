// A census of what a run does, for finding work repeated without effect: per run of the explore
// bench's scenario or of a race's hunt form (RunContext.runIndex over the compiled dist/, as
// scripts/ab-cpu.ts runs them), how many kernel steps each goroutine takes, which operations it
// yields (timer sleeps, channel operations, CRI calls, apiserver requests), how many timer entries
// fire, which records are built and which dropped, and how many monitor calls each built record
// costs. A developer tool: it patches the compiled classes' prototypes in this process only, and
// nothing it counts enters a run (the same runs, the same choices).
//
//   npm run build && node --import tsx scripts/census.ts [--explore 200] [--hunt r10,r20] [--hunt-runs 40] [--top 25]
import { parseArgs } from "node:util";
import { join } from "node:path";

const { values } = parseArgs({
  options: {
    explore: { type: "string", default: "200" },
    hunt: { type: "string", default: "r10,r20" },
    "hunt-runs": { type: "string", default: "40" },
    top: { type: "string", default: "25" },
  },
});
const root = join(import.meta.dirname, "..");
const dist = (path: string) => import(join(root, "dist", `${path}.js`));

const { Sim } = await dist("sim/kernel");
const { Trace } = await dist("sim/trace");
const ops = await dist("sim/ops");
const { MonitorDispatch } = await dist("check/dispatch");
const { makePlan } = await dist("explore/plan");
const { RunContext } = await dist("explore/context");
const { parseYaml } = await dist("scenario/yaml");
const { EXPLORE_BENCH_SCENARIO } = await import(join(root, "src/bench/explore.ts"));

const OP_NAMES = ["sleep", "recv", "send", "select", "lock", "rlock", "wait", "point", "gosched", "wlock", "call", "then", "gen"];

/** A goroutine's name without what varies per pod or per repeat ("podworker/default/web#2" → "podworker"). */
function loopName(name: string): string {
  const base = name.replace(/#\d+$/, "");
  const slash = base.indexOf("/");
  return slash < 0 ? base : base.slice(0, slash);
}
/** A call's label without its object ("GET /api/v1/namespaces/default/pods/web" → "GET pods"). */
function callName(label: string): string {
  const m = /^(\w+) \/api\/v1\/(?:namespaces\/[^/]+\/)?(\w+)(?:\/[^/ ]+)?(\/status)?/.exec(label);
  if (m !== null) return `${m[1]} ${m[2]}${m[3] ?? ""}${label.includes("(response)") ? " (response)" : label.includes("(partitioned)") ? " (partitioned)" : ""}`;
  return label;
}

class Counter extends Map<string, number> {
  add(k: string, n = 1): void {
    this.set(k, (this.get(k) ?? 0) + n);
  }
  total(): number {
    let t = 0;
    for (const v of this.values()) t += v;
    return t;
  }
}

interface Census {
  runs: number;
  steps: Counter; // resumes by loop
  passes: Counter; // kernel step() calls (a wake to a park) by loop
  quietPasses: Counter; // passes that built or dropped no record, made no call and sent nothing
  opsByKind: Counter; // operation kinds yielded (calls by label)
  opsByLoop: Counter;
  fires: Counter; // timed entries fired: "timer action" or "sleeper"
  built: Counter; // records built by kind
  dropped: Counter; // records dropped (emit or wants false) by kind
  emitters: Counter; // records built+dropped by loop
  observes: Counter; // monitor observe calls by record kind
  advances: number; // monitor advance calls
  stepNs: Counter; // wall ns inside kernel steps, by goroutine (instrumented: shares, not speeds)
  runNs: number; // wall ns in Sim.run
  totalNs: number; // wall ns in runIndex
}

const fresh = (): Census => ({
  runs: 0, steps: new Counter(), passes: new Counter(), quietPasses: new Counter(), opsByKind: new Counter(), opsByLoop: new Counter(),
  fires: new Counter(), built: new Counter(), dropped: new Counter(), emitters: new Counter(), observes: new Counter(), advances: 0, stepNs: new Counter(), runNs: 0, totalNs: 0,
});
let c = fresh();
let current = "(kernel)";
let passEffects = 0;

const proto = Sim.prototype as Record<string, (...a: unknown[]) => unknown>;
const origStep = proto.step!;
proto.step = function (this: { ready: { length: number; at(i: number): { name: string } } }) {
  passEffects = 0;
  const t0 = process.hrtime.bigint();
  const r = origStep.call(this);
  c.stepNs.add(current, Number(process.hrtime.bigint() - t0));
  c.passes.add(current);
  if (passEffects === 0) c.quietPasses.add(current);
  current = "(kernel)";
  return r;
};
const origRun = proto.run!;
proto.run = function (this: unknown) {
  const t0 = process.hrtime.bigint();
  const r = origRun.call(this);
  c.runNs += Number(process.hrtime.bigint() - t0);
  return r;
};
const origCount = proto.countStep!;
proto.countStep = function (this: unknown, p: { name: string }) {
  current = loopName(p.name);
  c.steps.add(current);
  return origCount.call(this, p);
};
const origFire = proto.fire!;
proto.fire = function (this: unknown, e: { action: unknown; proc: { state: number } | null }) {
  c.fires.add(e.action !== null ? "timer/ticker action" : "sleeper wakes");
  return origFire.call(this, e);
};
ops.opWatch.onOp = (op: { code: number; label: string }) => {
  const kind = op.code === ops.OP_CALL ? `call ${callName(op.label)}` : OP_NAMES[op.code]!;
  if (op.code === ops.OP_THEN || op.code === ops.OP_GEN) return;
  c.opsByKind.add(kind);
  c.opsByLoop.add(`${current}: ${kind}`);
  if (op.code === ops.OP_CALL || op.code === ops.OP_SEND) passEffects++;
};
const tproto = Trace.prototype as Record<string, (...a: unknown[]) => unknown>;
const origEmit = tproto.emit!;
tproto.emit = function (this: { wanted: ReadonlySet<string> | null }, t: number, component: string, kind: string, fields: unknown) {
  const r = origEmit.call(this, t, component, kind, fields);
  (r === null ? c.dropped : c.built).add(kind);
  c.emitters.add(`${current}: ${kind}`);
  passEffects++;
  return r;
};
const origWants = tproto.wants!;
tproto.wants = function (this: unknown, kind: string, t: number) {
  const w = origWants.call(this, kind, t);
  if (w === false) {
    c.dropped.add(kind);
    c.emitters.add(`${current}: ${kind}`);
    passEffects++;
  }
  return w;
};
const dproto = MonitorDispatch.prototype as Record<string, (...a: unknown[]) => unknown>;
const origDeliver = dproto.deliver!;
dproto.deliver = function (this: { table: { routes: Map<string, { observes: boolean }[]>; otherwise: { observes: boolean }[] } }, rec: { kind: string }, onV: unknown) {
  const steps = this.table.routes.get(rec.kind) ?? this.table.otherwise;
  let n = 0;
  for (const s of steps) if (s.observes) n++;
  c.observes.add(rec.kind, n);
  return origDeliver.call(this, rec, onV);
};
const origAdvance = dproto.advance!;
dproto.advance = function (this: unknown, t: number, onV: unknown) {
  c.advances++;
  return origAdvance.call(this, t, onV);
};

const top = Number(values.top);
function table(title: string, counts: Counter, runs: number, extra?: (k: string) => string): void {
  const total = counts.total();
  console.log(`\n${title}: ${(total / runs).toFixed(1)} a run`);
  const rows = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [k, v] of rows) console.log(`  ${(v / runs).toFixed(1).padStart(9)}  ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}${extra === undefined ? "" : extra(k)}`);
}

function report(label: string): void {
  const n = c.runs;
  console.log(`\n===== ${label}: ${n} runs =====`);
  table("kernel steps (resumes) by goroutine", c.steps, n, (k) => {
    const p = c.passes.get(k) ?? 0;
    return `   (passes ${(p / n).toFixed(1)}, of which without a record, call or send ${(((c.quietPasses.get(k) ?? 0) / Math.max(1, p)) * 100).toFixed(0)}%)`;
  });
  table("operations yielded, by kind", c.opsByKind, n);
  table("operations yielded, by goroutine and kind", c.opsByLoop, n);
  table("timed entries fired", c.fires, n);
  table("records built, by kind", c.built, n, (k) => `   (monitor observe calls ${((c.observes.get(k) ?? 0) / n).toFixed(1)})`);
  console.log(`\nmonitor observe calls: ${(c.observes.total() / n).toFixed(1)} a run, for ${(c.built.total() / n).toFixed(1)} records built`);
  table("records dropped unbuilt (no reader), by kind", c.dropped, n);
  table("records built or dropped, by goroutine and kind", c.emitters, n);
  const inSteps = c.stepNs.total();
  console.log(`\nwall time (instrumented, host-time-ok: a measuring tool): runIndex ${(c.totalNs / n / 1e3).toFixed(0)} us a run, Sim.run ${(c.runNs / n / 1e3).toFixed(0)} us, kernel steps ${(inSteps / n / 1e3).toFixed(0)} us; set-up and checker report ${(((c.totalNs - c.runNs) / c.totalNs) * 100).toFixed(0)}%, steps ${((inSteps / c.totalNs) * 100).toFixed(0)}%, the kernel's clock and timer actions ${(((c.runNs - inSteps) / c.totalNs) * 100).toFixed(0)}%`);
  table("wall time in kernel steps, by goroutine (us)", new Counter([...c.stepNs].map(([k, v]) => [k, v / 1e3])), n);
  console.log(`\nmonitor advance passes (time moved at a dropped record): ${(c.advances / n).toFixed(1)} a run`);
}

const exploreRuns = Number(values.explore);
if (exploreRuns > 0) {
  const y = parseYaml(EXPLORE_BENCH_SCENARIO, "bench-explore.yaml");
  const ctx = new RunContext(makePlan({ source: { raw: y.value, label: "bench-explore.yaml" }, strategy: "pct" }));
  for (let i = 0; i < 300; i++) ctx.runIndex(100_000 + i); // warm-up
  c = fresh();
  for (let i = 0; i < exploreRuns; i++) {
    const t0 = process.hrtime.bigint();
    ctx.runIndex(i);
    c.totalNs += Number(process.hrtime.bigint() - t0);
    c.runs++;
  }
  report("explore bench scenario (pct, lazy records)");
}
for (const form of values.hunt === "" ? [] : values.hunt.split(",")) {
  const ctx = new RunContext(makePlan({ source: { file: join(root, "scenarios/races/hunt", `${form}-hunt.yaml`) }, strategy: "pct" }));
  for (let i = 0; i < 20; i++) ctx.runIndex(100_000 + i); // warm-up
  c = fresh();
  for (let i = 0; i < Number(values["hunt-runs"]); i++) {
    const t0 = process.hrtime.bigint();
    ctx.runIndex(i);
    c.totalNs += Number(process.hrtime.bigint() - t0);
    c.runs++;
  }
  report(`hunt ${form}`);
}
