// Races R17-R25: what each side of the catalog entry shows beyond the invariant
// (test/docs/races.test.ts checks the invariant on both sides, test/races/hunt.test.ts the hunt forms).
import { describe, expect, it } from "vitest";
import { RACES, raceScenario } from "../../src/races/catalog.ts";
import { simulate, type SimulationResult } from "../../src/simulate.ts";
import { withKubeletVersion } from "../../src/scenario/variants.ts";

const race = (id: string) => RACES.find((r) => r.id === id)!;
const run = (id: string, side: "buggy" | "fixed") => simulate(raceScenario(race(id), side));
const records = (r: SimulationResult, component: string, kind: string) => r.records!.filter((x) => x.component === component && x.kind === kind);
const starts = (r: SimulationResult, name?: string) =>
  records(r, "runtime", "ContainerStarted").filter((x) => name === undefined || x.container === name).map((x) => [x.t, x.id]);
const probes = (r: SimulationResult, id: string, type: string) =>
  records(r, "prober", "ProbeRun").filter((x) => x.containerID === `containerd://${id}` && x.probeType === type).map((x) => x.t);

describe("R17: Started inherited by name after a liveness restart (kubelet 1.35)", () => {
  const buggy = run("R17", "buggy");
  const fixed = run("R17", "fixed");

  it("1.35 probes the new container's liveness 0.8s after it started, before any startup probe, and crash-loops", () => {
    expect(starts(buggy).slice(0, 2)).toEqual([[1_742, "c-1"], [64_026, "c-2"]]);
    expect(probes(buggy, "c-2", "liveness")).toEqual([64_814, 65_814, 66_814]);
    expect(probes(buggy, "c-2", "startup")).toEqual([]);
    expect(starts(buggy).length).toBeGreaterThanOrEqual(4);
  });

  it("with the fix the new container waits for its startup probe (success at 91.3s), and runs on", () => {
    expect(starts(fixed)).toEqual([[1_742, "c-1"], [64_026, "c-2"]]);
    expect(probes(fixed, "c-2", "liveness")[0]).toBe(91_814);
    expect(records(fixed, "prober", "ResultSet").find((x) => x.containerID === "containerd://c-2" && x.probeType === "startup" && x.result === "Success")?.t).toBe(91_282);
  });

  it("1.34 (the gate on by default: nothing kept) behaves as the fix", () => {
    const r = simulate(withKubeletVersion(raceScenario(race("R17"), "buggy"), "1.34"));
    expect(r.checks.violations).toEqual([]);
  });
});

describe("R18: a replacement reported Ready after a kubelet restart (kubelet 1.35)", () => {
  const views = (r: SimulationResult) => records(r, "apiserver", "PodView").filter((x) => x.t > 100_000).map((x) => [x.t, x.ready]);

  it("1.35 shows B ready from 116.5s (the apiserver reached again) until its third failed probe at 166.5s", () => {
    expect(views(run("R18", "buggy")).slice(0, 3)).toEqual([[116_495, "1/1"], [166_516, "0/1"], [176_516, "1/1"]]);
  });

  it("with the fix B's worker seeds Failure at once: ready only in the first status, before the workers exist", () => {
    expect(views(run("R18", "fixed")).slice(0, 3)).toEqual([[116_495, "1/1"], [116_515, "0/1"], [176_516, "1/1"]]);
  });
});

describe("R19: a crashed app never restarted after a kubelet restart (kubelet 1.35.3)", () => {
  it("1.35.3 leaves the app exited for good: no start, no back-off after 40s", () => {
    const r = run("R19", "buggy");
    expect(starts(r, "app")).toEqual([[12_483, "c-2"]]);
    expect(records(r, "kuberuntime", "StartContainer").filter((x) => x.t > 40_000)).toEqual([]);
  });

  it("1.35.4 restarts it at once (its first crash)", () => {
    expect(starts(run("R19", "fixed"), "app")).toEqual([[12_483, "c-2"], [40_259, "c-3"]]);
  });
});

