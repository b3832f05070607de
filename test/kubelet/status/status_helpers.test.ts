// Table tests of the status manager's pure helpers, after pkg/kubelet/status/status_manager_test.go
// (TestStatusEquality, TestStatusNormalizationEnforcesMaxBytes, TestUpdateLastTransitionTime,
// TestMergePodStatus). checkContainerStateTransition has no table of its own upstream; its cases
// are derived from the function and from the phase-regression races it guards (races.md R13).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { canonicalJSON } from "../../../src/kubelet/container/helpers.ts";
import type { ContainerStatus, Pod, PodStatus, RestartPolicy } from "../../../src/k8s/pod.ts";
import {
  checkContainerStateTransition,
  checkInitContainerStateTransition,
  isPodStatusByKubeletEqual,
  mergePodStatus,
  MaxPodTerminationMessageLogLength,
  normalizeStatus,
  updateLastTransitionTime,
} from "../../../src/kubelet/status/status_helpers.ts";
import { statusEra } from "../../../src/kubelet/status/era.ts";
import { hasPodInitialized } from "../../../src/kubelet/status/terminate.ts";
import { semanticDeepEqual } from "../../../src/kubelet/status/status_helpers.ts";
import { formatRFC3339 } from "../../../src/kubelet/status/metatime.ts";

const terminated = (name: string, exitCode: number): ContainerStatus => ({ name, state: { terminated: { exitCode } } });
const running = (name: string): ContainerStatus => ({ name, state: { running: {} } });
const waiting = (name: string): ContainerStatus => ({ name, state: { waiting: { reason: "CrashLoopBackOff" } } });

describe("checkContainerStateTransition", () => {
  const cases: { name: string; policy: RestartPolicy; old: ContainerStatus[]; next: ContainerStatus[]; illegal: boolean }[] = [
    { name: "Always: terminated(0) -> running is allowed", policy: "Always", old: [terminated("c", 0)], next: [running("c")], illegal: false },
    { name: "Always: terminated(1) -> waiting is allowed", policy: "Always", old: [terminated("c", 1)], next: [waiting("c")], illegal: false },
    { name: "OnFailure: terminated(1) -> running is allowed (will restart)", policy: "OnFailure", old: [terminated("c", 1)], next: [running("c")], illegal: false },
    { name: "OnFailure: terminated(0) -> running is illegal", policy: "OnFailure", old: [terminated("c", 0)], next: [running("c")], illegal: true },
    { name: "OnFailure: terminated(0) -> waiting is illegal", policy: "OnFailure", old: [terminated("c", 0)], next: [waiting("c")], illegal: true },
    { name: "Never: terminated(1) -> running is illegal", policy: "Never", old: [terminated("c", 1)], next: [running("c")], illegal: true },
    { name: "Never: terminated(0) -> waiting is illegal (R13 phase regression)", policy: "Never", old: [terminated("c", 0)], next: [waiting("c")], illegal: true },
    { name: "Never: terminated(0) -> no state at all is illegal", policy: "Never", old: [terminated("c", 0)], next: [{ name: "c" }], illegal: true },
    { name: "Never: terminated -> terminated (other exit code) is allowed", policy: "Never", old: [terminated("c", 0)], next: [terminated("c", 2)], illegal: false },
    { name: "Never: running -> waiting is allowed (was not terminated)", policy: "Never", old: [running("c")], next: [waiting("c")], illegal: false },
    { name: "Never: a missing new status is allowed", policy: "Never", old: [terminated("c", 0)], next: [], illegal: false },
    { name: "Never: only the terminated container's name is checked", policy: "Never", old: [terminated("a", 0), running("b")], next: [terminated("a", 0), waiting("b")], illegal: false },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const err = checkContainerStateTransition(tc.old, tc.next, tc.policy);
      expect(err !== null).toBe(tc.illegal);
      if (tc.illegal) expect(err).toMatch(/terminated container c attempted illegal transition to non-terminated state/);
    });
  }
});

