// Races R09 (Evented PLEG hands a worker a stale "created" status), R10 (one hung status call stalls
// relist and every other pod) and R11 (a terminal phase in the API before the pod worker terminated
// the pod; the next pod is rejected OutOfcpu): what each side of the catalog entry shows beyond the
// invariant verdicts that test/docs/races.test.ts checks.
import { describe, expect, it } from "vitest";
import { RACES, raceScenario } from "../../src/races/catalog.ts";
import { simulate, type SimulationResult } from "../../src/simulate.ts";

const race = (id: string) => RACES.find((r) => r.id === id)!;
const records = (r: SimulationResult, component: string, kind: string) => r.records!.filter((x) => x.component === component && x.kind === kind);

describe("R09: Evented PLEG, the CONTAINER_CREATED event and GetNewerThan (1.26.7 against 1.32)", () => {
  const buggy = simulate(raceScenario(race("R09"), "buggy"));
  const fixed = simulate(raceScenario(race("R09"), "fixed"));
  const created = (r: SimulationResult) => records(r, "runtime", "CreateContainer").filter((x) => x.result === "ok").map((x) => x.t);

  it("1.26.7 stamps the event's entry 10⁹ times its creation time: the worker takes the CREATED entry at once and creates a second app", () => {
    const createdEvent = records(buggy, "pleg", "ContainerEvent").find((x) => x.type === "CONTAINER_CREATED_EVENT")!;
    expect(createdEvent.t).toBe(2_242);
    const set = records(buggy, "cache", "Set").find((x) => x.t === 2_242)!;
    expect(set.timeMs).toBe(1_642 * 1e9);
    expect(created(buggy)).toEqual([1_642, 2_343]);
  });

  it("1.32 stamps it 1.642s: the worker waits for the STARTED event and finds app running", () => {
    expect(records(fixed, "cache", "Set").find((x) => x.t === 2_242)!.timeMs).toBe(1_642);
    expect(created(fixed)).toEqual([1_642]);
    const resumed = records(fixed, "cache", "GetNewerThan").find((x) => x.t > 2_000)!;
    expect([resumed.t, resumed.statusTimeMs]).toEqual([2_342, 1_742]);
  });

  it("with the gate off the same scenario is the generic PLEG's and holds", () => {
    const s = raceScenario(race("R09"), "buggy");
    const off = simulate({ ...s, kubelet: { ...s.kubelet, featureGates: { ...s.kubelet.featureGates, EventedPLEG: false } } });
    expect(off.checks.violations).toEqual([]);
    expect(records(off, "pleg", "ContainerEvent")).toEqual([]);
  });
});

describe("R10: a hung ContainerStatus of one pod and the deletion of another (generic PLEG against Evented PLEG)", () => {
  const buggy = simulate(raceScenario(race("R10"), "buggy"));
  const fixed = simulate(raceScenario(race("R10"), "fixed"));
  const terminating = (r: SimulationResult) => records(r, "podworker", "SyncBegin").find((x) => x.pod === "default/fast" && x.mode === "terminating")!.t;

  it("the generic PLEG: fast's deletion at 100s waits until the stalled relist ends, 4m51s later", () => {
    expect(terminating(buggy)).toBe(391_185);
    const wait = records(buggy, "cache", "GetNewerThan").find((x) => x.pod === "default/fast" && x.t === 391_185)!;
    expect(wait.waitedMs).toBe(291_175);
  });

  it("the generic PLEG: 3 minutes after the stalled relist began, syncLoop stops syncing pods", () => {
    const skips = records(buggy, "kubelet", "SkippingPodSynchronization");
    expect(skips.length).toBeGreaterThan(5);
    expect(String(skips[0]!.err)).toMatch(/^PLEG is not healthy: pleg was last seen active 3m0\.\d+s ago; threshold is 3m0s$/);
  });

  it("the Evented PLEG: fast is terminated at its deletion, the node stays healthy", () => {
    expect(terminating(fixed)).toBe(100_010);
    expect(records(fixed, "kubelet", "SkippingPodSynchronization")).toEqual([]);
  });
});

describe("R11: the OutOfcpu rejection (kubelet 1.22.8 against 1.22.9)", () => {
  const buggy = simulate(raceScenario(race("R11"), "buggy"));
  const fixed = simulate(raceScenario(race("R11"), "fixed"));
  const bind = (r: SimulationResult) => records(r, "scheduler", "Bind")[0]!.t;
  const terminated = (r: SimulationResult) => records(r, "podworker", "Terminated").find((x) => x.pod === "default/first")!.t;

  it("1.22.8: the scheduler binds second before first's worker terminated it, and second is rejected OutOfcpu", () => {
    expect(bind(buggy)).toBeLessThan(terminated(buggy));
    const reject = records(buggy, "kubelet", "RejectPod")[0]!;
    expect([reject.pod, reject.reason]).toEqual(["default/second", "OutOfcpu"]);
    expect(reject.message).toBe("Node didn't have enough resource: cpu, requested: 4000, used: 4000, capacity: 4000");
  });

  it("1.22.9: the apiserver shows Succeeded only after the worker terminated first; second runs to Succeeded", () => {
    const succeeded = records(fixed, "apiserver", "PodView").find((x) => x.pod === "default/first" && x.phase === "Succeeded")!;
    expect(succeeded.t).toBeGreaterThan(terminated(fixed));
    expect(bind(fixed)).toBeGreaterThan(terminated(fixed));
    expect(records(fixed, "kubelet", "RejectPod")).toEqual([]);
    expect(fixed.checks.expectations.every((e) => e.ok)).toBe(true);
  });
});
