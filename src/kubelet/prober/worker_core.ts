// Models pkg/kubelet/prober/worker.go (doProbe and the worker's exit cleanup), newest upstream line.
//
// The decision core of one probe worker as a pure step: (spec, state, inputs) -> output. The loop
// around it (ticker, stop channel, jittered first sleep, the prober itself) belongs to the worker
// process. Because running a probe takes virtual time, doProbe is split in two halves around the
// probe: doProbePrepare decides whether to probe, doProbeFinish records the probe's result;
// doProbe runs both when the caller already knows what the probe returns.
//
// Version: the hold rule is the newest one (a startup worker holds after Success too, #121206,
// ≈1.32); worker.ts undoes it for older releases (withEraHold). The rule that keeps probing a
// terminated restartable init container (#133072, 1.35) applies only when the worker's spec says
// so (ProberEra.sidecarProbedAfterExit), and so does the 1.35 kubelet-restart rule of a new
// container ID (ChangeContainerStatusOnKubeletRestart off by default, KEP-4781): no initial value
// for a container that started before the kubelet (kubeletRestartGracePeriod), and, from 1.35.4
// (#137146), Success seeded for a sidecar whose status says Started. Simplified: the feature-gated
// branch ContainerRestartRules is not modelled.
import type { RestartPolicy } from "../../k8s/pod.ts";
import { GO_ZERO_TIME_MS } from "../container/runtime.ts";

export type ProbeType = "liveness" | "readiness" | "startup";

/** results.Result. Go encodes Unknown=-1, Success=0, Failure=1, so the zero value is Success. */
export type Result = "Success" | "Failure" | "Unknown";

/** What prober.probe returned: a result, or an error (the result is then thrown away). */
export type ProbeOutcome = Result | "error";

/** The probe value during the initial delay, per probe type (newWorker). */
export function initialValue(probeType: ProbeType): Result {
  if (probeType === "readiness") return "Failure";
  if (probeType === "liveness") return "Success";
  return "Unknown";
}

/** The worker's read-only configuration: its probe spec, container and pod. */
export interface WorkerSpec {
  probeType: ProbeType;
  containerName: string;
  /** w.isInitContainer() && container restartPolicy Always: a sidecar. */
  isRestartableInitContainer: boolean;
  /** The pod's spec.restartPolicy as the worker saw it ("" unset reads like Always). */
  podRestartPolicy: RestartPolicy | "";
  initialDelaySeconds: number;
  successThreshold: number;
  failureThreshold: number;
  /** ≥1.35 (ChangeContainerStatusOnKubeletRestart off): a container that predates the kubelet keeps its result. */
  preserveOnKubeletRestart?: boolean;
  /** 1.35.4 (#137146): a sidecar's startup worker seeds Success for a container whose status says Started. */
  seedStartedSidecar?: boolean;
  /**
   * Variant readinessInheritedOnlyForSameContainerID (PR #141487): a container counts as one that
   * survived the kubelet restart only when the API's status still names its container ID.
   */
  restartNeedsSameContainerIDInAPI?: boolean;
}

/** kubeletRestartGracePeriod (prober_manager.go): a container started this long before the kubelet survived its restart. */
export const KUBELET_RESTART_GRACE_MS = 10_000;

/** The worker's mutable fields, as a value. */
export interface WorkerState {
  /** ContainerID.String() of the last known container; "" when empty. */
  containerID: string;
  lastResult: Result;
  /** How many times in a row the probe has returned the same result. */
  resultRun: number;
  /** If set, skip probing until a new container ID shows up. */
  onHold: boolean;
}

export function newWorkerState(): WorkerState {
  return { containerID: "", lastResult: "Success", resultRun: 0, onHold: false };
}

/** v1.ContainerStatus as the worker reads it, with times in virtual ms. */
export interface WorkerContainerStatus {
  name: string;
  /** "type://id"; "" when the container has not been created. */
  containerID: string;
  state: {
    running?: { startedAtMs: number };
    terminated?: { exitCode: number };
    waiting?: { reason?: string };
  };
  started?: boolean | null;
}

/** v1.PodStatus as the status manager holds it, reduced to what doProbe reads. */
export interface WorkerPodStatus {
  phase: "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown";
  containerStatuses: WorkerContainerStatus[];
  initContainerStatuses: WorkerContainerStatus[];
}