describe("checkInitContainerStateTransition (≥1.30, #123323)", () => {
  const podWith = (policy: RestartPolicy): Pod => ({
    metadata: { name: "p" },
    spec: { restartPolicy: policy, initContainers: [{ name: "init" }, { name: "side", restartPolicy: "Always" }], containers: [{ name: "app" }] },
  });
  it.each([
    ["Never: a sidecar may leave the terminated state (it always may restart)", "Never", [terminated("init", 0), terminated("side", 1)], [terminated("init", 0), running("side")], null],
    ["Never: a regular init container may not", "Never", [terminated("init", 0), running("side")], [waiting("init"), running("side")],
      "terminated init container init attempted illegal transition to non-terminated state"],
    ["OnFailure: a failed regular init container may restart", "OnFailure", [terminated("init", 1)], [running("init")], null],
    ["Always: anything goes", "Always", [terminated("init", 0)], [running("init")], null],
    ["Never: statuses that do not match the spec by index are a mismatch", "Never", [terminated("side", 0)], [running("side")],
      "found mismatch between pod spec and status, container: side"],
  ] as const)("%s", (_name, policy, old, next, want) => {
    expect(checkInitContainerStateTransition(old, next, podWith(policy))).toBe(want);
  });

  it("before 1.30 the same restarted sidecar is an illegal transition (the status update is aborted)", () => {
    expect(checkContainerStateTransition([terminated("side", 1)], [running("side")], "Never")).toMatch(/terminated container side attempted illegal transition/);
  });
});

describe("updateLastTransitionTime (TestUpdateLastTransitionTime)", () => {
  const old = "2025-01-01T00:00:01Z";
  const nowMs = 60_000;
  const cases: { name: string; cond?: "True" | "False"; oldCond?: "True" | "False"; expectUpdate: boolean }[] = [
    { name: "should do nothing if no corresponding condition", expectUpdate: false },
    { name: "should update last transition time if no old condition", cond: "True", expectUpdate: true },
    { name: "should update last transition time if condition is changed", cond: "True", oldCond: "False", expectUpdate: true },
    { name: "should keep last transition time if condition is not changed", cond: "False", oldCond: "False", expectUpdate: false },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const status: PodStatus = tc.cond === undefined ? {} : { conditions: [{ type: "test-type", status: tc.cond }] };
      const oldStatus: PodStatus = tc.oldCond === undefined ? {} : { conditions: [{ type: "test-type", status: tc.oldCond, lastTransitionTime: old }] };
      updateLastTransitionTime(status, oldStatus, "test-type", nowMs);
      if (tc.expectUpdate) expect(status.conditions![0]!.lastTransitionTime).toBe(formatRFC3339(nowMs));
      else if (tc.cond !== undefined) expect(status.conditions![0]!.lastTransitionTime).toBe(old);
      else expect(status.conditions).toBeUndefined();
    });
  }
});

