// assertInvariantHolds on an invariant the model breaks by design (race R22: a restartPolicy Never
// container runs again once its record is removed): found, shrunk by fast-check to one pod and the
// removal, and reported with a seed, a strategy and a replay command that reproduce it.
import { describe, expect, it } from "vitest";
import { assertInvariantHolds, checkInvariantHolds, scenarioArb, scenarioFromObject } from "../../src/index.ts";
import { simulate } from "../../src/simulate.ts";
import { parseStrategy } from "../../src/sim/index.ts";

describe("checkInvariantHolds", () => {
  const options = {
    scenarios: scenarioArb({ pods: { min: 1, max: 2 }, untilMs: 30_000, actions: ["removeContainer", "exitContainer"], pod: { restartPolicies: ["Never"] }, maxFaults: 0 }),
    invariant: "never-policy-runs-twice",
    numRuns: 30,
    seed: 7,
  } as const;
  const r = checkInvariantHolds(options);

  it("finds the R22 re-run and shrinks it to one pod whose container record is removed", () => {
    expect(r.ok).toBe(false);
    const c = r.counterexample!;
    expect(c.violation.invariant).toBe("never-policy-runs-twice");
    const pods = c.scenario["pods"] as unknown[];
    const timeline = c.scenario["timeline"] as Record<string, unknown>[];
    expect(pods).toHaveLength(1);
    expect(timeline.some((s) => s["removeContainer"] !== undefined)).toBe(true);
    expect(timeline.length).toBeLessThanOrEqual(3);
    expect(c.replayKey).toBe(`kubelet-sim run repro.yaml --seed ${c.seed} --strategy ${c.strategy}`);
  });

  it("reports a scenario, seed and strategy that reproduce the violation when run", () => {
    const c = r.counterexample!;
    const run = simulate(scenarioFromObject(c.scenario), { seed: c.seed, strategy: parseStrategy(c.strategy) });
    expect(run.checks.violations.map((v) => v.invariant)).toContain("never-policy-runs-twice");
  });

  it("throws a readable report from assertInvariantHolds, which fast-check's seed and path replay at once", () => {
    const c = r.counterexample!;
    expect(() => assertInvariantHolds({ ...options, seed: c.fastCheck.seed, path: c.fastCheck.path! })).toThrow(
      /invariant never-policy-runs-twice violated[\s\S]*replay: save the scenario below as repro.yaml[\s\S]*fast-check: \{ seed: 7[\s\S]*removeContainer/,
    );
  });
});
