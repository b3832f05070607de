// Node/V8 flags against none, by the CPU time of whole processes (user + sys, as `time` counts it:
// start-up and TurboFan's background compiles included). host-time-ok: a measuring tool, like
// src/bench/ and scripts/ab-cpu.ts. Written for "Less machine code (inline)" in docs/BENCHMARKS.md.
//
//   node --import tsx scripts/flag-rounds.ts [--rounds 6] --variant 'D=' --variant 'Q=--max-inlined-bytecode-size=115' -- ARGS...
//
// Each round runs `node FLAGS ARGS...` once for every variant, the order rotated by one each round
// (so each variant runs before and after the first one equally often: on a shared machine the
// process that runs second in a pair is not loaded alike). The first variant is the base; for each
// other one it prints the median over rounds of that round's CPU ratio (below 1: less CPU), its
// min-max, the ratio split by whether the variant ran before or after the base in the round, and
// the least-of ratio (its least CPU over the base's). Every run's output must name the same run:
// the JSON line's runsDigest, or a "HASH, N events" figure (scripts/node-steady.ts,
// cluster-steady.ts); the script says so when two differ. The 1-minute load average is printed at
// the start and at the end.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { runTimedSync } from "../src/bench/against/proc.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: "string", default: "6" }, variant: { type: "string", multiple: true, default: [] } },
});
const variants = values.variant.map((v) => ({ name: v.slice(0, v.indexOf("=")), flags: v.slice(v.indexOf("=") + 1).split(/\s+/).filter((f) => f !== "") }));
if (variants.length < 2 || positionals.length === 0) {
  process.stderr.write("usage: node --import tsx scripts/flag-rounds.ts [--rounds N] --variant 'NAME=FLAGS' --variant ... -- ARGS...\n");
  process.exit(2);
}
const rounds = Number(values.rounds);
const cpu = new Map<string, number[]>(variants.map((v) => [v.name, []]));
const before = new Map<string, boolean[]>(variants.map((v) => [v.name, []]));
const digests = new Set<string>();
const load = () => loadavg()[0]!.toFixed(2);
console.log(`load ${load()} at the start; ${rounds} rounds of ${variants.map((v) => v.name).join(", ")}: node FLAGS ${positionals.join(" ")}`);

for (let r = 0; r < rounds; r++) {
  const order = variants.map((_, i) => variants[(r + i) % variants.length]!);
  order.forEach((v, i) => before.get(v.name)!.push(i < order.findIndex((o) => o === variants[0])));
  for (const v of order) {
    const run = runTimedSync(process.execPath, [...v.flags, ...positionals], { cwd: process.cwd() });
    if (run.code !== 0 && run.code !== 1) throw new Error(`${v.name} exited ${String(run.code)}: ${run.stderr.slice(-400)}`);
    digests.add(/"runsDigest":"[0-9a-f]+"|[0-9a-f]{16}, \d+ events/.exec(run.stdout)?.[0] ?? "(none)");
    cpu.get(v.name)!.push(run.cpuMs / 1000);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
};
const f3 = (x: number | undefined) => (x === undefined ? "-" : x.toFixed(3));
const base = cpu.get(variants[0]!.name)!;
console.log(`${variants[0]!.name}: CPU s min ${Math.min(...base).toFixed(2)} median ${median(base).toFixed(2)}`);
for (const v of variants.slice(1)) {
  const mine = cpu.get(v.name)!;
  const ratios = mine.map((c, i) => c / base[i]!);
  const side = (b: boolean) => ratios.filter((_, i) => before.get(v.name)![i] === b);
  const split = (b: boolean) => (side(b).length === 0 ? "-" : `${f3(median(side(b)))} (${side(b).length})`);
  console.log(
    `${v.name}: CPU s min ${Math.min(...mine).toFixed(2)} median ${median(mine).toFixed(2)}; ratio median ${f3(median(ratios))} ` +
      `(${f3(Math.min(...ratios))}-${f3(Math.max(...ratios))}), run first ${split(true)}, run second ${split(false)}; least-of ${f3(Math.min(...mine) / Math.min(...base))}`,
  );
}
console.log(`same run in every process: ${digests.size === 1 ? `yes, ${[...digests][0]}` : `NO: ${[...digests].join(" ")}`}; load ${load()} at the end`);
