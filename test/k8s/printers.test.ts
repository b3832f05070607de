// printPod and HumanDuration against upstream's own tables: pkg/printers/internalversion/
// printers_test.go (TestPrintPod, TestPrintPodWithRestartableInitContainer) and
// apimachinery/pkg/util/duration/duration_test.go, plus cases for the reasons those tables skip.
import { describe, expect, it } from "vitest";
import { EPOCH_RFC3339, formatRFC3339, parseRFC3339 } from "../../src/apiserver/time.ts";
import type { ContainerStatus, Pod, PodCondition } from "../../src/k8s/pod.ts";
import {
  SIM_EPOCH_RFC3339, humanDuration, printPod, rfc3339ToUnixMs, simMsFromRFC3339,
} from "../../src/k8s/printers.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** "time.Now()" of the tables: far enough from the epoch for "20d ago". */
const NOW = 100 * DAY;
const ago = (ms: number): string => formatRFC3339(NOW - ms);

const running = { running: {} };
const waiting = (reason?: string) => ({ waiting: reason === undefined ? {} : { reason } });
const terminated = (t: { reason?: string; exitCode?: number; signal?: number }) => ({ terminated: { exitCode: 0, ...t } });
const lastTerminated = (agoMs: number) => ({ terminated: { exitCode: 0, finishedAt: ago(agoMs) } });

interface PodShape {
  containers?: number;
  init?: { name: string; sidecar?: boolean }[] | number;
  phase?: string;
  reason?: string;
  deleted?: boolean;
  conditions?: PodCondition[];
  initStatuses?: Partial<ContainerStatus>[];
  statuses?: Partial<ContainerStatus>[];
}

/** A pod like the tables' api.Pod literals: anonymous containers, only the status that matters. */
function pod(s: PodShape): Pod {
  const init: { name: string; sidecar?: boolean }[] =
    typeof s.init === "number" ? Array.from({ length: s.init }, (_, i) => ({ name: `init${i}` })) : s.init ?? [];
  const status = (l: Partial<ContainerStatus>[] | undefined) => l?.map((c, i) => ({ name: `s${i}`, ...c }));
  return {
    metadata: { name: "test", ...(s.deleted === true ? { deletionTimestamp: ago(10 * SECOND) } : {}) },
    spec: {
      containers: Array.from({ length: s.containers ?? 1 }, (_, i) => ({ name: `c${i}` })),
      initContainers: init.map((c) => ({ name: c.name, ...(c.sidecar === true ? { restartPolicy: "Always" as const } : {}) })),
    },
    status: {
      ...(s.phase === undefined ? {} : { phase: s.phase as "Running" }),
      ...(s.reason === undefined ? {} : { reason: s.reason }),
      conditions: s.conditions ?? [],
      initContainerStatuses: status(s.initStatuses),
      containerStatuses: status(s.statuses),
    },
  };
}

type Row = [ready: string, status: string, restarts: string];
const cols = (p: Pod): Row => {
  const r = printPod(p, { nowMs: NOW });
  return [r.ready, r.status, r.restarts];
};

