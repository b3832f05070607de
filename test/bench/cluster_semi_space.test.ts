// The cluster line runs in a `node` with the semi-space `kubelet-sim run` would give its scenario
// (src/cli/young.ts), so that its figure is what a user of the command gets.
import { describe, expect, it } from "vitest";
import { clusterSemiSpace } from "../../src/bench/cluster.ts";
import { CLUSTER_SIZE } from "../../src/bench/workloads.ts";
import { SEMI_SPACE_MB } from "../../src/cli/young.ts";

describe("the cluster line's young generation", () => {
  it("is the CLI's for a run that big, none when a size is chosen already or the run is small", () => {
    expect(clusterSemiSpace(CLUSTER_SIZE, "1h", false)).toBe(SEMI_SPACE_MB);
    expect(clusterSemiSpace(CLUSTER_SIZE, "1h", true)).toBeNull();
    expect(clusterSemiSpace({ nodes: 2, podsPerNode: 10 }, "5m", false)).toBeNull();
  });
});
