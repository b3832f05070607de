// The checker alone, A/B by CPU time: what a run feeds its checker (records written, times
// advanced at dropped records, apiserver writes, the end) is captured once from runs of the
// explore bench's scenario and of race hunt forms (RunContext.runIndex over this tree's compiled
// dist/, lazy records, as scripts/ab-cpu.ts runs them) in a child process, then replayed into fresh checkers of two
// trees in alternation, both loaded in this process. The checker is about an eighth of a run
// (scripts/profile-areas.ts), so a change to it that is 20% of its cost is 2-3% of a run, within
// the whole-run A/B's noise on a loaded host; here it is the whole figure. Both trees must report
// the same violations and expectations for every replayed run (the script says so when not).
// host-time-ok: a measuring tool. Build both trees first (`npm run build`).
//
//   node --import tsx scripts/checker-replay.ts --base /tmp/base-b274a74 [--explore 200] [--hunt r10,r20] [--hunt-runs 40] [--passes 20] [--warm 10]
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { serialize, deserialize } from "node:v8";
import { benchContexts } from "./bench_contexts.ts";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    explore: { type: "string", default: "200" },
    hunt: { type: "string", default: "r10,r20" },
    "hunt-runs": { type: "string", default: "40" },
    passes: { type: "string", default: "20" },
    warm: { type: "string", default: "10" },
    /** Internal: capture into this file and exit (run in a child, so neither tree's checker code is warmed by the capture). */
    "capture-to": { type: "string" },
  },
});
if (values.base === undefined && values["capture-to"] === undefined) {
  process.stderr.write("usage: node --import tsx scripts/checker-replay.ts --base DIR [--explore 200] [--hunt r10,r20] [--hunt-runs 40] [--passes 20] [--warm 10]\n");
  process.exit(2);
}
const root = resolve(join(import.meta.dirname, ".."));
const trees = [resolve(values.base ?? root), root];
const dist = (tree: string, path: string) => import(join(tree, "dist", `${path}.js`));
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** One input of a checker: a record written, time moved at a dropped record, an apiserver write at an instant, the end. */
type Input = ["w", Record<string, unknown> & { t: number }] | ["a", number] | ["api", unknown, number] | ["f", number];
interface Captured {
  scenario: unknown;
  byKind: boolean;
  inputs: Input[];
}

// ---- capture, with this tree's dist/ --------------------------------------------------------

async function capture(): Promise<Map<string, Captured[]>> {
  const { Checker } = await dist(root, "check/checker");
  const contexts = await benchContexts(root);
  const proto = Checker.prototype as Record<string, (...a: unknown[]) => unknown>;
  const orig = { attach: proto.attach!, write: proto.write!, advance: proto.advance!, onApiWrite: proto.onApiWrite!, finish: proto.finish! };
  let runs: Captured[] = [];
  const by = new WeakMap<object, Captured>();
  const of = (c: object): Captured | undefined => by.get(c);
  proto.attach = function (this: { kinds?: unknown; progress: { scenario: unknown } }, ...a: unknown[]) {
    const cap: Captured = { scenario: this.progress.scenario, byKind: this.kinds !== undefined, inputs: [] };
    by.set(this, cap);
    runs.push(cap);
    return orig.attach.apply(this, a);
  };
  proto.write = function (this: object, rec: unknown, line: unknown) {
    of(this)?.inputs.push(["w", rec as Record<string, unknown> & { t: number }]);
    return orig.write.call(this, rec, line);
  };
  proto.advance = function (this: object, t: unknown) {
    of(this)?.inputs.push(["a", t as number]);
    return orig.advance.call(this, t);
  };
  proto.onApiWrite = function (this: { sim: { nowMs: number } }, e: unknown) {
    of(this)?.inputs.push(["api", e, this.sim.nowMs]);
    return orig.onApiWrite.call(this, e);
  };
  proto.finish = function (this: object, sim: { nowMs: number }) {
    of(this)?.inputs.push(["f", sim.nowMs]);
    return orig.finish.call(this, sim);
  };
  const out = new Map<string, Captured[]>();
  const take = (label: string, ctx: { runIndex(i: number): unknown }, n: number): void => {
    runs = [];
    for (let i = 0; i < n; i++) ctx.runIndex(i);
    out.set(label, runs.filter((r) => r.byKind));
  };
  const exploreRuns = Number(values.explore);
  if (exploreRuns > 0) {
    take("explore", contexts.explore(), exploreRuns);
  }
  for (const form of values.hunt === "" ? [] : values.hunt.split(",")) {
    take(`hunt ${form}`, contexts.hunt(form), Number(values["hunt-runs"]));
  }
  Object.assign(proto, orig);
  return out;
}

