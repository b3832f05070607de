import { describe, expect, it } from "vitest";
import {
  doProbe,
  doProbeFinish,
  doProbePrepare,
  initialValue,
  newWorkerState,
  workerExitOps,
  type DoProbeInputs,
  type ProbeType,
  type WorkerContainerStatus,
  type WorkerSpec,
} from "../../../src/kubelet/prober/worker_core.ts";

const NOW = 500_000;
const ID = "test://c1";

function spec(probeType: ProbeType, extra: Partial<WorkerSpec> = {}): WorkerSpec {
  return {
    probeType,
    containerName: "app",
    isRestartableInitContainer: false,
    podRestartPolicy: "Never",
    initialDelaySeconds: 0,
    successThreshold: 1,
    failureThreshold: 1,
    ...extra,
  };
}

function running(started: boolean | null, startedAtMs = NOW, containerID = ID): WorkerContainerStatus {
  return { name: "app", containerID, state: { running: { startedAtMs } }, started };
}

function inputs(c: WorkerContainerStatus | undefined, extra: Partial<DoProbeInputs> = {}): DoProbeInputs {
  return {
    podStatus: c ? { phase: "Running", containerStatuses: [c], initContainerStatuses: [] } : undefined,
    podDeleted: false,
    nowMs: NOW,
    ...extra,
  };
}

describe("doProbe decision order", () => {
  it.each<[string, WorkerSpec, DoProbeInputs, { keepGoing: boolean; result?: string; probed: boolean }]>([
    ["no pod status: wait", spec("liveness"), inputs(undefined), { keepGoing: true, probed: false }],
    [
      "pod Succeeded: stop",
      spec("readiness"),
      { ...inputs(running(true)), podStatus: { phase: "Succeeded", containerStatuses: [running(true)], initContainerStatuses: [] } },
      { keepGoing: false, probed: false },
    ],
    [
      "container without an ID: wait",
      spec("liveness"),
      inputs({ ...running(true), containerID: "" }),
      { keepGoing: true, probed: false },
    ],
    [
      "waiting container: Failure, keep going",
      spec("liveness"),
      inputs({ name: "app", containerID: ID, state: { waiting: {} } }),
      { keepGoing: true, result: "Failure", probed: false },
    ],
    [
      "terminated, Never: Failure and stop",
      spec("readiness"),
      inputs({ name: "app", containerID: ID, state: { terminated: { exitCode: 0 } } }),
      { keepGoing: false, result: "Failure", probed: false },
    ],
    [
      "terminated, OnFailure: keep going",
      spec("readiness", { podRestartPolicy: "OnFailure" }),
      inputs({ name: "app", containerID: ID, state: { terminated: { exitCode: 1 } } }),
      { keepGoing: true, result: "Failure", probed: false },
    ],
    [
      "terminated sidecar under Never: keep going (sidecar era)",
      spec("liveness", { isRestartableInitContainer: true }),
      {
        ...inputs(undefined),
        podStatus: {
          phase: "Running",
          containerStatuses: [],
          initContainerStatuses: [{ name: "app", containerID: ID, state: { terminated: { exitCode: 0 } } }],
        },
      },
      { keepGoing: true, result: "Failure", probed: false },
    ],
    ["deleted pod, liveness: Success and stop", spec("liveness"), inputs(running(true), { podDeleted: true }), { keepGoing: false, result: "Success", probed: false }],
    ["deleted pod, readiness: still probes", spec("readiness"), inputs(running(true), { podDeleted: true }), { keepGoing: true, result: "Success", probed: true }],
    [
      "initial delay: 9.9 s truncates to 9 < 10",
      spec("readiness", { initialDelaySeconds: 10 }),
      inputs(running(true, NOW - 9_900)),
      { keepGoing: true, result: "Failure", probed: false },
    ],
    ["initial delay: 10 s passed", spec("readiness", { initialDelaySeconds: 10 }), inputs(running(true, NOW - 10_000)), { keepGoing: true, result: "Success", probed: true }],
    ["started container: startup probe idles", spec("startup"), inputs(running(true)), { keepGoing: true, result: "Unknown", probed: false }],
    ["not started: liveness idles", spec("liveness"), inputs(running(false)), { keepGoing: true, result: "Success", probed: false }],
    ["started=nil counts as not started", spec("readiness"), inputs(running(null)), { keepGoing: true, result: "Failure", probed: false }],
  ])("%s", (_n, s, inp, want) => {
    const out = doProbe(s, newWorkerState(), inp, "Success");
    expect({ keepGoing: out.keepGoing, result: out.resultSet?.result, probed: out.probed }).toEqual(want);
  });
});

