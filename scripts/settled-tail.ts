// How much of a run happens after its last change: for the explore bench's scenario and each race's
// hunt form, run exploration indices in full (RunContext.runIndex over the compiled dist/, every
// record built) and find the last record that is not a quiet loop's (a relist, a runtime listing,
// the cache's UpdateTime, housekeeping, a status batch, a probe and its result, the checker's end).
// The kernel steps and the virtual time after it are the run's settled tail: work whose only
// product is the passage of time. An upper bound on what a run could save by ending once settled,
// not a design for it: whether the tail stays quiet (a probe's initial delay, a back-off's expiry,
// a scripted exit or fault later on) is a question the models answer only by running it.
// A developer tool: it patches the compiled kernel's and trace's prototypes in this process only.
//
//   npm run build && node --import tsx scripts/settled-tail.ts [--runs 20] [--forms r01,r20|all]
import { parseArgs } from "node:util";
import { join } from "node:path";
import { readdirSync } from "node:fs";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "20" },
    forms: { type: "string", default: "all" },
  },
});
const root = join(import.meta.dirname, "..");
const dist = (path: string) => import(join(root, "dist", `${path}.js`));

const { Sim } = await dist("sim/kernel");
const { Trace } = await dist("sim/trace");
const { makePlan } = await dist("explore/plan");
const { RunContext } = await dist("explore/context");
const { parseYaml } = await dist("scenario/yaml");
const { EXPLORE_BENCH_SCENARIO } = await import(join(root, "src/bench/explore.ts"));

/** Records a quiet pass makes: their presence after a time says only that the loops still run. */
const QUIET = new Set([
  "ListPodSandbox",
  "ListContainers",
  "UpdateTime",
  "relist",
  "Housekeeping",
  "SyncBatch",
  "ProbeRun",
  "Probe",
  "ProbeResult",
  "Expectation",
  "end",
  "run",
]);

let steps = 0;
let lastChangeStep = 0;
let lastChangeMs = 0;
let endMs = 0;
const proto = Sim.prototype as Record<string, (...a: unknown[]) => unknown>;
const origStep = proto.step!;
proto.step = function (this: unknown) {
  steps++;
  return origStep.call(this);
};
const tproto = Trace.prototype as Record<string, (...a: unknown[]) => unknown>;
const origEmit = tproto.emit!;
tproto.emit = function (this: unknown, t: number, component: string, kind: string, fields: unknown) {
  if (kind === "end") endMs = t;
  if (!QUIET.has(kind)) {
    lastChangeStep = steps;
    lastChangeMs = t;
  }
  return origEmit.call(this, t, component, kind, fields);
};

interface Tail {
  stepShare: number;
  timeShare: number;
}

function measure(ctx: { runIndex(i: number, full: boolean): unknown }, runs: number): Tail[] {
  const out: Tail[] = [];
  for (let i = 0; i < runs; i++) {
    steps = 0;
    lastChangeStep = 0;
    lastChangeMs = 0;
    endMs = 0;
    ctx.runIndex(i, true);
    out.push({ stepShare: steps === 0 ? 0 : (steps - lastChangeStep) / steps, timeShare: endMs === 0 ? 0 : Math.max(0, endMs - lastChangeMs) / endMs });
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

function report(label: string, tails: Tail[]): void {
  const st = tails.map((t) => t.stepShare);
  const tt = tails.map((t) => t.timeShare);
  const mean = st.reduce((a, b) => a + b, 0) / st.length;
  console.log(`| ${label} | ${tails.length} | ${pct(median(st))} | ${pct(mean)} | ${pct(Math.min(...st))}–${pct(Math.max(...st))} | ${pct(median(tt))} |`);
}

const runs = Number(values.runs);
console.log("| scenario | runs | kernel steps after the last change (median) | mean | range | virtual time after it (median) |");
console.log("|---|---|---|---|---|---|");
{
  const y = parseYaml(EXPLORE_BENCH_SCENARIO, "bench-explore.yaml");
  const ctx = new RunContext(makePlan({ source: { raw: y.value, label: "bench-explore.yaml" }, strategy: "pct" }));
  report("explore bench", measure(ctx, runs));
}
const huntDir = join(root, "scenarios/races/hunt");
const all = readdirSync(huntDir).filter((f) => f.endsWith("-hunt.yaml")).map((f) => f.replace(/-hunt\.yaml$/, ""));
const forms = values.forms === "all" ? all : values.forms!.split(",");
for (const form of forms) {
  const ctx = new RunContext(makePlan({ source: { file: join(huntDir, `${form}-hunt.yaml`) }, strategy: "pct" }));
  report(form, measure(ctx, runs));
}