export interface DoProbeInputs {
  /** statusManager.GetPodStatus(uid); undefined when the pod has no status (not ok). */
  podStatus: WorkerPodStatus | undefined;
  /** w.pod.DeletionTimestamp != nil */
  podDeleted: boolean;
  nowMs: number;
  /** When the probe manager was created (the kubelet's start); only the 1.35 restart rule reads it. */
  kubeletStartMs?: number;
  /** The container ID the worker's pod snapshot (its API status) records for this container; "" when none. */
  apiContainerID?: string;
}

/** One call on the results manager, in the order doProbe makes them. */
export type ResultOp = { op: "set"; containerID: string; result: Result } | { op: "remove"; containerID: string };

export interface DoProbeOutput {
  keepGoing: boolean;
  newState: WorkerState;
  resultOps: ResultOp[];
  /** The last result written in this step, if any (what resultsManager.Get would now return). */
  resultSet?: { containerID: string; result: Result };
  /** Whether the probe itself was run in this step. */
  probed: boolean;
}

export type PrepareOutput = { phase: "done"; output: DoProbeOutput } | { phase: "probe"; state: WorkerState; resultOps: ResultOp[] };

/** doProbe up to the probe: every check that can end the step without probing. */
export function doProbePrepare(spec: WorkerSpec, state0: WorkerState, inputs: DoProbeInputs): PrepareOutput {
  const ops: ResultOp[] = [];
  const done = (keepGoing: boolean, state: WorkerState): PrepareOutput => ({
    phase: "done",
    output: finishOutput(keepGoing, state, ops, false),
  });
  const status = inputs.podStatus;
  // Either the pod has not been created yet, or it was already deleted.
  if (status === undefined) return done(true, state0);
  // Worker should terminate if pod is terminated.
  if (status.phase === "Failed" || status.phase === "Succeeded") return done(false, state0);
  const c = findTargetStatus(status, spec.containerName);
  // Either the container has not been created yet, or it was deleted: wait for more information.
  if (c === undefined) return done(true, state0);
  let state = state0;
  if (state.containerID !== c.containerID) {
    if (state.containerID !== "") ops.push({ op: "remove", containerID: state.containerID });
    state = { ...state, containerID: c.containerID, onHold: false };
    ops.push(...newContainerOps(spec, c, inputs));
  }
  // Worker is on hold until there is a new container.
  if (state.onHold) return done(true, state);
  if (c.state.running === undefined) {
    if (state.containerID !== "") ops.push({ op: "set", containerID: state.containerID, result: "Failure" });
    // Abort if the container will not be restarted.
    const keepGoing =
      c.state.terminated === undefined || spec.podRestartPolicy !== "Never" || spec.isRestartableInitContainer;
    return done(keepGoing, state);
  }
  // Graceful shutdown of the pod: set a last result to ensure quiet shutdown, then stop probing.
  if (inputs.podDeleted && (spec.probeType === "liveness" || spec.probeType === "startup")) {
    ops.push({ op: "set", containerID: state.containerID, result: "Success" });
    return done(false, state);
  }
  // Probe disabled for InitialDelaySeconds; Go truncates the elapsed seconds toward zero.
  const elapsedSeconds = Math.trunc((inputs.nowMs - c.state.running.startedAtMs) / 1000);
  if (elapsedSeconds < spec.initialDelaySeconds) return done(true, state);
  if (c.started === true) {
    // Stop probing for startup once container has started; keep the worker for a restarted container.
    if (spec.probeType === "startup") return done(true, state);
  } else if (spec.probeType !== "startup") {
    // Disable other probes until container has started.
    return done(true, state);
  }
  return { phase: "probe", state, resultOps: ops };
}

/**
 * The results set when the worker first sees a container ID. Before 1.35 (and with the gate on):
 * the initial value. From 1.35, on a kubelet restart, none for a container that started more than
 * 10 s before the kubelet did, so that a Ready container does not turn NotReady (the check is the
 * start time alone, which cannot tell a survivor from a replacement: race R18).
 */
