// simulate(): one run of a scenario, the library's front door. Builds the kernel and the node,
// starts the kubelet and the scenario's timeline, checks expectations and invariants online, and
// returns the verdict with the trace's hash and the replay key. The kubelet boots after the
// timeline's steps at 0s (see node/timeline.ts). startSimulation() is the same run, handed back
// before it runs, for callers that look at it at virtual instants.
import { Sim, MemorySink, type RunResult, type StrategySpec, type TraceRecord, type TraceSink, type Bounds } from "./sim/index.ts";
import { formatStrategy } from "./sim/strategy/index.ts";
import type { KernelObserver } from "./sim/observe.ts";
import type { Scenario } from "./scenario/resolve.ts";
import type { SimNode } from "./node/node.ts";
import { SimCluster } from "./node/cluster.ts";
import { startClusterScheduler } from "./scheduler/scheduler.ts";
import { startControllers } from "./controllers/manager.ts";
import { startNodeControllers } from "./controllers/node_controllers.ts";
import type { ClusterPlan } from "./node/plan.ts";
import { startTimeline } from "./node/timeline.ts";
import { startScheduler } from "./node/scheduler.ts";
import { Checker, type CheckReport } from "./check/checker.ts";
import { checkVariants } from "./scenario/schema/variants.ts";

export interface SimulateOptions {
  /** Overrides the scenario's seed. */
  seed?: number;
  /** Overrides the scenario's strategy. */
  strategy?: StrategySpec;
  /** Overrides the scenario's `until`. */
  untilMs?: number;
  /** Where the trace goes; in memory when omitted (the result then carries the records). */
  sinks?: readonly TraceSink[];
  /** Keep the records in memory even when other sinks are given (default: only without sinks). */
  keepRecords?: boolean;
  /**
   * The scenario's file name as the user typed it, for the replay key. The trace names the
   * scenario by its `name:` only, so that its hash does not depend on the path.
   */
  scenarioFile?: string;
  /** The name of the original strategy when replaying a recorded run. */
  strategyLabel?: string;
  bounds?: Partial<Bounds>;
  /** Told which goroutine wrote each record, its calls, hand-offs and choices (a KernelLog for the pictures). */
  observer?: KernelObserver;
  /**
   * Digest the trace (default true: the result's traceHash). Without it, and when every sink names
   * the kinds it reads (the checker does), records nobody reads are never built: exploration's
   * fast path, whose runs are told apart by their choices instead (explore/context.ts).
   */
  hash?: boolean;
  /**
   * Every node's plan compiled once from this very scenario (node/plan.ts compileClusterPlan), for
   * callers that run one scenario many times (an exploration); compiled per run when omitted.
   */
  plan?: ClusterPlan;
}

export interface SimulationResult {
  run: RunResult;
  checks: CheckReport;
  /** True when the run ended normally and every expectation held. */
  ok: boolean;
  /** The records, when kept in memory. */
  records: TraceRecord[] | null;
}

export function simulate(scenario: Scenario, opts: SimulateOptions = {}): SimulationResult {
  return startSimulation(scenario, opts).finish();
}

/**
 * A run built and started but not yet run: step it with `sim.runUntil` to look at the node at
 * virtual instants (as `serve` does), then `finish()` runs it to its end and checks it, exactly as
 * simulate() would have.
 */
export interface SimulationHandle {
  readonly sim: Sim;
  /** The scenario's node (a cluster's first node). */
  readonly node: SimNode;
  /** Every node, on one apiserver (one node without `nodes:`). */
  readonly cluster: SimCluster;
  /** The run's checker: what it has seen so far (play mode reads it where a run pauses). */
  readonly checker: Checker;
  /** Runs the rest of the run (nothing when it already ended) and returns its verdict and checks. */
  finish(): SimulationResult;
}

export function startSimulation(scenario: Scenario, opts: SimulateOptions = {}): SimulationHandle {
  checkVariants(scenario.kubelet.variants);
  const keep = opts.keepRecords ?? opts.sinks === undefined;
  const memory = keep ? new MemorySink() : null;
  const checker = new Checker(scenario, undefined, { byKind: opts.hash === false });
  const sinks: TraceSink[] = [checker, ...(opts.sinks ?? []), ...(memory === null ? [] : [memory])];
  const strategy = opts.strategy ?? scenario.strategy;
  const sim = new Sim({
    seed: opts.seed ?? scenario.seed,
    strategy,
    sinks,
    bounds: { untilMs: opts.untilMs ?? scenario.untilMs, ...opts.bounds },
    ...(opts.scenarioFile === undefined ? {} : { replayScenario: opts.scenarioFile }),
    runInfo: {
      scenario: scenario.name,
      ...(opts.strategyLabel === undefined ? {} : { strategy: opts.strategyLabel }),
    },
    beforeEnd: () => checker.finish(sim),
    ...(opts.observer === undefined ? {} : { observer: opts.observer }),
    ...(opts.hash === undefined ? {} : { hash: opts.hash }),
  });
  const cluster = new SimCluster(sim, scenario, opts.plan);
  const node = cluster.first;
  checker.attach(sim, node);
  startTimeline(sim, cluster, scenario.timeline);
  startScheduler(sim, node, scenario.scheduler);
  if (cluster.isCluster) startClusterScheduler(sim, cluster);
  cluster.controllers = startControllers(sim, cluster);
  startNodeControllers(sim, cluster);
  let result: SimulationResult | null = null;
  return {
    sim,
    node,
    cluster,
    checker,
    finish: () => {
      if (result !== null) return result;
      const run = sim.run();
      const checks = checker.report();
      const ok = (run.verdict === "until" || run.verdict === "completed" || run.verdict === "quiescent") && checks.failed.length === 0;
      result = { run, checks, ok, records: memory === null ? null : memory.records };
      return result;
    },
  };
}

export { formatStrategy };