describe("doProbe thresholds and holds", () => {
  function runSeq(s: WorkerSpec, results: ("Success" | "Failure" | "error")[], started = true) {
    let state = newWorkerState();
    let cached: string | undefined;
    const seen: { cached: string | undefined; run: number; hold: boolean }[] = [];
    for (const r of results) {
      const out = doProbe(s, state, inputs(running(started)), r);
      state = out.newState;
      if (out.resultSet) cached = out.resultSet.result;
      seen.push({ cached, run: state.resultRun, hold: state.onHold });
    }
    return seen;
  }

  it("failureThreshold 3 on readiness: Success until the third Failure in a row", () => {
    const seen = runSeq(spec("readiness", { failureThreshold: 3 }), ["Success", "Failure", "Failure", "Failure", "Success"]);
    expect(seen.map((x) => x.cached)).toEqual(["Success", "Success", "Success", "Failure", "Success"]);
  });

  it("liveness holds after the Failure that crosses the threshold and resets resultRun", () => {
    const seen = runSeq(spec("liveness", { failureThreshold: 2 }), ["Failure", "Failure", "Success"]);
    expect(seen).toEqual([
      { cached: "Success", run: 1, hold: false },
      { cached: "Failure", run: 0, hold: true },
      { cached: "Failure", run: 0, hold: true },
    ]);
  });

  it("startup holds after Success too (#117153)", () => {
    const seen = runSeq(spec("startup"), ["Success", "Failure"], false);
    expect(seen).toEqual([
      { cached: "Success", run: 0, hold: true },
      { cached: "Success", run: 0, hold: true },
    ]);
  });

  it("a prober error throws the result away", () => {
    const seen = runSeq(spec("readiness"), ["error"]);
    expect(seen).toEqual([{ cached: "Failure", run: 0, hold: false }]);
  });

  it("a new container ID removes the old result, sets the initial value and lifts the hold", () => {
    const s = spec("liveness");
    const held = doProbe(s, newWorkerState(), inputs(running(true)), "Failure").newState;
    expect(held.onHold).toBe(true);
    const out = doProbe(s, held, inputs(running(true, NOW, "test://c2")), "Success");
    expect(out.resultOps).toEqual([
      { op: "remove", containerID: ID },
      { op: "set", containerID: "test://c2", result: "Success" },
      { op: "set", containerID: "test://c2", result: "Success" },
    ]);
    expect(out.newState.onHold).toBe(false);
  });
});

describe("two-phase use and exit", () => {
  it("prepare + finish equals doProbe", () => {
    const s = spec("readiness", { successThreshold: 2 });
    const prepared = doProbePrepare(s, newWorkerState(), inputs(running(true)));
    expect(prepared.phase).toBe("probe");
    if (prepared.phase !== "probe") return;
    const split = doProbeFinish(s, prepared.state, prepared.resultOps, "Success");
    expect(split).toEqual(doProbe(s, newWorkerState(), inputs(running(true)), "Success"));
  });

  it("initial values per probe type, and exit removes the last container's result", () => {
    expect(["liveness", "readiness", "startup"].map((t) => initialValue(t as ProbeType))).toEqual(["Success", "Failure", "Unknown"]);
    expect(workerExitOps(newWorkerState())).toEqual([]);
    expect(workerExitOps({ ...newWorkerState(), containerID: ID })).toEqual([{ op: "remove", containerID: ID }]);
  });
});
