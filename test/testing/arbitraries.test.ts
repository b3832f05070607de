// The arbitraries build scenario objects the schema accepts, and they shrink.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scenarioArb, scenarioFromObject, podArb, containerBehaviourArb, faultArb, latencyArb, containerNames } from "../../src/index.ts";

describe("arbitraries", () => {
  it("give scenarios the schema accepts, for every option mix", () => {
    const arb = fc.record({ max: fc.integer({ min: 1, max: 3 }), versions: fc.subarray(["1.21", "1.25", "1.30", "1.33"], { minLength: 1 }) }).chain((o) =>
      scenarioArb({ pods: { max: o.max }, kubeletVersions: o.versions, maxFaults: 2, untilMs: 45_000 }));
    fc.assert(fc.property(arb, (raw) => {
      const s = scenarioFromObject(raw);
      expect(s.pods.length).toBeGreaterThanOrEqual(1);
      expect(s.timeline.every((step) => step.atMs <= s.untilMs)).toBe(true);
    }), { numRuns: 100 });
  });

  it("give pods whose behaviours name their containers", () => {
    fc.assert(fc.property(podArb({ name: "web", maxContainers: 3 }), (p) => {
      const { regular, init } = containerNames(p);
      expect(Object.keys(p.behaviour).every((n) => regular.includes(n) || init.includes(n))).toBe(true);
    }));
  });

  it("shrink a scenario to the smallest that still has what the property refuses", () => {
    const r = fc.check(fc.property(scenarioArb({ pods: { max: 3 }, maxSteps: 6 }), (raw) => (raw["timeline"] as unknown[]).length < 4), { seed: 1 });
    expect(r.failed).toBe(true);
    const [raw] = r.counterexample!;
    expect(raw["pods"]).toHaveLength(1);
    expect(raw["timeline"]).toHaveLength(4);
  });

  it("shrink behaviours, faults and latencies toward the defaults", () => {
    const min = <T>(arb: fc.Arbitrary<T>) => {
      const r = fc.check(fc.property(arb, () => false), { seed: 3 });
      return r.counterexample![0];
    };
    expect(min(containerBehaviourArb())).toEqual({});
    expect(min(latencyArb())).toEqual({});
    expect(min(faultArb(["p0"]))).toEqual({ method: "PullImage", kind: "error", message: "injected PullImage error" });
  });
});
