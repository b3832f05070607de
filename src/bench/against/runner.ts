// A measuring process of `--against`: it loads one tree's library as built (dist/index.js, what the
// package ships) and runs the in-process workloads on it when the harness asks over the IPC
// channel. The harness starts one per tree and keeps both for the whole command, so that the
// trees' lines run alternately in one pair of processes. The workloads are the harness's
// (../workloads.ts), so both trees run the same ones; only the engine under them differs.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import type * as Library from "../../index.ts";
import { timeHostileCases, type HostileApi, type HostileTiming } from "../hostile.ts";
import { bareLoop, clusterScenarioYaml, kernelLoop, nodeScenarioYaml, type ClusterSize, type KernelSize } from "../workloads.ts";

export type Work =
  | { kind: "kernel"; size: KernelSize; bestOf: number }
  | { kind: "node"; pods: number; until: string }
  | { kind: "cluster"; size: ClusterSize; until: string }
  | { kind: "hostile"; bestOf: number };

export interface KernelResult {
  /** Events per second of wall time, and per second of this process's CPU time; the fastest of bestOf runs by each. */
  eventsPerSec: number;
  eventsPerCpuSec: number;
  bareEventsPerSec: number;
  bareEventsPerCpuSec: number;
  events: number;
}

export interface NodeResult {
  wallMs: number;
  /** This process's user + system CPU during the run (GC threads included). */
  cpuMs: number;
  virtualMs: number;
  events: number;
  records: number;
}

/** The cluster run, or why this tree cannot run it (a tree from before `nodes:`). */
export type ClusterResult = (NodeResult & { rssPeakMB: number }) | { notApplicable: string };

export type Request = { id: number; work: Work };
export type Reply = { id: number; ok: true; value: KernelResult | NodeResult | ClusterResult | HostileTiming[] } | { id: number; ok: false; error: string };

/** The fastest of n runs (the least disturbed by other work), as events per second of wall time and of CPU time. */
function bestRate(n: number, fn: () => number): { rate: number; cpuRate: number; events: number } {
  let best = { rate: 0, cpuRate: 0, events: 0 };
  for (let i = 0; i < n; i++) {
    const cpuStart = process.cpuUsage();
    const startMs = performance.now();
    const events = fn();
    const rate = events / ((performance.now() - startMs) / 1000);
    const cpu = process.cpuUsage(cpuStart);
    const cpuRate = events / ((cpu.user + cpu.system) / 1e6);
    best = { rate: Math.max(best.rate, rate), cpuRate: Math.max(best.cpuRate, cpuRate), events };
  }
  return best;
}

function kernel(lib: typeof Library, work: Extract<Work, { kind: "kernel" }>): KernelResult {
  const bare = bestRate(work.bestOf, () => bareLoop(work.size));
  const kern = bestRate(work.bestOf, () => kernelLoop(lib.sim, work.size));
  return { eventsPerSec: kern.rate, eventsPerCpuSec: kern.cpuRate, bareEventsPerSec: bare.rate, bareEventsPerCpuSec: bare.cpuRate, events: kern.events };
}

/** One run of the node scenario, its trace streamed to a counting sink (hashed, nothing kept). */
function node(lib: typeof Library, work: Extract<Work, { kind: "node" }>): NodeResult {
  const { scenario } = lib.loadScenarioText(nodeScenarioYaml(work.pods, work.until), "node-bench.yaml");
  let records = 0;
  const sink = { wantsLines: false, write: () => void records++ };
  const cpuStart = process.cpuUsage();
  const startMs = performance.now();
  const result = lib.simulate(scenario, { sinks: [sink], keepRecords: false });
  const wallMs = performance.now() - startMs;
  const cpu = process.cpuUsage(cpuStart);
  if (result.run.verdict !== "until") throw new Error(`the node run ended with ${result.run.verdict} at ${result.run.endMs} ms: ${result.run.diagnosis ?? ""}`);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, virtualMs: result.run.endMs, events: result.run.events, records };
}

/**
 * One run of the cluster scenario, as node() runs the node's, with the RSS sampled every 64 Ki
 * records. A tree whose scenarios have no `nodes:` (before issue 26) refuses the scenario: that is
 * "not applicable", not a failure.
 */
function cluster(lib: typeof Library, work: Extract<Work, { kind: "cluster" }>): ClusterResult {
  let scenario;
  try {
    scenario = lib.loadScenarioText(clusterScenarioYaml(work.size, work.until), "cluster-bench.yaml").scenario;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/\bnodes\b/.test(message)) return { notApplicable: `no clusters (nodes:): ${message.split("\n")[0]!.slice(0, 200)}` };
    throw err;
  }
  let records = 0;
  let rssPeak = process.memoryUsage().rss;
  const sink = { wantsLines: false, write: () => void ((++records & 0xffff) === 0 && (rssPeak = Math.max(rssPeak, process.memoryUsage().rss))) };
  const cpuStart = process.cpuUsage();
  const startMs = performance.now();
  const result = lib.simulate(scenario, { sinks: [sink], keepRecords: false });
  const wallMs = performance.now() - startMs;
  const cpu = process.cpuUsage(cpuStart);
  if (result.run.verdict !== "until") throw new Error(`the cluster run ended with ${result.run.verdict} at ${result.run.endMs} ms: ${result.run.diagnosis ?? ""}`);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, virtualMs: result.run.endMs, events: result.run.events, records, rssPeakMB: rssPeak / (1024 * 1024) };
}

/** The tree's Quantity is internal (dist/apiserver/...): loaded only when hostile-input asks, so a tree that moved it fails that line alone. */
async function hostileApi(tree: string, lib: typeof Library): Promise<HostileApi> {
  const q = (await import(pathToFileURL(join(tree, "dist", "apiserver", "validation", "quantity.js")).href)) as Pick<HostileApi, "parseQuantity" | "quantityString">;
  return { checkScenarioText: lib.checkScenarioText, parseQuantity: q.parseQuantity, quantityString: q.quantityString };
}

async function perform(tree: string, lib: typeof Library, work: Work): Promise<KernelResult | NodeResult | ClusterResult | HostileTiming[]> {
  if (work.kind === "kernel") return kernel(lib, work);
  if (work.kind === "node") return node(lib, work);
  if (work.kind === "cluster") return cluster(lib, work);
  return timeHostileCases(await hostileApi(tree, lib), work.bestOf);
}

async function main(tree: string): Promise<void> {
  const lib = (await import(pathToFileURL(join(tree, "dist", "index.js")).href)) as typeof Library;
  process.on("message", async (req: Request) => {
    let reply: Reply;
    try {
      reply = { id: req.id, ok: true, value: await perform(tree, lib, req.work) };
    } catch (err) {
      reply = { id: req.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    process.send!(reply);
  });
  // The harness gone (it ended, or was interrupted): nothing left to measure for.
  process.on("disconnect", () => process.exit(0));
  process.send!({ id: 0, ok: true, value: null });
}

const tree = process.argv[2];
if (tree === undefined || process.send === undefined) {
  process.stderr.write("runner.ts is started by `npm run bench -- --against REV`, with a tree's root and an IPC channel\n");
  process.exitCode = 2;
} else {
  await main(tree);
}
