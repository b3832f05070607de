// What every `--against` line works with: the two trees (each with its measuring process, started
// when a line first needs it), the workloads' sizes, and the rule of alternation: each measurement
// is taken on both trees back to back, `repeat` times, the old tree first in the first pair, the
// new one first in the second, and so on, so that an advantage of going first or second (a cache
// warmed, the other process's collector still running) cancels out over the pairs.
import { join } from "node:path";
import { HUNT_RUNS } from "../hunt.ts";
import { CLUSTER_SIZE, KERNEL_SIZE, NODE_PODS, type ClusterSize, type KernelSize } from "../workloads.ts";
import { runTimed, type Finished } from "./proc.ts";
import { Runner } from "./runners.ts";

export interface Sizes {
  kernel: KernelSize;
  /** The kernel line keeps the fastest of this many runs of each loop in one measurement. */
  kernelBestOf: number;
  nodePods: number;
  nodeUntil: string;
  cluster: ClusterSize;
  clusterUntil: string;
  exploreRuns: number;
  huntRuns: number;
  /** hostile-input keeps the fastest of this many runs of each case in one measurement. */
  hostileBestOf: number;
  /** cli-startup's rounds per pair asked for (each round: bare node, then each command on both trees). */
  startupRoundsPerRepeat: number;
}

export const DEFAULT_SIZES: Sizes = {
  kernel: KERNEL_SIZE, kernelBestOf: 3, nodePods: NODE_PODS, nodeUntil: "1h", cluster: CLUSTER_SIZE, clusterUntil: "1h",
  exploreRuns: 1200, huntRuns: HUNT_RUNS, hostileBestOf: 3, startupRoundsPerRepeat: 5,
};

/** For the harness's own test: every line runs, in seconds; the figures mean nothing. */
export const TINY_SIZES: Sizes = {
  kernel: { procs: 10, wakesPerProc: 10 }, kernelBestOf: 1, nodePods: 2, nodeUntil: "1m", cluster: { nodes: 2, podsPerNode: 2 }, clusterUntil: "1m",
  exploreRuns: 4, huntRuns: 2, hostileBestOf: 1, startupRoundsPerRepeat: 1,
};

export class Side {
  private runner: Promise<Runner> | null = null;

  constructor(readonly label: "old" | "new", readonly root: string) {}

  /** This tree's measuring process (runner.ts), started on first use and kept. */
  measurer(): Promise<Runner> {
    this.runner ??= Runner.start(this.root, `the ${this.label} tree`);
    return this.runner;
  }

  async stop(): Promise<void> {
    if (this.runner !== null) (await this.runner.catch(() => null))?.stop();
  }

  /** Runs this tree's CLI (bin/kubelet-sim.mjs, on its dist/) with args, from the tree's root; with its CPU time. */
  cli(args: readonly string[]): Promise<Finished & { cpuMs: number }> {
    return runTimed(process.execPath, [join(this.root, "bin", "kubelet-sim.mjs"), ...args], { cwd: this.root });
  }
}

export interface LineContext {
  old: Side;
  new: Side;
  repeat: number;
  sizes: Sizes;
  /** The hunt forms of the new tree to explore (absolute paths); both trees explore these files. */
  huntForms: string[];
  /** A temporary directory for scenario files and explore's --out. */
  workDir: string;
  /** A line of progress on stderr (what is being measured now). */
  progress(text: string): void;
}

/** The two trees in the order pair i measures them: old first in pairs 0, 2, 4..., new first in the others. */
export function pairOrder<S>(i: number, old: S, now: S): [S, S] {
  return i % 2 === 0 ? [old, now] : [now, old];
}

/** `repeat` pairs of one measurement: old, new, then new, old, and so on. */
export async function alternately<T>(ctx: LineContext, what: string, measure: (side: Side) => Promise<T>): Promise<{ old: T[]; new: T[] }> {
  const out = { old: [] as T[], new: [] as T[] };
  for (let i = 0; i < ctx.repeat; i++) {
    ctx.progress(`${what}: pair ${i + 1} of ${ctx.repeat}`);
    for (const side of pairOrder(i, ctx.old, ctx.new)) out[side.label].push(await measure(side));
  }
  return out;
}
