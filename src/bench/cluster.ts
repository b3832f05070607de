// The cluster benchmark (issue 26, item 7): 100 nodes × 110 pods (the kubelet's default maxPods),
// made by Deployments through the ReplicaSet controller and placed by the scheduler stand-in, each
// pod the node line's (two containers with liveness and readiness probes every 10 s), for one hour
// of virtual time. One run, its trace hashed and streamed to a counting sink (nothing kept):
// speedup (virtual over wall time, and over CPU time), CPU time, and memory: the RSS sampled every
// 64 Ki records and every 5 virtual minutes, and the process's RSS high-water mark.
// The goal on the 2-core, 24 GiB host: ≥ 10× real time, ≤ 8 GiB.
import { performance } from "node:perf_hooks";
import { startSimulation } from "../simulate.ts";
import { loadScenarioText } from "../scenario/index.ts";
import type { BenchLine } from "./kernel.ts";
import { semiSpaceChosen, semiSpaceFor } from "../cli/young.ts";
import { MeteredSink, mb, round2 } from "./node.ts";
import { CLUSTER_SIZE, clusterScenarioYaml, type ClusterSize } from "./workloads.ts";

const GOAL_SPEEDUP = 10;

/**
 * The semi-space (MB) `kubelet-sim run` would start this line's scenario with (src/cli/young.ts),
 * so that the line measures what a user of the command gets; null when a size is chosen already
 * (the user's NODE_OPTIONS, or this process is that re-run) or the scenario is too small.
 */
export function clusterSemiSpace(size: ClusterSize = CLUSTER_SIZE, until = "1h", chosen = semiSpaceChosen()): number | null {
  if (chosen) return null;
  const { scenario } = loadScenarioText(clusterScenarioYaml(size, until), "cluster-bench.yaml");
  return semiSpaceFor(scenario, scenario.untilMs);
}
const GOAL_RSS_MB = 8 * 1024;

/** The line; `size` and `until` smaller only to try it (scripts, the harness's own test). */
export function benchCluster(size: ClusterSize = CLUSTER_SIZE, until = "1h"): BenchLine {
  const { scenario } = loadScenarioText(clusterScenarioYaml(size, until), "cluster-bench.yaml");
  const sink = new MeteredSink();
  sink.sample(0, false);
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const handle = startSimulation(scenario, { sinks: [sink], keepRecords: false });
  const result = handle.finish();
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const virtualMs = result.run.endMs;
  if (result.run.verdict !== "until") {
    throw new Error(`cluster bench: the run ended with ${result.run.verdict} at ${virtualMs} ms: ${result.run.diagnosis ?? ""}`);
  }
  sink.sample(virtualMs + 1, false);
  const running = Object.values(handle.cluster.api.store.pods).filter((p) => p.status?.phase === "Running").length;
  const pods = size.nodes * size.podsPerNode;
  // A run whose pods did not all start measured something else: say so rather than print a rate.
  if (running !== pods) throw new Error(`cluster bench: ${running} of ${pods} pods Running at the end`);
  const speedup = virtualMs / wallMs;
  const rssPeakMB = sink.peakRssMB();
  return {
    name: until === "1h" && size === CLUSTER_SIZE ? "cluster-100x110-1h" : `cluster-${size.nodes}x${size.podsPerNode}-${until}`,
    speedup: round2(speedup),
    speedupByCpu: round2(virtualMs / cpuMs),
    wallSeconds: round2(wallMs / 1000),
    cpuSeconds: round2(cpuMs / 1000),
    startupWallSeconds: round2(sink.startupWallMs / 1000),
    events: result.run.events,
    records: sink.records,
    nodes: size.nodes,
    pods,
    podsRunning: running,
    rssPeakMB,
    maxRssMB: mb(process.resourceUsage().maxRSS * 1024),
    heapUsedAfterMB: sink.heapAtMB(virtualMs + 1),
    goal: `>= ${GOAL_SPEEDUP}x: ${speedup >= GOAL_SPEEDUP ? "met" : "not met"}; <= ${GOAL_RSS_MB} MB: ${rssPeakMB <= GOAL_RSS_MB ? "met" : "not met"}`,
  };
}