describe("isPodStatusByKubeletEqual and normalizeStatus", () => {
  const pod: Pod = { metadata: { name: "p" }, spec: { containers: [{ name: "x" }] } };

  it("order of container statuses does not affect normalized equality (TestStatusEquality)", () => {
    const statuses = Array.from({ length: 10 }, (_, i) => ({ name: `container${i}` }));
    const a = normalizeStatus(pod, { containerStatuses: [...statuses].reverse() });
    const b = normalizeStatus(pod, { containerStatuses: [...statuses.slice(5), ...statuses.slice(0, 5)] });
    expect(isPodStatusByKubeletEqual(a, b, statusEra(33))).toBe(true);
  });

  it("conditions not owned by the kubelet do not count (TestStatusEquality)", () => {
    const a: PodStatus = { conditions: [{ type: "www.example.com/feature", status: "False" }] };
    const b: PodStatus = { conditions: [{ type: "www.example.com/feature", status: "True" }] };
    expect(isPodStatusByKubeletEqual(a, b, statusEra(33))).toBe(true);
  });

  it("a kubelet condition differing in status, reason or message makes them differ; transition time does not", () => {
    const base = { type: "Ready", status: "True" as const, lastTransitionTime: "2025-01-01T00:00:01Z" };
    expect(isPodStatusByKubeletEqual({ conditions: [base] }, { conditions: [{ ...base, lastTransitionTime: "2025-01-01T00:09:00Z" }] }, statusEra(33))).toBe(true);
    expect(isPodStatusByKubeletEqual({ conditions: [base] }, { conditions: [{ ...base, status: "False" }] }, statusEra(33))).toBe(false);
    expect(isPodStatusByKubeletEqual({ conditions: [base] }, { conditions: [{ ...base, reason: "X" }] }, statusEra(33))).toBe(false);
    expect(isPodStatusByKubeletEqual({ conditions: [] }, { conditions: [base] }, statusEra(33))).toBe(false);
  });

  it("nil and empty, zero and absent are equal; a nil pointer differs from false (Semantic.DeepEqual)", () => {
    expect(semanticDeepEqual({ containerStatuses: [] }, {})).toBe(true);
    expect(semanticDeepEqual({ message: "" }, {})).toBe(true);
    expect(semanticDeepEqual({ containerStatuses: [{ name: "a", ready: false, restartCount: 0 }] }, { containerStatuses: [{ name: "a" }] })).toBe(true);
    expect(semanticDeepEqual({ containerStatuses: [{ name: "a", started: false }] }, { containerStatuses: [{ name: "a" }] })).toBe(false);
    expect(semanticDeepEqual({ containerStatuses: [{ name: "a", state: { waiting: {} } }] }, { containerStatuses: [{ name: "a", state: {} }] })).toBe(false);
  });

  it("timestamps are cut to whole seconds, so a finer copy of the same status is equal", () => {
    const a = normalizeStatus(pod, { startTime: "2025-01-01T00:00:05.750Z" });
    expect(a.startTime).toBe("2025-01-01T00:00:05Z");
  });

  it("termination messages are cut to the pod's share of 12 KiB (TestStatusNormalizationEnforcesMaxBytes)", () => {
    const statuses: ContainerStatus[] = Array.from({ length: 48 }, (_, i) => ({
      name: `container${i}`,
      lastState: { terminated: { exitCode: 0, message: "abcdefgh".repeat(24 + (i % 3)) } },
    }));
    const pod48: Pod = { metadata: { name: "p" }, spec: { containers: statuses.slice(24).map((s) => ({ name: s.name })), initContainers: statuses.slice(0, 24).map((s) => ({ name: s.name })) } };
    const result = normalizeStatus(pod48, { initContainerStatuses: statuses.slice(0, 24), containerStatuses: statuses.slice(24) });
    let count = 0;
    for (const s of [...result.initContainerStatuses!, ...result.containerStatuses!]) {
      const l = s.lastState!.terminated!.message!.length;
      expect(l).toBeGreaterThanOrEqual(192);
      expect(l).toBeLessThanOrEqual(256);
      count += l;
    }
    expect(count).toBeLessThanOrEqual(MaxPodTerminationMessageLogLength);
  });

  it("init container statuses sort into spec order", () => {
    const p: Pod = { metadata: { name: "p" }, spec: { containers: [{ name: "x" }], initContainers: [{ name: "i1" }, { name: "i2" }, { name: "i3" }] } };
    const s = normalizeStatus(p, { initContainerStatuses: [{ name: "i3" }, { name: "i1" }, { name: "i2" }] });
    expect(s.initContainerStatuses!.map((c) => c.name)).toEqual(["i1", "i2", "i3"]);
  });
});

