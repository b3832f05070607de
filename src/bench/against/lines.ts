// The lines of `--against`, each measured on both trees alternately with the same workload. The
// kernel and the node hour run in each tree's measuring process (runner.ts) on the tree's built
// library; explore, cli-startup and hunt-speed run each tree's own CLI as a user runs it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgainstLineName } from "../args.ts";
import { exploreRate } from "../hunt.ts";
import { EXPLORE_BENCH_SCENARIO } from "../workloads.ts";
import { compare, median, unmeasured, type Comparison } from "./compare.ts";
import { alternately, pairOrder, type LineContext, type Side } from "./context.ts";
import { huntSpeed } from "./hunt_speed.ts";
import { runTimed } from "./proc.ts";

export type AgainstLine = (ctx: LineContext) => Promise<Comparison[]>;

export const LINES: Record<AgainstLineName, AgainstLine> = {
  kernel,
  explore: (ctx) => explore(ctx, 1),
  "explore-jobs2": (ctx) => explore(ctx, 2),
  "node-110-pods-1h": nodeHour,
  "cluster-100x110-1h": clusterHour,
  "cli-startup": cliStartup,
  "hunt-speed": huntSpeed,
  "hostile-input": hostileInput,
};

/**
 * The kernel's events per second of wall and of CPU time, its ratio to the bare loop (by CPU
 * time), and the bare loop itself: the same code on both sides, so its ratio shows the noise.
 */
async function kernel(ctx: LineContext): Promise<Comparison[]> {
  const { kernel: size, kernelBestOf: bestOf } = ctx.sizes;
  const r = await alternately(ctx, "kernel", async (side) => (await side.measurer()).call({ kind: "kernel", size, bestOf }));
  const pick = (f: (x: (typeof r.old)[number]) => number) => [r.old.map(f), r.new.map(f)] as const;
  return [
    compare("kernel", "events/s", "higher", ...pick((x) => x.eventsPerSec)),
    compare("kernel", "events per CPU second", "higher", ...pick((x) => x.eventsPerCpuSec)),
    compare("kernel", "ratio to the bare loop (CPU time)", "higher", ...pick((x) => x.eventsPerCpuSec / x.bareEventsPerCpuSec)),
    compare("kernel", "bare loop events per CPU second", "higher", ...pick((x) => x.bareEventsPerCpuSec), "the harness's own loop, the same code on both sides: its ratio is this run's noise"),
  ];
}

/** The node scenario's virtual time over wall time, and over the process's CPU time. */
async function nodeHour(ctx: LineContext): Promise<Comparison[]> {
  const { nodePods: pods, nodeUntil: until } = ctx.sizes;
  const r = await alternately(ctx, "node-110-pods-1h", async (side) => (await side.measurer()).call({ kind: "node", pods, until }));
  const events = r.new[0]!.events;
  const note = `${pods} pods for ${until} of virtual time; ${events.toLocaleString("en-US")} events in the new tree, ${r.old[0]!.events.toLocaleString("en-US")} in the old`;
  return [
    compare("node-110-pods-1h", "speedup (virtual/wall time)", "higher", r.old.map((x) => x.virtualMs / x.wallMs), r.new.map((x) => x.virtualMs / x.wallMs), note),
    compare("node-110-pods-1h", "speedup by CPU time (virtual/CPU)", "higher", r.old.map((x) => x.virtualMs / x.cpuMs), r.new.map((x) => x.virtualMs / x.cpuMs)),
  ];
}

/**
 * The cluster scenario's virtual time over wall and over CPU time, and its peak RSS. A tree from
 * before `nodes:` cannot run it: its figures are n/a, with why, and the line does not fail.
 */
async function clusterHour(ctx: LineContext): Promise<Comparison[]> {
  const { cluster: size, clusterUntil: until } = ctx.sizes;
  const name = "cluster-100x110-1h";
  const figures = [["speedup (virtual/wall time)", "higher"], ["speedup by CPU time (virtual/CPU)", "higher"], ["peak RSS MB (lower is better)", "lower"]] as const;
  // Whether the old tree has clusters at all: a one-second cluster of one pod asks it cheaply.
  const first = await (await ctx.old.measurer()).call({ kind: "cluster", size: { nodes: 1, podsPerNode: 1 }, until: "1s" });
  if ("notApplicable" in first) return figures.map(([figure, better]) => unmeasured(name, figure, better, `not applicable: the old tree has ${first.notApplicable}`));
  const r = await alternately(ctx, name, async (side) => {
    const x = await (await side.measurer()).call({ kind: "cluster", size, until });
    if ("notApplicable" in x) throw new Error(`the ${side.label} tree has ${x.notApplicable}`);
    return x;
  });
  const note = `${size.nodes} nodes × ${size.podsPerNode} pods for ${until} of virtual time; ${r.new[0]!.events.toLocaleString("en-US")} events in the new tree, ${r.old[0]!.events.toLocaleString("en-US")} in the old`;
  return [
    compare(name, figures[0][0], "higher", r.old.map((x) => x.virtualMs / x.wallMs), r.new.map((x) => x.virtualMs / x.wallMs), note),
    compare(name, figures[1][0], "higher", r.old.map((x) => x.virtualMs / x.cpuMs), r.new.map((x) => x.virtualMs / x.cpuMs)),
    compare(name, figures[2][0], "lower", r.old.map((x) => x.rssPeakMB), r.new.map((x) => x.rssPeakMB), "each tree's measuring process, sampled every 64 Ki records; it has run the other lines before"),
  ];
}