// ---- replay, into either tree's checker ------------------------------------------------------

interface CheckerLike {
  attach(sim: unknown, node: unknown): void;
  write(rec: unknown, line: null): void;
  advance(t: number): void;
  finish(sim: unknown): void;
  report(): { violations: { invariant: string; t: number }[]; expectations: { ok: boolean; atMs: number | null }[] };
}
type CheckerClass = new (scenario: unknown, ids: undefined, opts: { byKind: boolean }) => CheckerLike;

/** One run's inputs into a fresh checker; its verdicts, as a string to compare the trees by. */
function replay(C: CheckerClass, cap: Captured): string {
  const sim = { nowMs: 0, emit(): void {} };
  const node = { apiObservers: [] as ((e: unknown) => void)[] };
  const checker = new C(cap.scenario, undefined, { byKind: cap.byKind });
  checker.attach(sim, node);
  const api = node.apiObservers[0]!;
  for (const input of cap.inputs) {
    switch (input[0]) {
      case "w":
        sim.nowMs = input[1].t;
        checker.write(input[1], null);
        break;
      case "a":
        sim.nowMs = input[1];
        checker.advance(input[1]);
        break;
      case "api":
        sim.nowMs = input[2];
        api(input[1]);
        break;
      case "f":
        sim.nowMs = input[1];
        checker.finish(sim);
    }
  }
  const r = checker.report();
  return `${r.violations.map((v) => `${v.invariant}@${v.t}`).join(",")}|${r.expectations.map((e) => `${e.ok}@${e.atMs}`).join(",")}`;
}

if (values["capture-to"] !== undefined) {
  writeFileSync(values["capture-to"], serialize(await capture()));
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), "checker-replay-"));
const file = join(dir, "inputs.bin");
const pass = ["explore", "hunt", "hunt-runs"].flatMap((k) => [`--${k}`, String(values[k as "explore"])]);
execFileSync(process.execPath, ["--import", "tsx", join(root, "scripts/checker-replay.ts"), ...pass, "--capture-to", file], { stdio: "inherit" });
const captured = deserialize(readFileSync(file)) as Map<string, Captured[]>;
rmSync(dir, { recursive: true });
const classes = await Promise.all(trees.map(async (t) => (await dist(t, "check/checker")).Checker as CheckerClass));
console.log(`old: ${trees[0]}\nnew: ${trees[1]}`);
for (const [label, runs] of captured) {
  const inputs = runs.reduce((a, r) => a + r.inputs.length, 0);
  const verdicts = classes.map((C) => runs.map((r) => replay(C, r)));
  const differ = verdicts[0]!.filter((v, i) => v !== verdicts[1]![i]).length;
  if (differ > 0) console.log(`${label}: ${differ} of ${runs.length} runs give other verdicts in the two trees`);
  const timed = (C: CheckerClass): number => {
    const t0 = cpuMs();
    for (const r of runs) replay(C, r);
    return cpuMs() - t0;
  };
  for (let i = 0; i < Number(values.warm); i++) for (const C of classes) timed(C);
  const ms = [0, 0];
  /** The fastest pass of each: the least disturbed by the host's other work. */
  const min = [Infinity, Infinity];
  const ratios: number[] = [];
  for (let i = 0; i < Number(values.passes); i++) {
    // Which tree goes first alternates: the second of a pair runs on the first one's warm caches.
    let a: number, b: number;
    if (i % 2 === 0) {
      a = timed(classes[0]!);
      b = timed(classes[1]!);
    } else {
      b = timed(classes[1]!);
      a = timed(classes[0]!);
    }
    ms[0] += a;
    ms[1] += b;
    min[0] = Math.min(min[0]!, a);
    min[1] = Math.min(min[1]!, b);
    ratios.push(a / b);
  }
  ratios.sort((x, y) => x - y);
  const per = (m: number) => ((m / Number(values.passes) / runs.length) * 1000).toFixed(1);
  console.log(`${label}: ${runs.length} runs, ${(inputs / runs.length).toFixed(0)} inputs a run; old ${per(ms[0]!)} us/run, new ${per(ms[1]!)} us/run; new/old speed ${(ms[0]! / ms[1]!).toFixed(2)}x, median of ${ratios.length} pass pairs ${ratios[Math.floor(ratios.length / 2)]!.toFixed(2)}x, fastest passes ${(min[0]! / min[1]!).toFixed(2)}x (${((min[0]! / runs.length) * 1000).toFixed(1)} and ${((min[1]! / runs.length) * 1000).toFixed(1)} us/run)`);
}
