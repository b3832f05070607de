// (c) A property test as a user writes it: vitest and fast-check, through the installed package.
import { describe, it } from "vitest";
import { assertInvariantHolds, scenarioArb } from "kubelet-sim";

describe("the kubelet, over generated pods and schedules", () => {
  it("never shows a terminal phase changing", () => {
    assertInvariantHolds({
      scenarios: scenarioArb({ pods: { min: 1, max: 1 }, untilMs: 20_000 }),
      schedules: 2,
      invariant: "terminal-phase-never-changes",
      numRuns: 3,
      seed: 42,
    });
  });
});
