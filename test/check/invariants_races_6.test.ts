// The invariants of races R10, R11 and R13 on hand-written traces: where each fires, and the normal
// lags and legitimate cases where it must not.
import { describe, expect, it } from "vitest";
import type { TraceRecord } from "../../src/sim/index.ts";
import type { StoredEvent } from "../../src/apiserver/index.ts";
import { loadScenarioText, type Scenario } from "../../src/scenario/index.ts";
import { INVARIANTS } from "../../src/check/invariants/index.ts";
import { stallBoundMs } from "../../src/check/invariants/pleg_stall.ts";

type Fields = Record<string, unknown>;
type Input = { rec: Omit<TraceRecord, "seq"> } | { api: StoredEvent; t: number };
const R = (t: number, component: string, kind: string, fields: Fields = {}): Input => ({ rec: { t, component, kind, ...fields } });

const SCENARIO = loadScenarioText(`
name: invariants
kubelet: { allocatable: { cpu: "4" } }
pods: []
`).scenario;

function violations(id: string, inputs: Input[], scenario: Scenario = SCENARIO): string[] {
  const m = INVARIANTS.find((i) => i.id === id)!.make(scenario);
  return inputs.flatMap((x, seq) => {
    const v = "rec" in x ? m.observe({ ...x.rec, seq } as TraceRecord) : (m.observeApi?.(x.api, x.t) ?? null);
    return v === null ? [] : [v.message];
  });
}


describe("pleg-stall-delays-other-pods", () => {
  const ID = "pleg-stall-delays-other-pods";
  const view = (t: number, name: string) => R(t, "apiserver", "PodView", { pod: `default/${name}`, uid: `uid-${name}`, phase: "Running" });

  it("the bound is ten relist periods, at least two global cache updates of the Evented PLEG", () => {
    expect(stallBoundMs(1_000)).toBe(10_000);
    expect(stallBoundMs(3_000)).toBe(30_000);
  });

  it("fires when a worker waits past the bound while another pod's status call held the relist", () => {
    expect(violations(ID, [
      view(0, "fast"), view(0, "slow"),
      R(150_000, "runtime", "ContainerStatus", { pod: "default/slow", tookMs: 120_000 }),
      R(160_000, "cache", "GetNewerThan", { uid: "uid-fast", waitedMs: 60_000 }),
    ])).toEqual(["the pod worker waited 60000ms for a fresh pod status (GetNewerThan) while ContainerStatus of default/slow took 120000ms"]);
  });

  it("stays quiet for the pod's own slow call, for short waits, and for a long wait without a slow call (the runtime down)", () => {
    expect(violations(ID, [
      view(0, "slow"),
      R(150_000, "runtime", "ContainerStatus", { pod: "default/slow", tookMs: 120_000 }),
      R(160_000, "cache", "GetNewerThan", { uid: "uid-slow", waitedMs: 60_000 }),
      R(161_000, "cache", "GetNewerThan", { uid: "uid-fast", waitedMs: 900 }),
      R(200_000, "cache", "GetNewerThan", { uid: "uid-fast", waitedMs: 30_000 }),
    ])).toEqual([]);
  });

  it("a slow call outside the wait, or a slow call that is not a status call (a pull), does not count", () => {
    expect(violations(ID, [
      view(0, "fast"), view(0, "slow"),
      R(10_000, "runtime", "ContainerStatus", { pod: "default/slow", tookMs: 8_000 }),
      R(100_000, "runtime", "PullImage", { pod: "default/slow", tookMs: 60_000 }),
      R(110_000, "cache", "GetNewerThan", { uid: "uid-fast", waitedMs: 20_000 }),
    ])).toEqual([]);
  });
});

describe("rejected-for-resources-of-terminal-pod", () => {
  const ID = "rejected-for-resources-of-terminal-pod";
  const PODS = loadScenarioText(`
name: r11
kubelet: { allocatable: { cpu: "4" } }
pods:
${["first", "second", "other"].map((n) => `  - manifest:
      apiVersion: v1
      kind: Pod
      metadata: { name: ${n} }
      spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "4" } } }] }`).join("\n")}
`).scenario;
  const view = (t: number, name: string, phase: string, deleted = false) => R(t, "apiserver", "PodView", { pod: `default/${name}`, uid: `uid-${name}`, phase, ...(deleted ? { deleted } : {}) });
  const reject = (t: number, name: string, reason = "OutOfcpu") => R(t, "kubelet", "RejectPod", { pod: `default/${name}`, reason });

  it("fires when the only pod in the way is terminal in the apiserver", () => {
    expect(violations(ID, [view(1, "first", "Running"), view(5, "first", "Succeeded"), view(6, "second", "Pending"), reject(7, "second")], PODS)).toEqual([
      "RejectPod OutOfcpu although the pods active in the apiserver leave room for it; the kubelet still counted default/first (Succeeded in the PodView at 5ms)",
    ]);
  });

  it("stays quiet when an active pod holds the room, when the terminal pod is gone, and for other reasons", () => {
    expect(violations(ID, [view(5, "first", "Running"), view(6, "second", "Pending"), reject(7, "second")], PODS)).toEqual([]);
    expect(violations(ID, [view(5, "first", "Succeeded"), view(6, "other", "Running"), view(6, "second", "Pending"), reject(7, "second")], PODS)).toEqual([]);
    expect(violations(ID, [view(5, "first", "Succeeded"), view(6, "second", "Pending"), reject(7, "second", "UnexpectedAdmissionError")], PODS)).toEqual([]);
  });
});

describe("phase-regressed-to-pending", () => {
  const ID = "phase-regressed-to-pending";
  const view = (t: number, phase: string, uid = "u1") => R(t, "apiserver", "PodView", { pod: "default/job", uid, phase });
  const sandbox = (t: number) => R(t, "runtime", "RunPodSandbox", { pod: "default/job", result: "ok", tookMs: 500 });

  it("fires on Running then Pending with no new sandbox", () => {
    expect(violations(ID, [view(1, "Pending"), sandbox(2), view(3, "Running"), view(9, "Pending")])).toEqual([
      "phase went from Running (since 3ms) back to Pending in the PodView at 9ms for UID u1, with no new sandbox in between",
    ]);
  });

  it("stays quiet after a new sandbox (init containers rerun), for a new UID under the name, and for Pending before Running", () => {
    expect(violations(ID, [view(1, "Pending"), sandbox(2), view(3, "Running"), sandbox(5), view(9, "Pending")])).toEqual([]);
    expect(violations(ID, [view(3, "Running"), view(9, "Pending", "u2")])).toEqual([]);
    // A static pod updated behind the same mirror pod: another kubelet UID writes Pending.
    const sync = (t: number, uid: string) => R(t, "kubelet", "SyncPod", { pod: "default/job", uid });
    expect(violations(ID, [sync(1, "k1"), view(3, "Running"), sync(8, "k2"), view(9, "Pending")])).toEqual([]);
    // A static pod removed and put back with its UID: terminated, then started again.
    expect(violations(ID, [view(3, "Running"), R(7, "podworker", "Terminated", { pod: "default/job" }), view(9, "Pending")])).toEqual([]);
    expect(violations(ID, [view(1, "Pending"), view(2, "Pending"), view(3, "Running"), view(4, "Failed")])).toEqual([]);
  });
});
