// The lines of `--against`, each measured on both trees alternately with the same workload. The
// kernel and the node hour run in each tree's measuring process (runner.ts) on the tree's built
// library; explore, cli-startup and hunt-speed run each tree's own CLI as a user runs it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgainstLineName } from "../args.ts";
import { exploreRate } from "../hunt.ts";
import { EXPLORE_BENCH_SCENARIO } from "../workloads.ts";
import { compare, median, type Comparison } from "./compare.ts";
import { alternately, type LineContext, type Side } from "./context.ts";
import { huntSpeed } from "./hunt_speed.ts";
import { run } from "./proc.ts";

export type AgainstLine = (ctx: LineContext) => Promise<Comparison[]>;

export const LINES: Record<AgainstLineName, AgainstLine> = {
  kernel,
  explore,
  "node-110-pods-1h": nodeHour,
  "cli-startup": cliStartup,
  "hunt-speed": huntSpeed,
  "hostile-input": hostileInput,
};

/** The kernel's events/s, its ratio to the bare loop, and the bare loop itself: the same code on both sides, so its ratio shows the noise. */
async function kernel(ctx: LineContext): Promise<Comparison[]> {
  const { kernel: size, kernelBestOf: bestOf } = ctx.sizes;
  const r = await alternately(ctx, "kernel", async (side) => (await side.measurer()).call({ kind: "kernel", size, bestOf }));
  const pick = (f: (x: (typeof r.old)[number]) => number) => [r.old.map(f), r.new.map(f)] as const;
  return [
    compare("kernel", "events/s", "higher", ...pick((x) => x.eventsPerSec)),
    compare("kernel", "ratio to the bare loop", "higher", ...pick((x) => x.eventsPerSec / x.bareEventsPerSec)),
    compare("kernel", "bare loop events/s (same code both sides)", "higher", ...pick((x) => x.bareEventsPerSec)),
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

/** The explore bench's scenario explored with --jobs 1 (and --jobs 2): the exploration's own runs/s. */
async function explore(ctx: LineContext): Promise<Comparison[]> {
  const file = join(ctx.workDir, "bench-explore.yaml");
  writeFileSync(file, EXPLORE_BENCH_SCENARIO);
  const runs = ctx.sizes.exploreRuns;
  const rate = async (side: Side, jobs: number) => {
    const r = await side.cli(["explore", file, "--runs", String(runs), "--jobs", String(jobs), "--json", "--no-shrink", "--out", join(ctx.workDir, "explore-out")]);
    return exploreRate(`the ${side.label} tree's explore --jobs ${jobs}`, r, runs, false);
  };
  const out: Comparison[] = [];
  for (const jobs of ctx.sizes.exploreJobs2 ? [1, 2] : [1]) {
    const r = await alternately(ctx, `explore --jobs ${jobs}`, (side) => rate(side, jobs));
    out.push(compare("explore", `runs/s --jobs ${jobs}`, "higher", r.old, r.new, jobs === 1 ? `${runs} pct runs of the explore bench's one-pod scenario (no shrinking)` : undefined));
  }
  return out;
}

/** Each hostile-input case's CPU time in the tree's measuring process (src/bench/hostile.ts). */
async function hostileInput(ctx: LineContext): Promise<Comparison[]> {
  const bestOf = ctx.sizes.hostileBestOf;
  const r = await alternately(ctx, "hostile-input", async (side) => (await side.measurer()).call({ kind: "hostile", bestOf }));
  return r.new[0]!.map((c, i) =>
    compare("hostile-input", `${c.name}: CPU ms`, "lower", r.old.map((x) => x[i]!.cpuMs), r.new.map((x) => x[i]!.cpuMs), i === 0 ? `the goal of each case: at most its old test bound (${c.goalMs} ms for this one, 1,000 ms for the others)` : undefined),
  );
}

const STARTUP_COMMANDS: readonly (readonly [string, (root: string) => string[]])[] = [
  ["--version ms", () => ["--version"]],
  ["run 01-pod-starts ms", (root) => ["run", join(root, "scenarios", "basics", "01-pod-starts.yaml")]],
];

/**
 * Whole CLI processes: `--version` and a small `run` (of the new tree's scenario file, on both), in
 * rounds of bare `node -e 0`, then each command on the old tree and on the new one. Medians.
 */
async function cliStartup(ctx: LineContext): Promise<Comparison[]> {
  const rounds = ctx.repeat * ctx.sizes.startupRoundsPerRepeat;
  const bare: number[] = [];
  const times = STARTUP_COMMANDS.map(() => ({ old: [] as number[], new: [] as number[] }));
  const wallMs = async (side: Side, args: string[]) => {
    const r = await side.cli(args);
    if (r.code !== 0) throw new Error(`the ${side.label} tree's ${args.join(" ")} exited ${String(r.code)}: ${r.stderr.trim().slice(-500)}`);
    return r.wallMs;
  };
  for (let round = 0; round < rounds; round++) {
    ctx.progress(`cli-startup: round ${round + 1} of ${rounds}`);
    bare.push((await run(process.execPath, ["-e", "0"], { cwd: ctx.new.root })).wallMs);
    for (const [i, [, args]] of STARTUP_COMMANDS.entries()) {
      times[i]!.old.push(await wallMs(ctx.old, args(ctx.new.root)));
      times[i]!.new.push(await wallMs(ctx.new, args(ctx.new.root)));
    }
  }
  const note = `bare node -e 0: ${median(bare).toFixed(1)} ms (median of ${rounds})`;
  return STARTUP_COMMANDS.map(([figure], i) => compare("cli-startup", figure, "lower", times[i]!.old, times[i]!.new, i === 0 ? note : undefined));
}