describe("mergePodStatus (TestMergePodStatus, the cases without DisruptionTarget)", () => {
  const getPodStatus = (): PodStatus => ({
    phase: "Running",
    conditions: [
      { type: "Ready", status: "True" },
      { type: "PodScheduled", status: "True" },
    ],
    message: "Message",
  });
  const era = statusEra(29);
  type Case = { desc: string; delay: boolean; old: (s: PodStatus) => PodStatus; next: (s: PodStatus) => PodStatus; want: PodStatus };
  const cases: Case[] = [
    { desc: "no change", delay: false, old: (s) => s, next: (s) => s, want: getPodStatus() },
    {
      desc: "readiness changes",
      delay: false,
      old: (s) => s,
      next: (s) => ({ ...s, conditions: [{ type: "Ready", status: "False" }, s.conditions![1]!] }),
      want: { phase: "Running", conditions: [{ type: "Ready", status: "False" }, { type: "PodScheduled", status: "True" }], message: "Message" },
    },
    {
      desc: "additional pod condition",
      delay: false,
      old: (s) => ({ ...s, conditions: [...s.conditions!, { type: "example.com/feature", status: "True" }] }),
      next: (s) => s,
      want: { phase: "Running", conditions: [{ type: "Ready", status: "True" }, { type: "PodScheduled", status: "True" }, { type: "example.com/feature", status: "True" }], message: "Message" },
    },
    {
      desc: "additional pod condition changes",
      delay: false,
      old: (s) => ({ ...s, conditions: [...s.conditions!, { type: "example.com/feature", status: "True" }] }),
      next: (s) => ({ ...s, conditions: [...s.conditions!, { type: "example.com/feature", status: "False" }] }),
      want: { phase: "Running", conditions: [{ type: "Ready", status: "True" }, { type: "PodScheduled", status: "True" }, { type: "example.com/feature", status: "True" }], message: "Message" },
    },
    {
      desc: "phase is transitioning to failed and no containers running",
      delay: false,
      old: (s) => ({ ...s, phase: "Running", reason: "Unknown", message: "Message" }),
      next: (s) => ({ ...s, phase: "Failed", reason: "Evicted", message: "Was Evicted" }),
      want: {
        phase: "Failed",
        conditions: [{ type: "Ready", status: "False", reason: "PodFailed" }, { type: "ContainersReady", status: "False", reason: "PodFailed" }, { type: "PodScheduled", status: "True" }],
        reason: "Evicted",
        message: "Was Evicted",
      },
    },
    {
      desc: "phase is transitioning to failed and containers running",
      delay: true,
      old: (s) => ({ ...s, phase: "Running", reason: "Unknown", message: "Message" }),
      next: (s) => ({ ...s, phase: "Failed", reason: "Evicted", message: "Was Evicted" }),
      want: { phase: "Running", conditions: [{ type: "Ready", status: "True" }, { type: "PodScheduled", status: "True" }], reason: "Unknown", message: "Message" },
    },
  ];
  for (const tc of cases) {
    it(tc.desc, () => {
      const out = mergePodStatus(tc.old(getPodStatus()), tc.next(getPodStatus()), tc.delay, era, 0);
      // conditionsEqual: same set of types with the same status and reason; then the rest.
      const norm = (cs: PodStatus["conditions"]) => [...(cs ?? [])].map((c) => `${c.type}=${c.status}/${c.reason ?? ""}`).sort();
      expect(norm(out.conditions)).toEqual(norm(tc.want.conditions));
      expect({ ...out, conditions: undefined }).toEqual({ ...tc.want, conditions: undefined });
    });
  }

  describe("DisruptionTarget is shared by the kubelet from 1.26 (PodDisruptionConditions)", () => {
    const dt = (reason: string) => ({ type: "DisruptionTarget", status: "True" as const, reason });
    const types = (s: PodStatus) => Object.fromEntries((s.conditions ?? []).map((c) => [c.type, `${c.status}/${c.reason ?? ""}`]));
    const old = () => ({ ...getPodStatus(), conditions: [...getPodStatus().conditions!, dt("EvictionByEvictionAPI")] });
    const next = () => ({ ...getPodStatus(), phase: "Failed" as const, conditions: [...getPodStatus().conditions!, dt("TerminationByKubelet")] });

    it("the kubelet's DisruptionTarget replaces the old one on the terminal transition with nothing running", () => {
      const out = mergePodStatus(old(), next(), false, statusEra(33), 5000);
      expect(out.phase).toBe("Failed");
      expect(types(out)).toEqual({ DisruptionTarget: "True/TerminationByKubelet", Ready: "False/PodFailed", ContainersReady: "False/PodFailed", PodScheduled: "True/" });
      // Same status as the old condition: updateLastTransitionTime keeps the old (here unset) time.
      expect(out.conditions!.find((c) => c.type === "DisruptionTarget")!.lastTransitionTime).toBeUndefined();
    });

    it("is added when the old status had none, but not while a container could still run", () => {
      const fresh = { ...getPodStatus() };
      const added = mergePodStatus(fresh, next(), false, statusEra(33), 0);
      expect(types(added)["DisruptionTarget"]).toBe("True/TerminationByKubelet");
      expect(added.conditions!.find((c) => c.type === "DisruptionTarget")!.lastTransitionTime).toBeTruthy();
      const held = mergePodStatus(fresh, next(), true, statusEra(33), 0);
      expect(held.phase).toBe("Running");
      expect(types(held)["DisruptionTarget"]).toBeUndefined();
    });

    it("is never sent outside the terminal transition, and before 1.26 the kubelet's own is always dropped", () => {
      const running = { ...next(), phase: "Running" as const };
      expect(types(mergePodStatus(old(), running, false, statusEra(33), 0))["DisruptionTarget"]).toBe("True/EvictionByEvictionAPI");
      expect(types(mergePodStatus(old(), next(), false, statusEra(25), 0))["DisruptionTarget"]).toBe("True/EvictionByEvictionAPI");
    });

    it("counts for isPodStatusByKubeletEqual from 1.26 only", () => {
      const a: PodStatus = { conditions: [dt("A")] };
      const b: PodStatus = { conditions: [dt("B")] };
      expect(isPodStatusByKubeletEqual(a, b, statusEra(33))).toBe(false);
      expect(isPodStatusByKubeletEqual(a, b, statusEra(25))).toBe(true);
    });
  });

  it("before 1.24 a terminal phase is written at once, and before 1.25 Ready=True may go out with it", () => {
    const old = { ...getPodStatus() };
    const next = { ...getPodStatus(), phase: "Failed" as const };
    const v21 = mergePodStatus(old, next, true, statusEra(21), 0);
    expect(v21.phase).toBe("Failed");
    expect(v21.conditions!.find((c) => c.type === "Ready")!.status).toBe("True");
    const v24 = mergePodStatus(old, next, false, statusEra(24), 0);
    expect(v24.conditions!.find((c) => c.type === "Ready")!.status).toBe("True");
    const v25 = mergePodStatus(old, next, false, statusEra(25), 0);
    expect(v25.conditions!.find((c) => c.type === "Ready")!.status).toBe("False");
  });

  it("does not modify the old (API) status", () => {
    const old = Object.freeze(getPodStatus());
    expect(() => mergePodStatus(old, { ...getPodStatus(), phase: "Succeeded" }, false, era, 0)).not.toThrow();
  });
});

