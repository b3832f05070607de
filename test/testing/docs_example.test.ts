// The example of docs/testing.md, as a user would write it (there it imports from "kubelet-sim").
import { describe, it } from "vitest";
import { assertInvariantHolds, scenarioArb } from "../../src/index.ts";

describe("the kubelet, over generated pods, timelines and faults", () => {
  it("never shows a terminal phase changing, nor two copies of a container running", () => {
    assertInvariantHolds({
      scenarios: scenarioArb({ pods: { min: 1, max: 2 }, untilMs: 30_000 }),
      schedules: 3, // fifo, then two pct schedules per scenario
      invariant: ["terminal-phase-never-changes", "at-most-one-running-container"],
      numRuns: 10,
      seed: 2024,
    });
  });
});
