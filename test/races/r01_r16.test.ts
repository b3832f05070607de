// Races R01 (a delete during an image pull still starts the container) and R16 (liveness probes
// after deletion): what each side of the catalog entry shows, beyond the invariant verdicts that
// test/docs/races.test.ts checks for every race.
import { describe, expect, it } from "vitest";
import { RACES, raceScenario } from "../../src/races/catalog.ts";
import { withKubeletVersion } from "../../src/scenario/variants.ts";
import { simulate } from "../../src/simulate.ts";
import type { TraceRecord } from "../../src/sim/index.ts";

const race = (id: string) => RACES.find((r) => r.id === id)!;
const POD = "default/web";

function run(id: string, side: "buggy" | "fixed", version?: string): TraceRecord[] {
  const s = raceScenario(race(id), side);
  return simulate(version === undefined ? s : withKubeletVersion(s, version)).records!;
}

const first = (recs: TraceRecord[], pred: (r: TraceRecord) => boolean) => recs.find(pred);
const runtimeCall = (kind: string) => (r: TraceRecord) => r.component === "runtime" && r.kind === kind && r.pod === POD;
const started = (r: TraceRecord) => runtimeCall("StartContainer")(r) && r.result === "ok";
const requested = (r: TraceRecord) => r.component === "podworker" && r.kind === "TerminationRequested" && r.pod === POD;

describe("R01 pw-start-after-delete-during-pull", () => {
  it("buggy (1.30): the pull runs to its end and the app starts about 31s after the delete, then is stopped", () => {
    const recs = run("R01", "buggy");
    const req = first(recs, requested)!;
    const pull = first(recs, runtimeCall("PullImage"))!;
    const start = first(recs, started)!;
    expect(req.t).toBeGreaterThanOrEqual(10_000);
    expect(req.t).toBeLessThan(10_100);
    expect(pull.result).toBe("ok");
    expect(pull.tookMs).toBe(40_000);
    const afterDeleteMs = (start.t - (start.tookMs as number)) - req.t;
    expect(afterDeleteMs).toBeGreaterThan(30_000);
    expect(afterDeleteMs).toBeLessThan(32_000);
    // The pending kill runs only after SyncPod returned: the container is stopped after it started.
    const stop = first(recs, runtimeCall("StopContainer"))!;
    expect(stop.t).toBeGreaterThan(start.t);
  });

  it("fixed (cancelImagePullOnTermination): the pull ends with Canceled at the delete and no container is ever created", () => {
    const recs = run("R01", "fixed");
    const req = first(recs, requested)!;
    const pull = first(recs, runtimeCall("PullImage"))!;
    expect(pull.t).toBe(req.t);
    expect(pull.error).toBe("rpc error: code = Canceled desc = context canceled");
    expect(recs.some(runtimeCall("CreateContainer"))).toBe(false);
    expect(recs.some(runtimeCall("StartContainer"))).toBe(false);
    // The cancelled sync ends with context.Canceled, and the kill follows at once.
    const end = first(recs, (r) => r.component === "podworker" && r.kind === "SyncEnd" && r.mode === "sync" && r.t >= req.t)!;
    expect(end.err).toBe("context canceled");
    const sandboxStop = first(recs, runtimeCall("StopPodSandbox"))!;
    expect(sandboxStop.t - req.t).toBeLessThan(1_000);
    // The image was never stored: the runtime dropped the pull.
    expect(recs.some((r) => r.kind === "Event" && r.reason === "Pulled")).toBe(false);
  });
});

describe("R16 probes-during-termination", () => {
  const liveness = (r: TraceRecord) => r.component === "prober" && r.kind === "ProbeRun" && r.probeType === "liveness" && r.pod === POD;
  const unhealthy = (r: TraceRecord) => r.kind === "Event" && r.reason === "Unhealthy" && r.pod === POD;
  const DELETE_MS = 20_000;

  it("buggy (1.21): the worker never sees the deletion; three liveness failures after it, with Unhealthy events", () => {
    const recs = run("R16", "buggy");
    const after = recs.filter((r) => liveness(r) && r.t > DELETE_MS);
    expect(after.length).toBe(3);
    const events = recs.filter((r) => unhealthy(r) && r.t > DELETE_MS);
    expect(events.map((e) => e.message)).toEqual(Array(3).fill("Liveness probe failed: liveness probe failed"));
    // The worker runs until the pod is removed, long after the container was asked to stop.
    const stop = first(recs, (r) => r.component === "prober" && r.kind === "WorkerStop" && r.probeType === "liveness")!;
    expect(stop.t).toBeGreaterThan(45_000);
  });

  it("fixed (proberReadsLatestPod): the worker stops at its first tick after the delete; no Unhealthy event", () => {
    const recs = run("R16", "fixed");
    expect(recs.filter((r) => liveness(r) && r.t > DELETE_MS)).toEqual([]);
    expect(recs.some(unhealthy)).toBe(false);
    const stop = first(recs, (r) => r.component === "prober" && r.kind === "WorkerStop" && r.probeType === "liveness")!;
    expect(stop.reason).toBe("done");
    expect(stop.t).toBeGreaterThan(DELETE_MS);
    expect(stop.t).toBeLessThan(DELETE_MS + 5_000);
  });

  it("kubelet 1.30 without the variant also holds: SyncTerminatingPod stops liveness (#110191)", () => {
    const r = simulate(withKubeletVersion(raceScenario(race("R16"), "buggy"), "1.30"));
    expect(r.checks.violations.filter((v) => v.invariant === "probe-after-termination-requested")).toEqual([]);
    expect(r.records!.some(unhealthy)).toBe(false);
  });
});
