// A node's compiled plan (node/plan.ts): runs built from one shared plan are the runs built each
// from its own, in any order (nothing of a run stays in the plan), and the plan is frozen.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { simulate } from "../../src/simulate.ts";
import { compileClusterPlan, compileNodePlan } from "../../src/node/plan.ts";
import { loadScenarioText, type Scenario } from "../../src/scenario/index.ts";
import { RunContext } from "../../src/explore/context.ts";
import { makePlan } from "../../src/explore/plan.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const load = (file: string): Scenario => loadScenarioText(readFileSync(join(ROOT, file), "utf8"), file).scenario;
const pct = { name: "pct", depth: 3, steps: 200 } as const;

describe("a node's compiled plan", () => {
  const files = [
    "scenarios/basics/01-pod-starts.yaml",
    "scenarios/races/r03-static-pod-uid-reuse.yaml",
    "scenarios/races/r15-status-write-to-recreated-pod.yaml",
  ];
  for (const file of files) {
    it(`runs from one shared plan are the runs from fresh plans, in any order: ${file}`, () => {
      const scenario = load(file);
      const plan = compileClusterPlan(scenario);
      const fresh = [1, 2, 3].map((seed) => simulate(scenario, { seed, strategy: pct }).run.traceHash);
      const shared = [3, 1, 2, 1].map((seed) => simulate(scenario, { seed, strategy: pct, plan }).run.traceHash);
      expect(shared).toEqual([fresh[2], fresh[0], fresh[1], fresh[0]]);
    });
  }

  // An exploration's runs with swarm knobs: each run's scenario is the base with latencies,
  // faults and steps drawn, and its plan takes the base plan's pods (compileNodePlan's `like`).
  it("of a run with knobs, built like the base plan, shares its pods and runs as a fresh plan does", () => {
    const ctx = new RunContext(makePlan({ source: { file: join(ROOT, "scenarios/races/hunt/r10-hunt.yaml") }, strategy: "pct", seed: 5 }));
    const base = compileNodePlan(ctx.base);
    for (const index of [0, 1, 2]) {
      const { scenario, knobs } = ctx.scenarioFor(index);
      expect(knobs).not.toBeNull();
      const like = compileNodePlan(scenario, undefined, base);
      const fresh = compileNodePlan(scenario);
      expect(like.scenario).toBe(scenario);
      expect(like.manifests).toBe(base.manifests);
      expect(like.behaviours).toBe(base.behaviours);
      expect([...like.manifests]).toEqual([...fresh.manifests]);
      expect(like.behaviours).toEqual(fresh.behaviours);
      expect(like.runtimeConfig).toEqual(fresh.runtimeConfig);
      expect(like.settings).toEqual(fresh.settings);
      const run = (plan: typeof like) => simulate(scenario, { seed: 7 + index, strategy: pct, plan: [plan] }).run.traceHash;
      expect(run(like)).toBe(run(fresh));
    }
    // Other pods: compiled afresh.
    const other = load("scenarios/basics/01-pod-starts.yaml");
    expect(compileNodePlan(other, undefined, base).manifests).not.toBe(base.manifests);
  });

  // A cluster: the exploration compiles every node's plan of the base scenario once, and a run
  // with knobs compiles each node's like the base's node of the same index (compileClusterPlan).
  it("of a cluster, built like the base's, shares every node's pods and runs as a fresh plan does", () => {
    const ctx = new RunContext(makePlan({ source: { file: join(ROOT, "scenarios/races/hunt/r26-hunt.yaml") }, strategy: "pct", seed: 5 }));
    const base = compileClusterPlan(ctx.base);
    expect(base.length).toBe(ctx.base.nodes!.length);
    expect(base.length).toBeGreaterThan(1);
    for (const index of [0, 1]) {
      const { scenario } = ctx.scenarioFor(index);
      const like = compileClusterPlan(scenario, base);
      const fresh = compileClusterPlan(scenario);
      expect(like.length).toBe(base.length);
      like.forEach((plan, i) => {
        expect(plan.scenario).toBe(scenario);
        expect(plan.manifests).toBe(base[i]!.manifests);
        expect(plan.behaviours).toBe(base[i]!.behaviours);
        expect(plan.settings.nodeName).toBe(scenario.nodes![i]!.kubelet.nodeName);
        expect([...plan.manifests]).toEqual([...fresh[i]!.manifests]);
        expect(plan.behaviours).toEqual(fresh[i]!.behaviours);
        expect(plan.settings).toEqual(fresh[i]!.settings);
        expect(plan.runtimeConfig).toEqual(fresh[i]!.runtimeConfig);
      });
      const run = (plan?: typeof like) => simulate(scenario, { seed: 11 + index, strategy: pct, ...(plan === undefined ? {} : { plan }) }).run.traceHash;
      const unplanned = run();
      expect(run(like)).toBe(unplanned);
      expect(run(fresh)).toBe(unplanned);
    }
  });

  it("is frozen, and refuses to build another scenario's node", () => {
    const scenario = load("scenarios/basics/01-pod-starts.yaml");
    const plan = compileNodePlan(scenario);
    expect(Object.isFrozen(plan)).toBe(true);
    expect(Object.isFrozen(plan.settings)).toBe(true);
    expect(Object.isFrozen(plan.runtimeConfig.latency)).toBe(true);
    for (const m of plan.manifests.values()) expect(Object.isFrozen(m.spec.containers[0])).toBe(true);
    const other = load("scenarios/races/r03-static-pod-uid-reuse.yaml");
    expect(() => simulate(other, { plan: [plan] })).toThrow(/another scenario/);
    // A cluster's plan has a node for each of the scenario's, no fewer.
    const cluster = load("examples/cluster/three-nodes.yaml");
    expect(() => simulate(cluster, { plan: compileClusterPlan(cluster).slice(1) })).toThrow(/another number of nodes/);
  });
});