describe("printPod: TestPrintPod", () => {
  const cases: [string, PodShape, Row][] = [
    ["test1: name, containers, restarts, ready", { containers: 2, phase: "podPhase", statuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }] }, ["1/2", "podPhase", "6"]],
    ["test2: container error overwrites pod phase", { containers: 2, phase: "podPhase", statuses: [{ ready: true, restartCount: 3, state: running }, { state: waiting("ContainerWaitingReason"), restartCount: 3 }] }, ["1/2", "ContainerWaitingReason", "6"]],
    ["test3: the first container's reason wins", { containers: 2, phase: "podPhase", statuses: [{ state: waiting("ContainerWaitingReason"), restartCount: 3 }, { state: terminated({ reason: "ContainerTerminatedReason" }), restartCount: 3 }] }, ["0/2", "ContainerWaitingReason", "6"]],
    ["test4: ready is not enough for reporting running", { containers: 2, phase: "podPhase", statuses: [{ ready: true, restartCount: 3, state: running }, { ready: true, restartCount: 3 }] }, ["1/2", "podPhase", "6"]],
    ["test5: pod reason overrides phase", { containers: 2, phase: "podPhase", reason: "podReason", statuses: [{ ready: true, restartCount: 3, state: running }, { ready: true, restartCount: 3 }] }, ["1/2", "podReason", "6"]],
    ["test6: one running, one completed, no Ready condition", { containers: 2, phase: "Running", statuses: [{ ready: true, restartCount: 3, state: terminated({ reason: "Completed" }) }, { ready: true, restartCount: 3, state: running }] }, ["1/2", "NotReady", "6"]],
    ["test6: one running, one completed, Ready condition", { containers: 2, phase: "Running", conditions: [{ type: "Ready", status: "True" }], statuses: [{ ready: true, restartCount: 3, state: terminated({ reason: "Completed" }) }, { ready: true, restartCount: 3, state: running }] }, ["1/2", "Running", "6"]],
    ["test7: init container restarting", { init: 1, phase: "podPhase", initStatuses: [{ restartCount: 3, state: running, lastState: lastTerminated(10 * SECOND) }], statuses: [{ restartCount: 0, state: waiting() }] }, ["0/1", "Init:0/1", "3 (10s ago)"]],
    ["test8: two init containers, the first restarting", { init: 2, phase: "podPhase", initStatuses: [{ restartCount: 3, state: running, lastState: lastTerminated(10 * SECOND) }, { state: waiting() }], statuses: [{ state: waiting() }] }, ["0/1", "Init:0/2", "3 (10s ago)"]],
    ["test9: first init done, second restarting", { init: 2, phase: "podPhase", initStatuses: [{ state: terminated({}) }, { restartCount: 3, state: running, lastState: lastTerminated(10 * SECOND) }], statuses: [{ state: waiting() }] }, ["0/1", "Init:1/2", "3 (10s ago)"]],
    ["test10: init restarts add up", { init: 2, phase: "podPhase", initStatuses: [{ restartCount: 2, state: terminated({}), lastState: lastTerminated(2 * MINUTE) }, { restartCount: 3, state: running, lastState: lastTerminated(10 * SECOND) }], statuses: [{ state: waiting() }] }, ["0/1", "Init:1/2", "5 (10s ago)"]],
    ["test11: once initialized, only container restarts count", { init: 1, phase: "Running", initStatuses: [{ restartCount: 2, state: terminated({}), lastState: lastTerminated(2 * MINUTE) }], statuses: [{ restartCount: 4, state: running, lastState: lastTerminated(20 * SECOND) }] }, ["0/1", "Running", "4 (20s ago)"]],
    ["test12: restarted 5d ago", { phase: "Running", statuses: [{ ready: true, restartCount: 3, state: running, lastState: lastTerminated(5 * DAY) }] }, ["1/1", "Running", "3 (5d ago)"]],
    ["test13: one never restarted, one 10d ago", { containers: 2, phase: "Running", statuses: [{ ready: true, restartCount: 0, state: running }, { ready: true, restartCount: 3, state: running, lastState: lastTerminated(10 * DAY) }] }, ["2/2", "Running", "3 (10d ago)"]],
    ["test14: the latest restart is shown", { containers: 2, phase: "Running", statuses: [{ ready: true, restartCount: 6, state: running, lastState: lastTerminated(5 * DAY) }, { ready: true, restartCount: 3, state: running, lastState: lastTerminated(20 * DAY) }] }, ["2/2", "Running", "9 (5d ago)"]],
    ["test15: SchedulingGated", { containers: 2, phase: "podPhase", conditions: [{ type: "PodScheduled", status: "False", reason: "SchedulingGated" }] }, ["0/2", "SchedulingGated", "0"]],
    ["test16: succeeded", { phase: "Succeeded", statuses: [{ restartCount: 0, state: terminated({ reason: "Completed" }) }] }, ["0/1", "Completed", "0"]],
    ["test17: failed", { phase: "Failed", statuses: [{ restartCount: 0, state: terminated({ reason: "Error", exitCode: 1 }) }] }, ["0/1", "Error", "0"]],
    ["test18: succeeded with deletion is not Terminating", { deleted: true, phase: "Succeeded", statuses: [{ restartCount: 0, state: terminated({ reason: "Completed" }) }] }, ["0/1", "Completed", "0"]],
    ["test19: running with deletion", { deleted: true, phase: "Running", statuses: [{ restartCount: 0, state: running }] }, ["0/1", "Terminating", "0"]],
    ["test20: pending with deletion", { deleted: true, phase: "Pending" }, ["0/1", "Terminating", "0"]],
  ];
  it.each(cases)("%s", (_name, shape, want) => {
    expect(cols(pod(shape))).toEqual(want);
  });

  it("marks terminal pods with the row condition upstream attaches", () => {
    expect(printPod(pod({ phase: "Succeeded" }), { nowMs: NOW }).completed).toBe("Succeeded");
    expect(printPod(pod({ phase: "Failed" }), { nowMs: NOW }).completed).toBe("Failed");
    expect(printPod(pod({ phase: "Running" }), { nowMs: NOW }).completed).toBeNull();
  });
});

