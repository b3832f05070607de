// What the kernel alone costs a probe worker's period, and how that cost grows with the number of
// workers (their objects' working set) at the same count of events. host-time-ok: a measuring
// tool, like src/bench/ and scripts/ab-cpu.ts.
//
//   node --import tsx scripts/tick-cost.ts TREE [--workers 440] [--period 10000] [--minutes 30] [--runs 10]
//
// TREE's compiled dist/ (`npm run build` there). Each worker is the prober's worker.go loop without
// the prober: a ticker of --period ms at its own phase, a select on [stop, ticker.C, trigger] built
// once (sim/ops.ts selectOp), and a call of 1-3 ms (the probe) between two ticks; no trace is kept.
// Keep workers/period fixed to compare trees (the events are the same); scale both together
// (44/1000, 440/10000, 4400/100000) to see the working set's share at the same tick rate.
// Prints the least and the median CPU ms of --runs runs after two of warm-up: on a shared host the
// least is the run least disturbed. Run one tree per process, in turn, several times.
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    workers: { type: "string", default: "440" },
    period: { type: "string", default: "10000" },
    minutes: { type: "string", default: "30" },
    runs: { type: "string", default: "10" },
  },
});
if (positionals.length !== 1) {
  process.stderr.write("usage: node --import tsx scripts/tick-cost.ts TREE [--workers 440] [--period 10000] [--minutes 30] [--runs 10]\n");
  process.exit(2);
}
const tree = resolve(positionals[0]!);
const workers = Number(values.workers);
const periodMs = Number(values.period);
const untilMs = Number(values.minutes) * 60_000;
const runs = Number(values.runs);
const api = await import(join(tree, "dist/sim/index.js"));
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** One run: the workers, each its ticker, select and call, up to --minutes of virtual time. */
function run(): number {
  const { Sim, recvCase, selectOp, again, callOp, sleep } = api;
  const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, hash: false });
  for (let i = 0; i < workers; i++) {
    const stop = sim.chan(`stop${i}`, 0);
    const trigger = sim.chan(`trigger${i}`, 1);
    sim.go(`worker${i}`, function* () {
      yield* sleep((i * 7919) % periodMs);
      const ticker = sim.newTicker(`ticker${i}`, periodMs);
      const wait = selectOp([recvCase(stop), recvCase(ticker.C), recvCase(trigger)]);
      const probe = callOp(1 + (i % 3), "probe", () => true);
      for (;;) {
        yield again(probe);
        const c = yield again(wait);
        if (c.index === 0) break;
      }
    }, { daemon: true });
  }
  sim.runUntil(untilMs);
  return countEvents(sim);
}

/** The events of a paused run (the kernel counts them privately until the run's end). */
function countEvents(sim: unknown): number {
  return (sim as { events: number }).events;
}

for (let i = 0; i < 2; i++) run();
const times: number[] = [];
let events = 0;
for (let i = 0; i < runs; i++) {
  const c0 = cpuMs();
  events = run();
  times.push(cpuMs() - c0);
}
times.sort((a, b) => a - b);
const least = times[0]!;
const median = times[runs >> 1]!;
console.log(
  `${tree}: ${workers} workers, period ${periodMs} ms, ${events} events: least ${least.toFixed(1)} ms CPU ` +
    `(${((1000 * least) / events).toFixed(3)} µs/event), median ${median.toFixed(1)} ms`,
);
