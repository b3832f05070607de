// What a swarm run's knobs and coverage cost, in CPU time (process.cpuUsage), measured alternately
// in one process so the shared machine's load falls on both sides alike:
//   node --import tsx scripts/swarm-cost.ts [FILE] [--runs 200]
// 1. a run's scenario: its knobs drawn and applied to the compiled scenario (what explore does),
//    against the raw scenario rebuilt and compiled through the schema (what it did before);
// 2. a run: under pos with the generic swarm, without and with the coverage observer.
import { parseArgs } from "node:util";
import { compileRawOrThrow, CoverageSink, drawKnobs, applyKnobsRaw, makePlan, RunContext, runSeed } from "../src/explore/index.ts";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: "string", default: "200" } } });
const file = positionals[0] ?? "scenarios/races/hunt/r20-hunt.yaml";
const runs = Number(values.runs);
const plan = makePlan({ source: { file }, strategy: "pos", swarm: "auto", seed: 1 });
const ctx = new RunContext(plan);
const space = ctx.space!;

const cpuMs = (f: () => void): number => {
  const t = process.cpuUsage(); // host-time-ok: a measuring script
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};

let patched = 0;
let compiled = 0;
let plain = 0;
let covered = 0;
for (let i = 0; i < runs; i++) {
  const seed = runSeed(plan.seed, i);
  patched += cpuMs(() => void ctx.scenarioFor(i));
  compiled += cpuMs(() => void compileRawOrThrow(applyKnobsRaw(plan.raw, space, drawKnobs(space, seed)), file));
  const { scenario } = ctx.scenarioFor(i);
  if (i % 2 === 0) {
    plain += cpuMs(() => void ctx.run(scenario, seed, { hash: false }));
    covered += cpuMs(() => void ctx.run(scenario, seed, { hash: false, sinks: [new CoverageSink()] }));
  } else {
    covered += cpuMs(() => void ctx.run(scenario, seed, { hash: false, sinks: [new CoverageSink()] }));
    plain += cpuMs(() => void ctx.run(scenario, seed, { hash: false }));
  }
}
const per = (ms: number) => (ms / runs).toFixed(3);
process.stdout.write(`${file}, ${runs} runs under pos --swarm auto (CPU ms per run):\n`);
process.stdout.write(`  scenario: knobs applied to the compiled scenario ${per(patched)}; rebuilt and compiled through the schema ${per(compiled)}\n`);
process.stdout.write(`  run: without coverage ${per(plain)}; with coverage ${per(covered)} (${(((covered - plain) / plain) * 100).toFixed(1)} % more)\n`);