describe("printPod: TestPrintPodWithRestartableInitContainer", () => {
  const sidecars = [{ name: "restartable-init-1", sidecar: true }, { name: "restartable-init-2", sidecar: true }];
  const named = (name: string, s: Partial<ContainerStatus>) => ({ name, ...s });
  const cases: [string, PodShape, Row][] = [
    ["first sidecar running but not started", {
      init: sidecars, phase: "Pending", conditions: [{ type: "Initialized", status: "False" }],
      initStatuses: [named("restartable-init-1", { restartCount: 3, state: running, started: false, lastState: lastTerminated(10 * SECOND) }), named("restartable-init-2", { state: waiting(), started: false })],
      statuses: [{ state: waiting() }],
    }, ["0/3", "Init:0/2", "3 (10s ago)"]],
    ["first sidecar started, second not", {
      init: sidecars, phase: "Pending", conditions: [{ type: "Initialized", status: "False" }],
      initStatuses: [named("restartable-init-1", { restartCount: 3, state: running, started: true, lastState: lastTerminated(10 * SECOND) }), named("restartable-init-2", { state: running, started: false })],
      statuses: [{ state: waiting() }],
    }, ["0/3", "Init:1/2", "3 (10s ago)"]],
    ["both sidecars started, container running", {
      init: sidecars, phase: "Running", conditions: [{ type: "Initialized", status: "True" }],
      initStatuses: [named("restartable-init-1", { restartCount: 3, state: running, started: true, lastState: lastTerminated(10 * SECOND) }), named("restartable-init-2", { state: running, started: true })],
      statuses: [{ ready: true, restartCount: 4, state: running, lastState: lastTerminated(20 * SECOND) }],
    }, ["1/3", "Running", "7 (10s ago)"]],
    ["sidecars failed, container completed", {
      init: sidecars, phase: "Succeeded", conditions: [{ type: "Initialized", status: "True" }],
      initStatuses: [named("restartable-init-1", { restartCount: 3, state: terminated({ reason: "Error", exitCode: 137 }), started: false, lastState: lastTerminated(10 * SECOND) }), named("restartable-init-2", { state: terminated({ reason: "Error", exitCode: 137 }), started: false })],
      statuses: [{ restartCount: 4, state: terminated({ reason: "Completed" }), lastState: lastTerminated(20 * SECOND) }],
    }, ["0/3", "Completed", "7 (10s ago)"]],
    ["statuses for containers the spec does not have", {
      init: [{ name: "init1" }, { name: "sidecar1", sidecar: true }], phase: "Running",
      initStatuses: [named("initinvalid", {}), named("init1", {}), named("sidecar1", {})],
      statuses: [named("containerinvalid", {}), named("container1", {})],
    }, ["0/2", "Init:0/2", "0"]],
  ];
  it.each(cases)("%s", (_name, shape, want) => {
    expect(cols(pod(shape))).toEqual(want);
  });
});