function newContainerOps(spec: WorkerSpec, c: WorkerContainerStatus, inputs: DoProbeInputs): ResultOp[] {
  const initial: ResultOp = { op: "set", containerID: c.containerID, result: initialValue(spec.probeType) };
  if (spec.preserveOnKubeletRestart !== true) return [initial];
  const startedAtMs = c.state.running?.startedAtMs;
  let isRestart = startedAtMs !== undefined && startedAtMs !== GO_ZERO_TIME_MS && startedAtMs < (inputs.kubeletStartMs ?? 0) - KUBELET_RESTART_GRACE_MS;
  if (isRestart && spec.restartNeedsSameContainerIDInAPI === true) isRestart = inputs.apiContainerID === c.containerID;
  const ops: ResultOp[] = [];
  if (spec.seedStartedSidecar === true && spec.probeType === "startup" && c.started === true) {
    ops.push({ op: "set", containerID: c.containerID, result: "Success" });
  }
  if (!isRestart) ops.push(initial);
  return ops;
}

/** doProbe after the probe: thresholds, the cached result, and the hold rule. */
export function doProbeFinish(spec: WorkerSpec, state0: WorkerState, ops0: readonly ResultOp[], outcome: ProbeOutcome): DoProbeOutput {
  // Prober error, throw away the result.
  if (outcome === "error") return finishOutput(true, state0, ops0.slice(), true);
  const result = outcome;
  // The state's fields written out (its every field, in its order), not spread: every probe makes one.
  let state: WorkerState = {
    containerID: state0.containerID,
    lastResult: result,
    resultRun: state0.lastResult === result ? state0.resultRun + 1 : 1,
    onHold: state0.onHold,
  };
  if (
    (result === "Failure" && state.resultRun < spec.failureThreshold) ||
    (result === "Success" && state.resultRun < spec.successThreshold)
  ) {
    // Success or failure is below threshold - leave the probe state unchanged.
    return finishOutput(true, state, ops0.slice(), true);
  }
  // The ops so far and the set, as one literal when there were none (every steady probe): a push
  // onto an empty copy would allocate room for 17.
  const set: ResultOp = { op: "set", containerID: state.containerID, result };
  const ops = ops0.length === 0 ? [set] : [...ops0, set];
  if ((spec.probeType === "liveness" && result === "Failure") || spec.probeType === "startup") {
    // A failed liveness/startup container will be restarted; a started one needs no more startup
    // probes. Either way stop probing until a new container ID shows up (#21751, #117153).
    state = { ...state, onHold: true, resultRun: 0 };
  }
  return finishOutput(true, state, ops, true);
}

/** doProbe in one step, for callers that know what the probe would return. */
export function doProbe(spec: WorkerSpec, state: WorkerState, inputs: DoProbeInputs, outcome: ProbeOutcome): DoProbeOutput {
  const prepared = doProbePrepare(spec, state, inputs);
  if (prepared.phase === "done") return prepared.output;
  return doProbeFinish(spec, prepared.state, prepared.resultOps, outcome);
}

/** The deferred cleanup of worker.run: drop the cached result of the last container. */
export function workerExitOps(state: WorkerState): ResultOp[] {
  return state.containerID === "" ? [] : [{ op: "remove", containerID: state.containerID }];
}

/** podutil.GetContainerStatus on regular statuses, then (sidecar era) on init container statuses. */
function findTargetStatus(status: WorkerPodStatus, name: string): WorkerContainerStatus | undefined {
  const regular = status.containerStatuses.find((s) => s.name === name);
  if (regular !== undefined && regular.containerID !== "") return regular;
  const init = status.initContainerStatuses.find((s) => s.name === name);
  if (init !== undefined && init.containerID !== "") return init;
  return undefined;
}

function finishOutput(keepGoing: boolean, newState: WorkerState, resultOps: ResultOp[], probed: boolean): DoProbeOutput {
  // The last set, read from the end without copying the list; the set op itself is the result
  // set (its containerID and result), and the output is built whole, not given a field afterwards.
  for (let i = resultOps.length - 1; i >= 0; i--) {
    const op = resultOps[i]!;
    if (op.op === "set") return { keepGoing, newState, resultOps, probed, resultSet: op };
  }
  return { keepGoing, newState, resultOps, probed };
}
