// What lockstep batches save, in one tree and one process: K exploration runs advanced S events at
// a time, round robin (src/explore/lockstep.ts's advanceInLockstep, written out here so that any K
// and S can be tried, and a tree from before the batches measured), against the same K runs each to
// its end before the next, by CPU time, the two modes alternating round by round (each round's
// first mode alternates too). Both modes must give the same runs (choices digest, verdict, events).
// S = 0 starts all K and then runs each to its end (holding K runs at once, not interleaving them);
// S < 0 slices by virtual time instead, |S| ms a turn. A developer tool: the figures of
// docs/BENCHMARKS-history.md's "Runs in lockstep" come from it.
//
//   npm run build && node --import tsx scripts/lockstep-cost.ts [--tree DIR] [--k 8] [--s 4] [--rounds 100] [--warm 800] [--form explore|r10]
import { parseArgs } from "node:util";
import { join } from "node:path";

const { values } = parseArgs({
  options: {
    tree: { type: "string", default: join(import.meta.dirname, "..") },
    k: { type: "string", default: "8" },
    s: { type: "string", default: "4" },
    rounds: { type: "string", default: "100" },
    warm: { type: "string", default: "800" },
    form: { type: "string", default: "explore" },
  },
});
const tree = values.tree;
const [K, S, ROUNDS, WARM] = [values.k, values.s, values.rounds, values.warm].map(Number) as [number, number, number, number];
const dist = (p: string) => import(join(tree, "dist", `${p}.js`));
const { RunContext } = await dist("explore/context");
const { makePlan } = await dist("explore/plan");
const { parseYaml } = await dist("scenario/yaml");
const { startSimulation } = await dist("simulate");
const { runSeed } = await dist("explore/seeds");
const { compileClusterPlan } = await dist("node/plan");
const { EXPLORE_BENCH_SCENARIO } = await import(join(tree, "src/bench/explore.ts"));
const ctx = values.form === "explore"
  ? new RunContext(makePlan({ source: { raw: parseYaml(EXPLORE_BENCH_SCENARIO, "bench-explore.yaml").value, label: "bench-explore.yaml" }, strategy: "pct" }))
  : new RunContext(makePlan({ source: { file: join(tree, "scenarios/races/hunt", `${values.form}-hunt.yaml`) }, strategy: "pct" }));

const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };

/** Run i started as an exploration's lazy run is (RunContext.run's options), not yet run. */
function start(i: number) {
  const scenario = ctx.scenarioFor(i).scenario;
  return startSimulation(scenario, {
    seed: runSeed(ctx.plan.seed, i), strategy: ctx.runnable, strategyLabel: ctx.label, scenarioFile: ctx.plan.file, sinks: [], keepRecords: false, hash: false,
    plan: scenario === ctx.base ? ctx.basePlan : compileClusterPlan(scenario, ctx.basePlan),
  });
}
const named = (h: any) => { const r = h.finish().run; return `${r.choices.digest()}/${r.verdict}/${r.events}`; };

function oneByOne(base: number): string[] {
  return Array.from({ length: K }, (_, k) => named(start(base + k)));
}

function lockstep(base: number): string[] {
  const hs = Array.from({ length: K }, (_, k) => start(base + k));
  if (S === 0) return hs.map(named);
  let live = hs.map((h) => h.sim);
  for (let t = -S; live.length > 0; t += -S) {
    live = live.filter((sim) => S > 0 ? sim.runSlice(Number.POSITIVE_INFINITY, S) === "budget" : sim.runSlice(t, 1e9) === "paused");
  }
  return hs.map(named);
}

for (let w = 0; w < Math.ceil(WARM / K); w++) { oneByOne(w * K); lockstep(w * K); }
const spent = { one: 0, lock: 0 };
const ratios: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const base = 1_000_000 + r * K;
  const order = r % 2 === 0 ? (["one", "lock"] as const) : (["lock", "one"] as const);
  const got: Record<string, string[]> = {};
  const ms: Record<string, number> = {};
  for (const mode of order) {
    const t0 = cpuMs();
    got[mode] = mode === "one" ? oneByOne(base) : lockstep(base);
    ms[mode] = cpuMs() - t0;
    spent[mode] += ms[mode]!;
  }
  if (got.one!.join() !== got.lock!.join()) throw new Error(`round ${r}: the runs differ in lockstep: ${got.one!.join()} / ${got.lock!.join()}`);
  ratios.push(ms.one! / ms.lock!);
}
ratios.sort((a, b) => a - b);
const per = (ms: number) => (ms / ROUNDS / K).toFixed(2);
console.log(`${values.form} K=${K} S=${S} (${ROUNDS} rounds after ${WARM} warm-up runs of each mode): one by one ${per(spent.one)} ms/run, lockstep ${per(spent.lock)} ms/run; lockstep speed ${(spent.one / spent.lock).toFixed(2)}x, median of rounds ${ratios[ROUNDS >> 1]!.toFixed(2)}x (same runs)`);