describe("semanticDeepEqual against its definition", () => {
  // The definition, written the slow way: rewrite both values with everything Go calls zero or nil
  // dropped, then compare canonical JSON. semanticDeepEqual compares in place and must agree.
  const POINTER_SCALARS = new Set(["started"]);
  const POINTER_STRUCTS = new Set(["waiting", "running", "terminated"]);
  function goZero(value: unknown, key: string): unknown {
    if (value === null || value === undefined) return undefined;
    if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((v) => goZero(v, "") ?? null);
    if (typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort()) {
        const v = goZero((value as Record<string, unknown>)[k], k);
        if (v !== undefined) out[k] = v;
      }
      return Object.keys(out).length === 0 && !POINTER_STRUCTS.has(key) ? undefined : out;
    }
    if (POINTER_SCALARS.has(key)) return value;
    return value === "" || value === 0 || value === false ? undefined : value;
  }
  const definition = (a: unknown, b: unknown) => canonicalJSON(goZero(a, "") ?? null) === canonicalJSON(goZero(b, "") ?? null);
  const leaf = fc.constantFrom(undefined, null, "", "x", 0, 1, false, true);
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("v"), { maxLength: 2 }),
      fc.dictionary(fc.constantFrom("started", "waiting", "running", "phase", "ready"), tie("v"), { maxKeys: 3 })),
  })).v;

  it("agrees with the definition on arbitrary status-shaped values", () => {
    fc.assert(fc.property(value, value, (a, b) => semanticDeepEqual(a, b) === definition(a, b)), { numRuns: 3000 });
  });
});

