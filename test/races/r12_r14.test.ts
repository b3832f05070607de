// Races R12 (an evicted pod Failed and Ready at once), R13 (Running back to Pending once a running
// container's record vanished) and R14 (a Succeeded pod re-admitted after a kubelet restart and
// marked Failed): what each side of the catalog entry shows beyond the invariant verdicts that
// test/docs/races.test.ts checks.
import { describe, expect, it } from "vitest";
import { RACES, raceScenario } from "../../src/races/catalog.ts";
import { simulate, type SimulationResult } from "../../src/simulate.ts";
import { withKubeletVersion } from "../../src/scenario/variants.ts";

const race = (id: string) => RACES.find((r) => r.id === id)!;
const records = (r: SimulationResult, component: string, kind: string) => r.records!.filter((x) => x.component === component && x.kind === kind);
const phases = (r: SimulationResult, pod: string) => {
  const out: string[] = [];
  for (const v of records(r, "apiserver", "PodView")) if (v.pod === pod && v.deleted !== true && out.at(-1) !== v.phase) out.push(String(v.phase));
  return out;
};

describe("R12: the eviction's status (kubelet 1.23.5 against 1.23.8)", () => {
  const buggy = simulate(raceScenario(race("R12"), "buggy"));
  const fixed = simulate(raceScenario(race("R12"), "fixed"));

  it("the eviction manager records the Evicted event and kills through the pod worker with its status function", () => {
    const event = records(buggy, "kubelet", "Event").find((x) => x.reason === "Evicted")!;
    expect([event.t, event.type, event.message]).toEqual([10_000, "Warning", "The node was low on resource: memory."]);
    expect(records(buggy, "podworker", "TerminationRequested")[0]!.why).toBe("evicted");
  });

  it("1.23.5 writes Failed/Evicted with Ready=True while the container still runs; Ready turns False when it exits at 30s", () => {
    const first = buggy.checks.violations.find((v) => v.invariant === "ready-with-terminal-phase")!;
    expect(first.t).toBe(10_015);
    expect(first.message).toBe("the apiserver shows phase Failed (Evicted) with Ready=True (the PodView at 10015ms)");
    expect(phases(buggy, "default/web")).toEqual(["Pending", "Running", "Failed"]);
    // 1.22 would go on from Failed back to Running once the container stopped (#105462, fixed in 1.23).
    const v122 = simulate(withKubeletVersion(raceScenario(race("R12"), "buggy"), "1.22.8"));
    expect(phases(v122, "default/web")).toEqual(["Pending", "Running", "Failed", "Running"]);
  });

  it("1.23.8 holds the phase at Running until the container stopped, and never shows Ready with Failed", () => {
    const failed = records(fixed, "apiserver", "PodView").find((x) => x.phase === "Failed")!;
    expect(failed.t).toBeGreaterThan(30_000);
    expect(fixed.checks.violations).toEqual([]);
  });
});

describe("R13: the record of a running container vanishes (kubelet 1.19 against 1.20)", () => {
  const buggy = simulate(raceScenario(race("R13"), "buggy"));
  const fixed = simulate(raceScenario(race("R13"), "fixed"));

  it("1.19 shows the pod Pending again, then starts the Never pod's container a second time", () => {
    expect(phases(buggy, "default/job")).toEqual(["Pending", "Running", "Pending", "Running"]);
    expect(records(buggy, "runtime", "StartContainer").filter((x) => x.result === "ok").map((x) => x.t)).toEqual([1_742, 10_271]);
  });

  it("1.20 infers that the container terminated (ContainerStatusUnknown, 137): Running to Failed", () => {
    expect(phases(fixed, "default/job")).toEqual(["Pending", "Running", "Failed"]);
  });

  it("removing an exited container is harmless in 1.19: the hunt form as written keeps the terminated status", () => {
    const exited = simulate(raceScenario(race("R13"), "buggy", "hunt"));
    expect(phases(exited, "default/job")).toEqual(["Pending", "Running", "Succeeded"]);
    expect(exited.checks.violations).toEqual([]);
  });

});

describe("R14: re-admission after a kubelet restart (kubelet 1.31.0 against 1.31.1)", () => {
  const buggy = simulate(raceScenario(race("R14"), "buggy"));
  const fixed = simulate(raceScenario(race("R14"), "fixed"));

  it("1.31.0 re-admits the Succeeded pod before the device plugin registered again: UnexpectedAdmissionError", () => {
    const rejects = records(buggy, "kubelet", "RejectPod");
    expect(rejects.map((x) => [x.t, x.reason])).toEqual([[30_010, "UnexpectedAdmissionError"]]);
    expect(rejects[0]!.message).toBe("Allocate failed due to cannot allocate unregistered device example.com/gpu, which is unexpected");
    expect(records(buggy, "kubelet", "DevicePluginRegistered").map((x) => x.t)).toEqual([2_000, 32_000]);
    expect(phases(buggy, "default/train").slice(0, 4)).toEqual(["Pending", "Running", "Succeeded", "Failed"]);
  });

  it("1.31.1 leaves the terminal pod out of admission: it stays Succeeded", () => {
    expect(records(fixed, "kubelet", "RejectPod")).toEqual([]);
    expect(phases(fixed, "default/train")).toEqual(["Pending", "Running", "Succeeded"]);
  });

  it("the fix reached 1.28.14, 1.29.9 and 1.30.5, not the patch releases before them", () => {
    const s = raceScenario(race("R14"), "buggy");
    const broken = (v: string) => simulate(withKubeletVersion(s, v)).checks.violations.some((x) => x.invariant === "terminal-phase-never-changes");
    expect(["1.28.13", "1.28.14", "1.29.8", "1.29.9", "1.30.4", "1.30.5"].map(broken)).toEqual([true, false, true, false, true, false]);
  });
});