describe("printPod: reasons the upstream tables leave out", () => {
  const cases: [string, PodShape, Row][] = [
    ["ContainerCreating", { phase: "Pending", statuses: [{ state: waiting("ContainerCreating") }] }, ["0/1", "ContainerCreating", "0"]],
    ["CrashLoopBackOff", { phase: "Running", statuses: [{ restartCount: 5, state: waiting("CrashLoopBackOff"), lastState: lastTerminated(40 * SECOND) }] }, ["0/1", "CrashLoopBackOff", "5 (40s ago)"]],
    ["ImagePullBackOff", { phase: "Pending", statuses: [{ state: waiting("ImagePullBackOff") }] }, ["0/1", "ImagePullBackOff", "0"]],
    ["ErrImagePull", { phase: "Pending", statuses: [{ state: waiting("ErrImagePull") }] }, ["0/1", "ErrImagePull", "0"]],
    ["OOMKilled", { phase: "Running", statuses: [{ restartCount: 1, state: terminated({ reason: "OOMKilled", exitCode: 137 }) }] }, ["0/1", "OOMKilled", "1"]],
    ["Signal:N without a reason", { phase: "Running", statuses: [{ state: terminated({ exitCode: 137, signal: 9 }) }] }, ["0/1", "Signal:9", "0"]],
    ["ExitCode:N without a reason", { phase: "Running", statuses: [{ state: terminated({ exitCode: 2 }) }] }, ["0/1", "ExitCode:2", "0"]],
    ["Init:CrashLoopBackOff", { init: 1, phase: "Pending", initStatuses: [{ restartCount: 2, state: waiting("CrashLoopBackOff") }], statuses: [{ state: waiting("PodInitializing") }] }, ["0/1", "Init:CrashLoopBackOff", "2"]],
    ["Init:Error", { init: 1, phase: "Pending", initStatuses: [{ state: terminated({ reason: "Error", exitCode: 1 }) }] }, ["0/1", "Init:Error", "0"]],
    ["Init:Signal:N", { init: 1, phase: "Pending", initStatuses: [{ state: terminated({ exitCode: 143, signal: 15 }) }] }, ["0/1", "Init:Signal:15", "0"]],
    ["Init:ExitCode:N", { init: 1, phase: "Pending", initStatuses: [{ state: terminated({ exitCode: 3 }) }] }, ["0/1", "Init:ExitCode:3", "0"]],
    ["a PodInitializing init wait counts as Init:N/M", { init: 2, phase: "Pending", initStatuses: [{ state: terminated({}) }, { state: waiting("PodInitializing") }] }, ["0/1", "Init:1/2", "0"]],
    ["PodInitializing once init is done", { init: 1, phase: "Pending", initStatuses: [{ state: terminated({ reason: "Completed" }) }], statuses: [{ state: waiting("PodInitializing") }] }, ["0/1", "PodInitializing", "0"]],
    ["NodeLost with deletion is Unknown", { deleted: true, phase: "Running", reason: "NodeLost", statuses: [{ ready: true, state: running }] }, ["1/1", "Unknown", "0"]],
    ["Failed with deletion keeps its reason", { deleted: true, phase: "Failed", statuses: [{ state: terminated({ reason: "Error", exitCode: 1 }) }] }, ["0/1", "Error", "0"]],
  ];
  it.each(cases)("%s", (_name, shape, want) => {
    expect(cols(pod(shape))).toEqual(want);
  });
});