describe("R20: init order after a node reboot (kubelet 1.28.1)", () => {
  it("1.28.1 starts the app next to init-1 in the new sandbox; init-2 never runs there", () => {
    const r = run("R20", "buggy");
    expect(starts(r).filter(([t]) => (t as number) > 30_000)).toEqual([[40_934, "c-4"], [41_225, "c-5"]]);
    expect(records(r, "runtime", "ContainerStarted").filter((x) => x.t > 30_000).map((x) => x.container)).toEqual(["init-1", "app"]);
  });

  it("1.28.2 runs init-1, then init-2, then the app", () => {
    const r = run("R20", "fixed");
    expect(records(r, "runtime", "ContainerStarted").filter((x) => x.t > 30_000).map((x) => [x.t, x.container])).toEqual([
      [40_934, "init-1"], [44_245, "init-2"], [48_279, "app"],
    ]);
  });

  it("1.29 (the sidecar code with #120269) keeps the order too", () => {
    expect(simulate(withKubeletVersion(raceScenario(race("R20"), "buggy"), "1.29")).checks.violations).toEqual([]);
  });
});

describe("R22: a Never container runs again after its record is removed (every release)", () => {
  it("the resync at 89.2s starts completed a second time; 1.21 (the pre-1.22 pod workers) does it too", () => {
    expect(starts(run("R22", "buggy"), "completed")).toEqual([[1_943, "c-2"], [89_211, "c-3"]]);
    expect(starts(simulate(withKubeletVersion(raceScenario(race("R22"), "buggy"), "1.21")), "completed").length).toBe(2);
  });

  it("with the proposed fix the API status stands in for the lost record", () => {
    expect(starts(run("R22", "fixed"), "completed")).toEqual([[1_943, "c-2"]]);
  });
});

describe("R23: a sidecar waits for a later sidecar that never started (kubelet 1.30.3)", () => {
  const sigterm = (r: SimulationResult) => records(r, "runtime", "Signal").filter((x) => x.container === "proxy").map((x) => [x.t, x.signal]);

  it("1.30.3 signals proxy when the 600s grace period is spent", () => {
    expect(sigterm(run("R23", "buggy"))).toEqual([[630_024, "SIGTERM"]]);
  });

  it("1.30.4 signals it at once; 1.28 (no ordering) does too", () => {
    expect(sigterm(run("R23", "fixed"))[0]![0]).toBeLessThan(31_000);
    expect(simulate(withKubeletVersion(raceScenario(race("R23"), "buggy"), "1.28")).checks.violations).toEqual([]);
  });
});

describe("R24: a force-deleted pod whose stop failed (kubelet 1.26)", () => {
  it("1.26 never stops the app again: one failed StopContainer, the worker never terminates", () => {
    const r = run("R24", "buggy");
    expect(records(r, "runtime", "StopContainer").map((x) => [x.t, x.result ?? "error"])).toEqual([[10_024, "error"]]);
    expect(records(r, "podworker", "Terminated")).toEqual([]);
    expect(records(r, "runtime", "ContainerExited")).toEqual([]);
  });

  it("1.27 retries at the next housekeeping (12s) and finishes the pod", () => {
    const r = run("R24", "fixed");
    expect(records(r, "runtime", "ContainerExited").map((x) => x.t)).toEqual([12_020]);
    expect(records(r, "podworker", "Finished").map((x) => x.t)).toEqual([13_109]);
  });
});

describe("R25: the first crash restarts with no back-off (every release)", () => {
  it("1.35: restarts at 3.2s (at once), 16.2s, 42.2s, 85.2s: each delay one step behind", () => {
    expect(starts(run("R25", "buggy")).map(([t]) => t)).toEqual([1_742, 3_244, 16_215, 42_215, 85_211]);
  });

  it("the proposed fix waits 10s after the first crash: 17.2s, 45.2s, 90.2s", () => {
    expect(starts(run("R25", "fixed")).map(([t]) => t)).toEqual([1_742, 17_211, 45_211, 90_215]);
  });
});