/**
 * The explore bench's scenario explored with --jobs 1 or 2: the exploration's own runs/s (wall
 * time), and with --jobs 1 also the runs per second of the whole command's CPU time (with two
 * threads, CPU time says nothing of what the pool gains).
 */
async function explore(ctx: LineContext, jobs: 1 | 2): Promise<Comparison[]> {
  const file = join(ctx.workDir, "bench-explore.yaml");
  writeFileSync(file, EXPLORE_BENCH_SCENARIO);
  const runs = ctx.sizes.exploreRuns;
  const rates = async (side: Side, jobs: number) => {
    const r = await side.cli(["explore", file, "--runs", String(runs), "--jobs", String(jobs), "--json", "--no-shrink", "--out", join(ctx.workDir, "explore-out")]);
    return { wall: exploreRate(`the ${side.label} tree's explore --jobs ${jobs}`, r, runs, false), cpu: runs / (r.cpuMs / 1000) };
  };
  const name = jobs === 1 ? "explore" : "explore-jobs2";
  const r = await alternately(ctx, `explore --jobs ${jobs}`, (side) => rates(side, jobs));
  const wall = compare(name, `runs/s --jobs ${jobs}`, "higher", r.old.map((x) => x.wall), r.new.map((x) => x.wall), `${runs} pct runs of the explore bench's one-pod scenario (no shrinking)`);
  if (jobs === 2) return [wall];
  return [wall, compare(name, "runs per CPU second --jobs 1", "higher", r.old.map((x) => x.cpu), r.new.map((x) => x.cpu), "the whole command's CPU time, start-up included")];
}

/** Each hostile-input case's CPU time in the tree's measuring process (src/bench/hostile.ts). */
async function hostileInput(ctx: LineContext): Promise<Comparison[]> {
  const bestOf = ctx.sizes.hostileBestOf;
  const r = await alternately(ctx, "hostile-input", async (side) => (await side.measurer()).call({ kind: "hostile", bestOf }));
  return r.new[0]!.map((c, i) =>
    compare("hostile-input", `${c.name} CPU ms`, "lower", r.old.map((x) => x[i]!.cpuMs), r.new.map((x) => x[i]!.cpuMs), i === 0 ? "goal: within the bound the tests used to assert (2,000 ms for the quantities, 1,000 ms for the others)" : undefined),
  );
}

const STARTUP_COMMANDS: readonly (readonly [string, (root: string) => string[]])[] = [
  ["--version", () => ["--version"]],
  ["run 01-pod-starts", (root) => ["run", join(root, "scenarios", "basics", "01-pod-starts.yaml")]],
];

/**
 * Whole CLI processes: `--version` and a small `run` (of the new tree's scenario file, on both), in
 * rounds of bare `node -e 0`, then each command on both trees (which one first alternates from
 * round to round); wall and CPU time of each. Medians.
 */
async function cliStartup(ctx: LineContext): Promise<Comparison[]> {
  const rounds = ctx.repeat * ctx.sizes.startupRoundsPerRepeat;
  const bare = { wall: [] as number[], cpu: [] as number[] };
  const times = STARTUP_COMMANDS.map(() => ({ old: [] as Timing[], new: [] as Timing[] }));
  const timing = async (side: Side, args: string[]): Promise<Timing> => {
    const r = await side.cli(args);
    if (r.code !== 0) throw new Error(`the ${side.label} tree's ${args.join(" ")} exited ${String(r.code)}: ${r.stderr.trim().slice(-500)}`);
    return { wall: r.wallMs, cpu: r.cpuMs };
  };
  for (let round = 0; round < rounds; round++) {
    ctx.progress(`cli-startup: round ${round + 1} of ${rounds}`);
    const r = await runTimed(process.execPath, ["-e", "0"], { cwd: ctx.new.root });
    bare.wall.push(r.wallMs);
    bare.cpu.push(r.cpuMs);
    for (const [i, [, args]] of STARTUP_COMMANDS.entries()) {
      for (const side of pairOrder(round, ctx.old, ctx.new)) times[i]![side.label].push(await timing(side, args(ctx.new.root)));
    }
  }
  const note = `bare node -e 0: ${median(bare.wall).toFixed(1)} ms wall, ${median(bare.cpu).toFixed(0)} ms CPU (medians of ${rounds})`;
  return STARTUP_COMMANDS.flatMap(([command], i) => {
    const t = times[i]!;
    return [
      compare("cli-startup", `${command} ms`, "lower", t.old.map((x) => x.wall), t.new.map((x) => x.wall), i === 0 ? note : undefined),
      compare("cli-startup", `${command} CPU ms`, "lower", t.old.map((x) => x.cpu), t.new.map((x) => x.cpu)),
    ];
  });
}

interface Timing {
  wall: number;
  cpu: number;
}