describe("hasPodInitialized (TerminatePod)", () => {
  const pod = (status: PodStatus): Pod => ({
    metadata: { name: "p" },
    spec: { initContainers: [{ name: "init" }, { name: "side", restartPolicy: "Always" }], containers: [{ name: "app" }] },
    status,
  });
  const inits = (side: ContainerStatus): PodStatus => ({ initContainerStatuses: [terminated("init", 0), side], containerStatuses: [waiting("app")] });

  it("≥1.28: a last init container that is a running, started sidecar means initialized", () => {
    expect(hasPodInitialized(pod(inits({ ...running("side"), started: true })), true)).toBe(true);
    expect(hasPodInitialized(pod(inits({ ...running("side"), started: false })), true)).toBe(false);
    expect(hasPodInitialized(pod(inits(waiting("side"))), true)).toBe(false);
  });

  it("before: only a last init container that exited 0 counts", () => {
    expect(hasPodInitialized(pod(inits({ ...running("side"), started: true })), false)).toBe(false);
  });

  it("a pod without init containers, or whose app left waiting, is initialized", () => {
    expect(hasPodInitialized({ metadata: { name: "p" }, spec: { containers: [{ name: "app" }] } }, true)).toBe(true);
    expect(hasPodInitialized(pod({ containerStatuses: [running("app")] }), true)).toBe(true);
  });
});

describe("normalizeStatus and ephemeral containers (≈1.32, #124901)", () => {
  const pod: Pod = {
    metadata: { name: "p" },
    spec: { containers: [{ name: "app" }], ephemeralContainers: [{ name: "debug-b" }, { name: "debug-a" }] },
  };
  const status = (): PodStatus => ({
    containerStatuses: [{ name: "app", state: { terminated: { exitCode: 1, message: "x".repeat(12 * 1024) } } }],
    ephemeralContainerStatuses: [
      { name: "debug-b", state: { running: { startedAt: "2025-01-01T00:00:05.123456Z" } } },
      { name: "debug-a", state: { terminated: { exitCode: 0, finishedAt: "2025-01-01T00:00:09.5Z" } } },
    ],
  });

  it("1.32: ephemeral containers share the termination-message budget; their statuses are normalized and sorted", () => {
    const s = normalizeStatus(pod, status(), true);
    expect(s.containerStatuses![0]!.state!.terminated!.message!.length).toBe(Math.floor((12 * 1024) / 3));
    expect(s.ephemeralContainerStatuses!.map((c) => c.name)).toEqual(["debug-a", "debug-b"]);
    expect(s.ephemeralContainerStatuses![1]!.state!.running!.startedAt).toBe("2025-01-01T00:00:05Z");
  });

  it("before: only regular and init containers count, and ephemeral statuses are left as they are", () => {
    const s = normalizeStatus(pod, status(), false);
    expect(s.containerStatuses![0]!.state!.terminated!.message!.length).toBe(12 * 1024);
    expect(s.ephemeralContainerStatuses!.map((c) => c.name)).toEqual(["debug-b", "debug-a"]);
  });
});