describe("printPod: AGE and the clock", () => {
  it("prints AGE from creationTimestamp and <unknown> without one", () => {
    const p = pod({ phase: "Running" });
    expect(printPod(p, { nowMs: NOW }).age).toBe("<unknown>");
    const created = { ...p, metadata: { ...p.metadata, creationTimestamp: ago(190 * SECOND) } };
    expect(printPod(created, { nowMs: NOW }).age).toBe("3m10s");
    expect(printPod(created, { nowMs: NOW }).name).toBe("test");
  });

  it("takes another clock through parseTimeMs", () => {
    const p = { ...pod({ phase: "Running" }), metadata: { name: "x", creationTimestamp: "2030-01-01T00:00:00Z" } };
    const unix = rfc3339ToUnixMs("2030-01-01T00:00:05Z");
    expect(printPod(p, { nowMs: unix, parseTimeMs: rfc3339ToUnixMs }).age).toBe("5s");
  });

  it("uses the apiserver's epoch and agrees with its parser", () => {
    expect(SIM_EPOCH_RFC3339).toBe(EPOCH_RFC3339);
    for (const ms of [0, 999, 1000, 59_000, DAY + 1234, 400 * DAY]) {
      const text = formatRFC3339(ms);
      expect(simMsFromRFC3339(text)).toBe(parseRFC3339(text));
    }
  });

  it("parses fractions and offsets, and refuses what is not RFC 3339", () => {
    expect(rfc3339ToUnixMs("1970-01-01T00:00:01.5Z")).toBe(1500);
    expect(rfc3339ToUnixMs("1970-01-01T01:00:00+01:00")).toBe(0);
    expect(rfc3339ToUnixMs("1969-12-31T23:00:00-01:00")).toBe(0);
    expect(() => rfc3339ToUnixMs("2025-01-01 00:00:00")).toThrow(RangeError);
    expect(() => rfc3339ToUnixMs("2025-13-01T00:00:00Z")).toThrow(RangeError);
  });
});

describe("humanDuration: TestHumanDuration and TestHumanDurationBoundaries", () => {
  const cases: [number, string][] = [
    [SECOND, "1s"], [70 * SECOND, "70s"], [190 * SECOND, "3m10s"], [70 * MINUTE, "70m"], [47 * HOUR, "47h"],
    [49 * HOUR, "2d1h"], [(8 * 24 + 2) * HOUR, "8d"], [367 * DAY, "367d"], [(365 * 2 * 24 + 25) * HOUR, "2y1d"],
    [(365 * 8 * 24 + 2) * HOUR, "8y"],
    [-2 * SECOND, "<invalid>"], [-2 * SECOND + 1, "0s"], [0, "0s"], [SECOND - 1, "0s"], [2 * MINUTE - 1, "119s"],
    [2 * MINUTE, "2m"], [2 * MINUTE + SECOND, "2m1s"], [10 * MINUTE - 1, "9m59s"], [10 * MINUTE, "10m"],
    [10 * MINUTE + SECOND, "10m"], [3 * HOUR - 1, "179m"], [3 * HOUR, "3h"], [3 * HOUR + MINUTE, "3h1m"],
    [8 * HOUR - 1, "7h59m"], [8 * HOUR, "8h"], [8 * HOUR + 59 * MINUTE, "8h"], [2 * DAY - 1, "47h"], [2 * DAY, "2d"],
    [2 * DAY + HOUR, "2d1h"], [8 * DAY - 1, "7d23h"], [8 * DAY, "8d"], [8 * DAY + 23 * HOUR, "8d"],
    [2 * 365 * DAY - 1, "729d"], [2 * 365 * DAY, "2y"], [2 * 365 * DAY + 23 * HOUR + 59 * MINUTE, "2y"],
    [2 * 365 * DAY + DAY - 1, "2y"], [2 * 365 * DAY + DAY, "2y1d"], [3 * 365 * DAY, "3y"], [7 * 365 * DAY, "7y"],
    [8 * 365 * DAY - 1, "7y364d"], [8 * 365 * DAY, "8y"], [8 * 365 * DAY + 364 * DAY, "8y"], [9 * 365 * DAY, "9y"],
  ];
  it.each(cases)("%d ms is %s", (ms, want) => {
    expect(humanDuration(ms)).toBe(want);
  });
});
