// The node bench's scenario (src/bench/node.ts, 110 pods with two probed containers each) split in
// its start-up and its steady minutes: what each costs in CPU, for one tree alone in this process.
// host-time-ok: a measuring tool, like src/bench/ and scripts/ab-cpu.ts.
//
//   node --import tsx scripts/node-steady.ts TREE [--from 2] [--until 60] [--warm 3] [--profile FILE] [--interval 50]
//
// TREE's compiled dist/ (`npm run build` there) runs --warm virtual minutes of the scenario first
// (JIT warm-up, as the bench's second repetition has it), then a fresh run: the CPU time to build it
// and run it to --from minutes (the pods' creation: every pod runs and is Ready by 2 minutes), then
// that of the minutes --from..--until, each with its speed in real time, and the trace hash. Run it
// for each tree in turn, several times (the trees share no heap, and neither is loaded second).
// --profile FILE: V8's sampling profiler (node:inspector, every --interval µs) over the steady
// minutes alone, written as a .cpuprofile (the CPU figures then include the profiler's cost).
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: "string", default: "2" },
    until: { type: "string", default: "60" },
    warm: { type: "string", default: "3" },
    profile: { type: "string" },
    interval: { type: "string", default: "50" },
  },
});
if (positionals.length !== 1) {
  process.stderr.write("usage: node --import tsx scripts/node-steady.ts TREE [--from 2] [--until 60] [--warm 3] [--profile FILE] [--interval 50]\n");
  process.exit(2);
}
const tree = resolve(positionals[0]!);
const from = Number(values.from);
const until = Number(values.until);
const warm = Number(values.warm);
const { nodeScenarioYaml } = await import(join(tree, "src/bench/node.ts"));
const { loadScenarioText } = await import(join(tree, "dist/scenario/index.js"));
const { startSimulation } = await import(join(tree, "dist/simulate.js"));
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const sink = { wantsLines: false, write() {} };
/** Runs to each 5-second mark in turn, as ab-cpu's lockstep and the bench's sink see it. */
const runTo = (h: { sim: { runUntil(ms: number): unknown } }, fromMs: number, untilMs: number) => {
  for (let t = fromMs + 5000; t <= untilMs; t += 5000) h.sim.runUntil(t);
};

if (warm > 0) {
  const { scenario } = loadScenarioText(nodeScenarioYaml(110, `${warm}m`), "node-110-pods.yaml");
  const w = startSimulation(scenario, { sinks: [sink], keepRecords: false });
  runTo(w, 0, warm * 60_000);
  w.finish();
}
const c0 = cpuMs();
const { scenario } = loadScenarioText(nodeScenarioYaml(110, `${until}m`), "node-110-pods.yaml");
const h = startSimulation(scenario, { sinks: [sink], keepRecords: false });
runTo(h, 0, from * 60_000);
const session = values.profile === undefined ? null : new Session();
if (session !== null) {
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: Number(values.interval) });
  session.post("Profiler.start");
}
const c1 = cpuMs();
runTo(h, from * 60_000, until * 60_000);
const c2 = cpuMs();
if (session !== null) {
  session.post("Profiler.stop", (err, r) => {
    if (err) throw err;
    writeFileSync(values.profile!, JSON.stringify((r as unknown as { profile: unknown }).profile));
  });
  session.disconnect();
}
const run = h.finish().run;
const x = (virtualMin: number, ms: number) => `${((virtualMin * 60_000) / ms).toFixed(0)}x`;
console.log(
  `${tree}: start-up to ${from}m ${(c1 - c0).toFixed(0)} ms CPU (${x(from, c1 - c0)}), minutes ${from}-${until} ${(c2 - c1).toFixed(0)} ms CPU (${x(until - from, c2 - c1)}), ` +
    `whole ${(c2 - c0).toFixed(0)} ms CPU (${x(until, c2 - c0)}); ${run.traceHash}, ${run.events} events`,
);
