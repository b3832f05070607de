// The young generation's size for long simulations (docs/cluster.md, "Scale"; docs/BENCHMARKS.md,
// "The young generation, in the product's path"). A long run allocates objects that live a probe
// period or so; with V8's default semi-space (16 MB) a big cluster fills it every fraction of a
// virtual second, so those objects are copied and promoted instead of dying young, and the run pays
// for it in collections (docs/BENCHMARKS-history.md, "The cluster's cost per pod, settled (clu3)"). V8
// fixes the semi-space when a heap is set up: `v8.setFlagsFromString` leaves a running heap's as it
// was, so the only ways to give it to a run are a fresh process (`node --max-semi-space-size=N`) or
// a worker thread's `resourceLimits`. The `kubelet-sim` command does the first for a run big enough
// to gain (scenarioWeight below): it starts itself again with the flag and hands the terminal over,
// exit code and signals included. The user's own choice wins: with --max-semi-space-size (or its
// --min- sibling) in NODE_OPTIONS or on node's command line nothing is re-run. GC never changes a
// run (the same choices, the same trace hash): only when the collector runs.
import { spawn } from "node:child_process";
import type { Scenario } from "../scenario/index.ts";
import { podsMade } from "../scenario/pods_made.ts";

/** The semi-space, in MB, a big run gets (against 128 and 256: as fast in the measurements, more memory; docs/BENCHMARKS-history.md, "The young generation, in the product's path"). */
export const SEMI_SPACE_MB = 64;

/**
 * Pod-seconds of virtual time (pods the scenario makes, times its length) from which a run is
 * started again with the larger semi-space. Below, the second process's start-up (about 0.3 s
 * of CPU: the first has loaded the CLI and the scenario) is not won back.
 */
export const WEIGHT_THRESHOLD = 500_000;

const FLAG = "--max-semi-space-size";

/** A semi-space size chosen already: by the user (NODE_OPTIONS, node's flags) or by a re-run. */
export function semiSpaceChosen(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env["NODE_OPTIONS"] ?? ""): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => /^--(max|min)[-_]semi[-_]space[-_]size(=|$)/.test(a));
}

/** Pods the scenario makes (a controller's replicas, a Job's parallelism, a DaemonSet's one a node), times its virtual seconds. */
export function scenarioWeight(scenario: Scenario, untilMs: number): number {
  return podsMade(scenario) * (untilMs / 1000);
}

/** The semi-space (MB) a run of this scenario is started again with, or null to run it here. */
export function semiSpaceFor(scenario: Scenario, untilMs: number): number | null {
  return scenarioWeight(scenario, untilMs) >= WEIGHT_THRESHOLD ? SEMI_SPACE_MB : null;
}

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Runs `node [node's flags] --max-semi-space-size=MB [FLAGS] SCRIPT ARGV...` on this process's stdin,
 * stdout and stderr, and resolves with its exit code. A SIGINT, SIGTERM or SIGHUP sent to this
 * process is passed on (a terminal's Ctrl-C reaches both: the second is harmless, the run's
 * handlers (atomic.ts) end it at the first); a child that dies of a signal takes this process
 * with it by the same signal, so that a shell sees what it would have seen without the re-run.
 */
export function respawn(script: string, argv: readonly string[], mb: number, flags: readonly string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, `${FLAG}=${mb}`, ...flags, script, ...argv], { stdio: "inherit" });
    const forward = (signal: NodeJS.Signals) => void child.kill(signal);
    for (const s of FORWARDED) process.on(s, forward);
    const done = () => {
      for (const s of FORWARDED) process.off(s, forward);
    };
    child.on("error", (err) => {
      done();
      reject(err);
    });
    child.on("exit", (code, signal) => {
      done();
      if (signal !== null) {
        process.kill(process.pid, signal);
        return;
      }
      resolve(code ?? 1);
    });
  });
}
