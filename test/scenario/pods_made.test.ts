// podsMade: the pods a scenario makes, each entry once or as its controller multiplies it.
import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/scenario/index.ts";
import { podsMade } from "../../src/scenario/pods_made.ts";

describe("podsMade", () => {
  it("counts an entry once, replicas, a Job's parallelism and a DaemonSet's pod on every node", () => {
    expect(podsMade(loadScenarioFile("scenarios/basics/01-pod-starts.yaml").scenario)).toBe(1);
    // Deployment 6 + StatefulSet 3 + DaemonSet on 3 nodes + Job parallelism 2.
    expect(podsMade(loadScenarioFile("examples/cluster/workloads.yaml").scenario)).toBe(6 + 3 + 3 + 2);
  });
});
