// Races R04 (an updated static pod overlaps the old one) and R06 (a shortened grace period is not
// honoured): what each side of the catalog entry shows beyond the invariant (test/docs/races.test.ts
// checks that).
import { describe, expect, it } from "vitest";
import { RACES, raceScenario } from "../../src/races/catalog.ts";
import { simulate, type SimulationResult } from "../../src/simulate.ts";

const race = (id: string) => RACES.find((r) => r.id === id)!;
const records = (r: SimulationResult, component: string, kind: string) => r.records!.filter((x) => x.component === component && x.kind === kind);

describe("R04: a static pod update (kubelet 1.22.4 against 1.22.5)", () => {
  const buggy = simulate(raceScenario(race("R04"), "buggy"));
  const fixed = simulate(raceScenario(race("R04"), "fixed"));
  const started = (r: SimulationResult) => records(r, "runtime", "ContainerStarted").map((x) => [x.t, x.id]);
  const exited = (r: SimulationResult) => records(r, "runtime", "ContainerExited").map((x) => [x.t, x.id]);

  it("1.22.4 starts the new etcd at 6.7s, while the old one runs until 55s", () => {
    expect(started(buggy)).toEqual([[1_736, "c-1"], [6_742, "c-2"]]);
    expect(exited(buggy)).toEqual([[55_010, "c-1"]]);
  });

  it("1.22.5 holds the new UID until the old one terminated", () => {
    expect(exited(fixed)).toEqual([[55_010, "c-1"]]);
    expect(started(fixed)).toEqual([[1_736, "c-1"], [57_746, "c-2"]]);
    expect(fixed.checks.expectations.every((e) => e.ok)).toBe(true);
  });

  it("neither side breaks start-after-termination-requested: the mirror pod's replacement is not a kill of the new pod", () => {
    for (const r of [buggy, fixed]) expect(r.checks.violations.map((v) => v.invariant)).not.toContain("start-after-termination-requested");
  });
});

describe("R06: a second delete with 10s during a 120s kill (kubelet 1.30, and the proposed fix)", () => {
  const buggy = simulate(raceScenario(race("R06"), "buggy"));
  const fixed = simulate(raceScenario(race("R06"), "fixed"));
  const signals = (r: SimulationResult) => records(r, "runtime", "Signal").map((x) => [x.t, x.signal]);

  it("1.30 waits out the first grace period: SIGKILL at 125s", () => {
    expect(signals(buggy)).toEqual([[5_020, "SIGTERM"], [125_020, "SIGKILL"]]);
    expect(records(buggy, "kubelet", "SyncTerminatingPod").map((x) => x.gracePeriod)).toEqual([120]);
  });

  it("with killHonoursShortenedGrace the kill in flight is abandoned and the app is killed at the 10s deadline", () => {
    expect(records(fixed, "kubelet", "KillPodCancelled").map((x) => x.t)).toEqual([15_010]);
    expect(records(fixed, "kubelet", "SyncTerminatingPod").map((x) => x.gracePeriod)).toEqual([120, 10]);
    expect(signals(fixed).at(-1)).toEqual([25_095, "SIGKILL"]);
    expect(fixed.ok).toBe(true);
  });
});
