// The cluster races R26-R27: what each side of the catalog entry shows beyond the invariant
// (test/docs/races.test.ts checks the invariant on both sides, test/races/hunt.test.ts the hunt forms).
import { describe, expect, it } from "vitest";
import { RACES, raceScenario } from "../../src/races/catalog.ts";
import { simulate, type SimulationResult } from "../../src/simulate.ts";

const race = (id: string) => RACES.find((r) => r.id === id)!;
const run = (id: string, side: "buggy" | "fixed") => simulate(raceScenario(race(id), side));
const of = (r: SimulationResult, component: string, kind: string) => r.records!.filter((x) => x.component === component && x.kind === kind);

describe("R26: a StatefulSet identity on two nodes after a force delete during a partition", () => {
  const buggy = run("R26", "buggy");
  const fixed = run("R26", "fixed");
  const placed = (r: SimulationResult) => of(r, "scheduler", "Event").filter((x) => x.pod === "default/db-0").map((x) => [x.t, x.message]);
  const postgres = (r: SimulationResult) =>
    r.records!.filter((x) => x.component === "runtime" && x.pod === "default/db-0" && ((x.kind === "StartContainer" && x.result === "ok") || x.kind === "ContainerExited")).map((x) => [x.t, x.kind, x.node]);

  it("db-0 is placed on node-a (node-b busy with the batch pod), and again on node-b after the force delete", () => {
    const expected = [[30, "Successfully assigned default/db-0 to node-a"], [60_030, "Successfully assigned default/db-0 to node-b"]];
    expect(placed(buggy)).toEqual(expected);
    expect(placed(fixed)).toEqual(expected);
  });

  it("during the partition node-a's postgres runs on: it stops only once the partition healed and node-a's kubelet hears of the deletion", () => {
    expect(postgres(buggy)).toEqual([[1_752, "StartContainer", "node-a"], [61_752, "StartContainer", "node-b"], [164_872, "ContainerExited", "node-a"]]);
    expect(buggy.checks.violations.map((v) => [v.t, v.invariant])).toEqual([[61_752, "statefulset-identity-at-most-once"]]);
    // The partition ended at 150s; the old pod's kubelet learns of the delete by its DELETE event.
    expect(of(buggy, "kubelet", "SyncLoopDELETE").filter((x) => x.node === "node-a").map((x) => x.t)).toEqual([164_862]);
  });

  it("with the node shut down first, node-a's postgres is gone before the identity is made again", () => {
    expect(of(fixed, "scenario", "NodeShutdown").map((x) => [x.t, x.node])).toEqual([[60_000, "node-a"]]);
    expect(postgres(fixed)).toEqual([[1_752, "StartContainer", "node-a"], [60_000, "ContainerExited", "node-a"], [61_752, "StartContainer", "node-b"]]);
    expect(fixed.checks.violations).toEqual([]);
  });
});

describe("R27: a Job runs more pods than its parallelism while a deleted pod is still terminating", () => {
  const buggy = run("R27", "buggy");
  const fixed = run("R27", "fixed");
  const workers = (r: SimulationResult) =>
    r.records!.filter((x) => x.component === "runtime" && ((x.kind === "StartContainer" && x.result === "ok") || x.kind === "ContainerExited")).map((x) => [x.t, x.kind, x.node, x.pod]);
  const backoffs = (r: SimulationResult) => of(r, "job-controller", "PodFailureBackoff").map((x) => [x.t, x.remainingMs]);

  it("1.28 counts the deleted pod as failed at once and makes its replacement after the 10s back-off, while the old worker still checkpoints", () => {
    expect(backoffs(buggy)).toEqual([[30_010, 10_000]]);
    expect(workers(buggy)).toEqual([
      [1_742, "StartContainer", "node-a", "default/train-w64sf"],
      [41_752, "StartContainer", "node-b", "default/train-7fkf9"],
      [60_020, "ContainerExited", "node-a", "default/train-w64sf"],
    ]);
    expect(buggy.checks.violations.map((v) => [v.t, v.invariant])).toEqual([[41_752, "job-running-at-most-parallelism"]]);
  });

  it("1.29 honours podReplacementPolicy: Failed: the replacement waits for the old pod to be Failed, then the back-off", () => {
    expect(workers(fixed)).toEqual([
      [1_742, "StartContainer", "node-a", "default/train-w64sf"],
      [60_020, "ContainerExited", "node-a", "default/train-w64sf"],
      [70_888, "StartContainer", "node-a", "default/train-7fkf9"],
    ]);
    expect(backoffs(fixed)[0]).toEqual([60_146, 10_000]);
  });
});
