// The benchmarks' workloads as plain data and functions of an engine passed in, so that the same
// workload runs on two trees: `npm run bench` hands them this tree's modules, `--against` each
// tree's own (src/bench/against/runner.ts). Nothing here imports the engine's code; the bare loop
// is the harness's own reference and runs the same code whichever tree it measures beside.
import type * as SimModule from "../sim/index.ts";
import { TimerHeap } from "../sim/heap.ts";

/** The kernel's public entry points the kernel workload uses (`kubelet-sim/sim`). */
export type SimApi = Pick<typeof SimModule, "Sim" | "sleep">;

/** The kernel workload's size: no-op processes, each waking this many times. */
export interface KernelSize {
  procs: number;
  wakesPerProc: number;
}

export const KERNEL_SIZE: KernelSize = { procs: 1000, wakesPerProc: 2000 };

/** No-op processes sleeping 1–7 ms in a loop through the kernel; returns the kernel events. */
export function kernelLoop(api: SimApi, size: KernelSize = KERNEL_SIZE): number {
  const sim = new api.Sim({ seed: 1, strategy: { name: "fifo" }, hash: false });
  for (let i = 0; i < size.procs; i++) {
    const period = 1 + (i % 7);
    sim.go(`sleeper/${i}`, function* () {
      for (let k = 0; k < size.wakesPerProc; k++) yield* api.sleep(period);
    });
  }
  return sim.run().events;
}

/** The same work without the kernel: a heap of (due, seq) and generators yielding sleep times. */
export function bareLoop(size: KernelSize = KERNEL_SIZE): number {
  interface E { dueMs: number; seq: number; cancelled: boolean; gen: Generator<number, void, unknown> }
  const heap = new TimerHeap<E>();
  let seq = 0;
  let events = 0;
  for (let i = 0; i < size.procs; i++) {
    const gen = (function* (period: number) {
      for (let k = 0; k < size.wakesPerProc; k++) yield period;
    })(1 + (i % 7));
    heap.push({ dueMs: 0, seq: seq++, cancelled: false, gen });
  }
  for (let e = heap.pop(); e !== undefined; e = heap.pop()) {
    const r = e.gen.next();
    events++;
    if (r.done !== true) heap.push({ dueMs: e.dueMs + r.value, seq: seq++, cancelled: false, gen: e.gen });
  }
  return events;
}

/** The explore line's scenario. A one-pod scenario of 60 simulated seconds: create, a crash at 20 s and a restart, readiness every 5 s, a delete at 45 s. */
export const EXPLORE_BENCH_SCENARIO = `name: bench-explore
until: 60s
kubelet: { version: "1.30" }
pods:
  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: web, namespace: default }
      spec:
        containers:
          - name: app
            image: example/web:1
            readinessProbe: { exec: { command: [cat, /ready] }, periodSeconds: 5 }
    behaviour:
      app:
        runs: [{ exitAfter: 20s, exitCode: 1 }]
        onSigterm: { exitAfter: 2s, exitCode: 0 }
timeline:
  - { at: 0s, create: web }
  - { at: 45s, delete: web }
`;

export const NODE_PODS = 110;
const CONTAINERS = ["app", "sidecar"];
const PROBE_PERIOD_SECONDS = 10;

/** The scenario: every pod created at 0s, images present, every probe answering success. */
export function nodeScenarioYaml(pods = NODE_PODS, until = "1h"): string {
  const probe = (path: string) => `{ httpGet: { path: ${path}, port: 8080 }, periodSeconds: ${PROBE_PERIOD_SECONDS} }`;
  const container = (name: string) =>
    `          - { name: ${name}, image: "example/app:1.0", livenessProbe: ${probe("/healthz")}, readinessProbe: ${probe("/ready")} }`;
  const manifests: string[] = [];
  const steps: string[] = [];
  for (let i = 0; i < pods; i++) {
    const name = `pod-${String(i).padStart(3, "0")}`;
    manifests.push(
      [
        "  - manifest:",
        "      apiVersion: v1",
        "      kind: Pod",
        `      metadata: { name: ${name}, labels: { app: bench } }`,
        "      spec:",
        "        containers:",
        ...CONTAINERS.map(container),
      ].join("\n"),
    );
    steps.push(`  - { at: 0s, create: ${name} }`);
  }
  return [
    `name: node-${pods}-pods`,
    `until: ${until}`,
    "runtime:",
    "  images:",
    '    "example/app:1.0": { present: true }',
    "pods:",
    ...manifests,
    "timeline:",
    ...steps,
    "",
  ].join("\n");
}

/** The cluster line's size: nodes, and pods per node (the kubelet's default maxPods). */
export interface ClusterSize {
  nodes: number;
  podsPerNode: number;
}

export const CLUSTER_SIZE: ClusterSize = { nodes: 100, podsPerNode: 110 };

/** The cluster line's pods are made by one Deployment per this many nodes (a Deployment's replicas stay in upstream's usual range). */
const NODES_PER_DEPLOYMENT = 10;

/**
 * The cluster scenario: `nodes` default nodes and one Deployment per ten nodes, together of nodes ×
 * podsPerNode replicas (the ReplicaSet controller creates them in slow-start batches, the scheduler
 * spreads them); each pod is the node line's: two containers with liveness and readiness probes
 * every 10 s, images present.
 */
export function clusterScenarioYaml(size: ClusterSize = CLUSTER_SIZE, until = "1h"): string {
  const probe = (path: string) => `{ httpGet: { path: ${path}, port: 8080 }, periodSeconds: ${PROBE_PERIOD_SECONDS} }`;
  const container = (name: string) =>
    `              - { name: ${name}, image: "example/app:1.0", livenessProbe: ${probe("/healthz")}, readinessProbe: ${probe("/ready")} }`;
  const nodes: string[] = [];
  for (let i = 0; i < size.nodes; i++) nodes.push(`  - name: node-${String(i).padStart(3, "0")}`);
  const deployments: string[] = [];
  const steps: string[] = [];
  for (let d = 0; d * NODES_PER_DEPLOYMENT < size.nodes; d++) {
    const name = `bench-${String(d).padStart(2, "0")}`;
    const replicas = size.podsPerNode * Math.min(NODES_PER_DEPLOYMENT, size.nodes - d * NODES_PER_DEPLOYMENT);
    deployments.push(
      "  - manifest:",
      "      apiVersion: apps/v1",
      "      kind: Deployment",
      `      metadata: { name: ${name} }`,
      "      spec:",
      `        replicas: ${replicas}`,
      `        selector: { matchLabels: { app: ${name} } }`,
      "        template:",
      `          metadata: { labels: { app: ${name} } }`,
      "          spec:",
      "            containers:",
      ...CONTAINERS.map(container),
    );
    steps.push(`  - { at: 0s, create: ${name} }`);
  }
  return [
    `name: cluster-${size.nodes}x${size.podsPerNode}`,
    `until: ${until}`,
    "runtime:",
    "  images:",
    '    "example/app:1.0": { present: true }',
    "nodes:",
    ...nodes,
    "pods:",
    ...deployments,
    "timeline:",
    ...steps,
    "",
  ].join("\n");
}
