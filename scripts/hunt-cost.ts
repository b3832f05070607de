// Where a hunt form's exploration time goes, per run, in this process's CPU time:
//
//   node --import tsx scripts/hunt-cost.ts [--runs 40] [--forms r01,r10] [--json]
//
// For each race's hunt form explored as `kubelet-sim explore` explores it (pct, every invariant,
// the form's swarm), the parts of one run's cost that RunContext.runIndex pays: drawing the swarm
// variant and compiling it (the scenario as JSON text, parsed and validated again), the lazy run,
// and for a failing run the second run with every record and the hash. Also the kernel events and
// virtual time of a run, and the runs/s these costs allow. The costs are measured on runs 10 to
// 10+N (after ten warm-up runs). A developer tool beside `npm run bench -- hunt-speed`, which
// measures the whole command; this one says why a form is slow (docs/BENCHMARKS.md).
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parseForms } from "../src/bench/args.ts";
import { formName, huntForms } from "../src/bench/hunt.ts";
import { makePlan, RunContext } from "../src/explore/index.ts";
import { runSeed } from "../src/explore/seeds.ts";

const WARM_UP_RUNS = 10;

const { values } = parseArgs({ options: { runs: { type: "string", default: "40" }, forms: { type: "string" }, json: { type: "boolean", default: false } } });
const runs = Number(values.runs);
if (!(Number.isInteger(runs) && runs > 0)) throw new Error(`--runs ${values.runs}: expected a whole number above 0`);

interface FormCost {
  form: string;
  runs: number;
  failing: number;
  /** Mean CPU ms per run of each part; rerunMs is spread over all runs (0 for a passing run). */
  compileMs: number;
  lazyMs: number;
  rerunMs: number;
  eventsPerRun: number;
  virtualSecondsPerRun: number;
  /** 1000 / (compile + lazy + re-run): what these costs allow, before the process's own overheads. */
  runsPerSec: number;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function measure(file: string): FormCost {
  const plan = makePlan({ source: { file }, strategy: "pct" });
  const ctx = new RunContext(plan);
  for (let i = 0; i < WARM_UP_RUNS; i++) ctx.run(ctx.scenarioFor(i).scenario, runSeed(plan.seed, i), {});
  const sum = { compile: 0, lazy: 0, rerun: 0, events: 0, virtualMs: 0, failing: 0 };
  for (let i = WARM_UP_RUNS; i < WARM_UP_RUNS + runs; i++) {
    const seed = runSeed(plan.seed, i);
    let t = cpuMs();
    const { scenario } = ctx.scenarioFor(i);
    sum.compile += cpuMs() - t;
    t = cpuMs();
    const r = ctx.run(scenario, seed, {});
    sum.lazy += cpuMs() - t;
    sum.events += r.result.run.events;
    sum.virtualMs += r.result.run.endMs;
    if (r.failure === null) continue;
    sum.failing++;
    t = cpuMs();
    ctx.run(scenario, seed, { hash: true });
    sum.rerun += cpuMs() - t;
  }
  const per = (x: number) => Math.round((x / runs) * 100) / 100;
  return {
    form: formName(file), runs, failing: sum.failing,
    compileMs: per(sum.compile), lazyMs: per(sum.lazy), rerunMs: per(sum.rerun),
    eventsPerRun: Math.round(sum.events / runs), virtualSecondsPerRun: Math.round(sum.virtualMs / runs / 1000),
    runsPerSec: Math.round((1000 / ((sum.compile + sum.lazy + sum.rerun) / runs)) * 10) / 10,
  };
}

const forms = huntForms(join(import.meta.dirname, ".."), values.forms === undefined ? null : parseForms(values.forms));
if (!values.json) process.stdout.write("| form | failing | compile ms | lazy run ms | re-run ms | events/run | virtual s/run | runs/s these allow |\n|---|---|---|---|---|---|---|---|\n");
for (const file of forms) {
  const c = measure(file);
  process.stdout.write(values.json ? `${JSON.stringify(c)}\n` : `| ${c.form} | ${c.failing}/${c.runs} | ${c.compileMs} | ${c.lazyMs} | ${c.rerunMs} | ${c.eventsPerRun} | ${c.virtualSecondsPerRun} | ${c.runsPerSec} |\n`);
}
