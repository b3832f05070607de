// Models pkg/kubelet/prober/worker.go (worker: run, stop, doProbe), with the decisions taken by worker_core.ts.
//
// One process per (pod, container, probe type), named prober/<ns>/<pod>/<container>/<type>. The
// pure core decides; this file does what takes time or talks to others: reading the status
// manager, running the probe (virtual time), writing results (a send that may block), the ticker,
// the stop and manual-trigger channels, and the deferred cleanup. Like upstream, the worker keeps
// the pod object it was created with (a snapshot): later updates of the pod never reach it.
// Simplified: metrics are not kept.
import type { Container, ContainerStatus, Pod, PodStatus, Probe } from "../../k8s/pod.ts";
import { again, Op, recvCase, selectOp, sleep, type Chan, type Proc, type SelectCase, type SelectResult, type Sim } from "../../sim/index.ts";
import {
  doProbeFinish,
  doProbePrepare,
  newWorkerState,
  workerExitOps,
  type DoProbeOutput,
  type PrepareOutput,
  type ProbeOutcome,
  type ProbeType,
  type ResultOp,
  type WorkerContainerStatus,
  type WorkerPodStatus,
  type WorkerSpec,
  type WorkerState,
} from "./worker_core.ts";
import type { ResultsManager } from "./results/results_manager.ts";
import type { Prober } from "./prober.ts";
import type { ProberEra } from "./era.ts";
import { parseMetaTime } from "../status/metatime.ts";
import { isRestartableInitContainer } from "../../k8s/podutil.ts";
import { perFrozenObject } from "../../k8s/memo.ts";

/** What a worker needs from its probe manager. */
export interface WorkerHost {
  readonly sim: Sim;
  readonly era: ProberEra;
  /** When the manager was created: the kubelet's start, for the first-probe jitter. */
  readonly startMs: number;
  readonly prober: Prober;
  readonly group: string;
  /** Variant proberReadsLatestPod (PR #107514): where the graceful-shutdown check reads the pod; null upstream. */
  readonly podManager: { GetPodByUID(uid: string): Pod | undefined } | null;
  /** Variant readinessInheritedOnlyForSameContainerID (PR #141487). */
  readonly readinessInheritedOnlyForSameContainerID: boolean;
  GetPodStatus(uid: string): PodStatus | undefined;
  resultsManagerFor(probeType: ProbeType): ResultsManager;
  removeWorker(podUID: string, containerName: string, probeType: ProbeType): void;
}

export class Worker {
  /** stopCh: buffered so that stop() never blocks. */
  readonly stopCh: Chan<null>;
  /** manualTriggerCh (≥1.21): buffered so that UpdatePodStatus can trigger without blocking. */
  readonly manualTriggerCh: Chan<null> | null;
  readonly spec: Probe;
  readonly name: string;
  private readonly coreSpec: WorkerSpec;
  private readonly resultsManager: ResultsManager;
  private state: WorkerState = newWorkerState();
  /** The pod's UID, read from the snapshot once (every tick and every housekeeping pass asks for it). */
  readonly uid: string;
  /** Whether the snapshot has a deletion timestamp, read once when its metadata is frozen (null: read at each tick). */
  private readonly snapshotDeleted: boolean | null;
  /**
   * The inputs of the last pass when it decided to probe with nothing to change first (see
   * reusablePrepare): its status (null: no such pass), deletion answer, container ID and hold.
   * Fields of the worker rather than an object of their own: a tick then reads them from the
   * worker it is already reading, not from one more object last touched a period ago.
   */
  private lastStatus: PodStatus | null = null;
  private lastPodDeleted = false;
  private lastContainerID = "";
  private lastOnHold = false;

  constructor(
    private readonly m: WorkerHost,
    readonly probeType: ProbeType,
    readonly pod: Pod,
    readonly container: Container,
  ) {
    this.spec = probeOf(container, probeType);
    this.uid = pod.metadata.uid ?? "";
    this.snapshotDeleted = Object.isFrozen(pod.metadata) ? pod.metadata.deletionTimestamp != null : null;
    this.name = `prober/${pod.metadata.namespace ?? ""}/${pod.metadata.name}/${container.name}/${probeType}`;
    this.stopCh = m.sim.chan<null>(`${this.name}/stopCh`, 1);
    this.manualTriggerCh = m.era.resultsToSyncLoop ? m.sim.chan<null>(`${this.name}/manualTriggerCh`, 1) : null;
    this.resultsManager = m.resultsManagerFor(probeType);
    // Go's zero values for unset fields: the apiserver defaults thresholds and periods before the kubelet sees them.
    this.coreSpec = {
      probeType,
      containerName: container.name,
      // A sidecar keeps being probed after it exits even under restartPolicy Never.
      // Only from #133072 (1.35) is a sidecar probed after it exits; the releases modelled stop its worker.
      isRestartableInitContainer: m.era.sidecarProbedAfterExit && (pod.spec.initContainers ?? []).some((c) => c.name === container.name && isRestartableInitContainer(c)),
      podRestartPolicy: pod.spec.restartPolicy ?? "",
      initialDelaySeconds: this.spec.initialDelaySeconds ?? 0,
      successThreshold: this.spec.successThreshold ?? 0,
      failureThreshold: this.spec.failureThreshold ?? 0,
      preserveOnKubeletRestart: m.era.preserveStatusOnKubeletRestart,
      seedStartedSidecar: m.era.seedsStartedSidecarOnRestart && (pod.spec.initContainers ?? []).some((c) => c.name === container.name && isRestartableInitContainer(c)),
      restartNeedsSameContainerIDInAPI: m.readinessInheritedOnlyForSameContainerID,
    };
  }

  /** The worker's state as the core sees it (for tests and checkers). */
  get workerState(): Readonly<WorkerState> {
    return this.state;
  }

  /** stop stops the worker; safe to call any number of times (a non-blocking send). */
  stop(): void {
    this.stopCh.trySend(null);
  }

  /** run periodically probes the container until doProbe says stop or stop() is called. */
  *run(): Proc<void> {
    const sim = this.m.sim;
    const periodMs = (this.spec.periodSeconds ?? 0) * 1000;
    sim.emit("prober", "WorkerStart", this.fields());
    // If the kubelet restarted, probes could start in rapid succession: wait a random part of a
    // period first (from 1.21 only when the kubelet started less than a period ago). Go draws a
    // float in [0, 1); here a whole number of ms in [0, period).
    if (!this.m.era.jitterOnlyAfterKubeletStart || periodMs > sim.nowMs - this.m.startMs) {
      yield* sleep(periodMs > 0 ? sim.rng("prober").below(periodMs) : 0);
    }
    const probeTicker = sim.newTicker(`${this.name}/probeTicker`, periodMs);
    let reason = "stopped";
    try {
      const cases: SelectCase[] = [recvCase(this.stopCh), recvCase(probeTicker.C)];
      if (this.manualTriggerCh !== null) cases.push(recvCase(this.manualTriggerCh));
      // The select of every period, built once (the same cases each time).
      const wait = selectOp(cases);
      for (;;) {
        // doProbe, or its steady pass (see steadyProbeOp) without a generator of its own a tick.
        let keepGoing: boolean;
        const probe = this.steadyProbeOp();
        if (probe === null) keepGoing = yield* this.doProbe();
        else {
          const outcome = probe instanceof Op ? ((yield probe) as ProbeOutcome) : probe;
          const out = this.finishProbe(this.state, NO_OPS, outcome);
          const j = this.applyQuiet(out.resultOps, 0);
          if (j < out.resultOps.length) yield* this.apply(out.resultOps, j);
          keepGoing = out.keepGoing;
        }
        if (!keepGoing) {
          reason = "done";
          break;
        }
        // Wait for the next probe tick (or a manual trigger, or stop).
        const c = (yield again(wait)) as SelectResult;
        if (c.index === 0) break;
      }
    } finally {
      // Clean up (upstream's deferred func): a killed process never gets here, as a dead goroutine.
      probeTicker.stop();
      for (const op of workerExitOps(this.state)) this.resultsManager.Remove(op.containerID);
      this.m.removeWorker(this.uid, this.container.name, this.probeType);
      sim.emit("prober", "WorkerStop", { ...this.fields(), reason });
    }
  }

  /** doProbe probes the container once and records the result; returns whether to keep going. */
  private *doProbe(): Proc<boolean> {
    const uid = this.uid;
    const status = this.m.GetPodStatus(uid);
    // Graceful shutdown check (≥1.21) reads the worker's own pod snapshot, as upstream (#107473);
    // with proberReadsLatestPod, the pod manager's current copy (#107514), the snapshot if gone.
    const podDeleted = this.m.era.stopOnPodDeletion && this.podForShutdownCheck(uid);
    // A reused pass (see reusable) decides to probe with the state as it is and nothing to write first.
    const prepared = this.reusable(status, podDeleted) ? null : this.prepare(status, podDeleted);
    // The results are written up to the first that changes a cached one without a generator (a
    // steady tick sets the result it already has, which Set leaves without yielding); only a
    // change, whose Update is a send that may block, goes through apply.
    if (prepared !== null && prepared.phase === "done") {
      this.state = prepared.output.newState;
      const ops = prepared.output.resultOps;
      const i = this.applyQuiet(ops, 0);
      if (i < ops.length) yield* this.apply(ops, i);
      return prepared.output.keepGoing;
    }
    const state = prepared === null ? this.state : prepared.state;
    const before = prepared === null ? NO_OPS : prepared.resultOps;
    this.state = state;
    const i = this.applyQuiet(before, 0);
    if (i < before.length) yield* this.apply(before, i);
    // The probe is one operation (the runtime's call, its retries and the reading of its answer
    // as continuations): one yield, one resumption, instead of a generator frame per level.
    const probe = this.m.prober.probeOp(this.probeType, this.pod, status!, this.container, this.state.containerID);
    const outcome = probe instanceof Op ? ((yield probe) as ProbeOutcome) : probe;
    const out = this.finishProbe(state, before, outcome);
    const j = this.applyQuiet(out.resultOps, before.length);
    if (j < out.resultOps.length) yield* this.apply(out.resultOps, j);
    return out.keepGoing;
  }

  /**
   * doProbe's first steps when they would find the pass reusable (see reusable): the probe's
   * operation (or answer), for run to yield and finish itself; null for any other pass, which
   * doProbe takes from the start (the same reads again: they are pure). What a steady tick does,
   * in doProbe's order, without a generator object a tick.
   */
  private steadyProbeOp(): Op | ProbeOutcome | null {
    const status = this.m.GetPodStatus(this.uid);
    const podDeleted = this.m.era.stopOnPodDeletion && this.podForShutdownCheck(this.uid);
    if (!this.reusable(status, podDeleted)) return null;
    return this.m.prober.probeOp(this.probeType, this.pod, status!, this.container, this.state.containerID);
  }

  /** doProbe after the probe: the core's decision on its outcome, taken as the worker's state. */
  private finishProbe(state: WorkerState, before: readonly ResultOp[], outcome: ProbeOutcome): DoProbeOutput {
    const out = this.withEraHold(doProbeFinish(this.coreSpec, state, before, outcome), state, outcome);
    this.state = out.newState;
    return out;
  }

  private prepare(status: PodStatus | undefined, podDeleted: boolean): PrepareOutput {
    const inputs = {
      podStatus: status === undefined ? undefined : toWorkerPodStatus(status),
      podDeleted,
      nowMs: this.m.sim.nowMs,
      kubeletStartMs: this.m.startMs,
      apiContainerID: apiContainerID(this.pod, this.container.name),
    };
    const prepared = doProbePrepare(this.coreSpec, this.state, inputs);
    const steady = prepared.phase === "probe" && prepared.resultOps.length === 0 && prepared.state === this.state;
    if (steady && status !== undefined && Object.isFrozen(status)) {
      this.lastStatus = status;
      this.lastPodDeleted = podDeleted;
      this.lastContainerID = this.state.containerID;
      this.lastOnHold = this.state.onHold;
    } else this.lastStatus = null;
    return prepared;
  }

  /**
   * A cache beside doProbe's checks: the last pass decided to probe, changing nothing first, from
   * the same frozen status (the status manager replaces, never changes, a status), the same
   * deletion answer and a state with the same container ID and hold, the only parts of the state
   * the checks read. Then they decide the same now: time enters only through the initial delay,
   * which that pass found over, and it stays over. Every probe tick of a running container asks.
   */
  private reusable(status: PodStatus | undefined, podDeleted: boolean): boolean {
    if (this.lastStatus === null || this.lastStatus !== status || this.lastPodDeleted !== podDeleted) return false;
    return this.lastContainerID === this.state.containerID && this.lastOnHold === this.state.onHold;
  }

  /**
   * Before #121206 (≈1.32) a startup worker held only after a Failure. The core applies the newest
   * rule, so for older releases undo the hold it sets after a startup Success: onHold stays false
   * and resultRun keeps the run length it had reached.
   */
  private withEraHold(out: DoProbeOutput, before: WorkerState, outcome: ProbeOutcome): DoProbeOutput {
    const setNow = out.resultOps.length > 0 && out.resultOps[out.resultOps.length - 1]!.op === "set" && out.probed;
    if (this.m.era.startupHoldsOnSuccess || this.probeType !== "startup" || outcome !== "Success" || !setNow || !out.newState.onHold) {
      return out;
    }
    const resultRun = before.lastResult === "Success" ? before.resultRun + 1 : 1;
    return { ...out, newState: { ...out.newState, onHold: before.onHold, resultRun } };
  }

  /** Whether the pod the shutdown check reads has a deletion timestamp (the snapshot's answer is read once: it never changes). */
  private podForShutdownCheck(uid: string): boolean {
    const latest = this.m.podManager?.GetPodByUID(uid);
    if (latest !== undefined) return latest.metadata.deletionTimestamp != null;
    return this.snapshotDeleted ?? this.pod.metadata.deletionTimestamp != null;
  }

  /**
   * The results manager's calls of ops[from..] up to the first Set that changes the cached result:
   * a Remove, or a Set of the result already cached (which returns at once, nothing sent). Returns
   * that first changing Set's index, or ops.length.
   */
  private applyQuiet(ops: readonly ResultOp[], from: number): number {
    for (let i = from; i < ops.length; i++) {
      const op = ops[i]!;
      if (op.op === "remove") this.resultsManager.Remove(op.containerID);
      else if (this.resultsManager.Get(op.containerID) !== op.result) return i;
    }
    return ops.length;
  }

  /** The results manager's calls of ops[from..], in order. */
  private *apply(ops: readonly ResultOp[], from: number): Proc<void> {
    const uid = this.uid;
    for (let i = from; i < ops.length; i++) {
      const op = ops[i]!;
      if (op.op === "remove") this.resultsManager.Remove(op.containerID);
      else yield* this.resultsManager.Set(op.containerID, op.result, uid);
    }
  }

  private fields(): Record<string, unknown> {
    const pod = `${this.pod.metadata.namespace ?? ""}/${this.pod.metadata.name}`;
    return { pod, uid: this.uid, container: this.container.name, probeType: this.probeType };
  }
}

/** No result to write before the probe (a reused pass's): read only, doProbeFinish copies it. */
const NO_OPS: readonly ResultOp[] = Object.freeze([]);

/** The container ID the pod object's (API) status records for the named container or sidecar; "" when none. */
export function apiContainerID(pod: Pod, name: string): string {
  const st = pod.status;
  const c = (st?.containerStatuses ?? []).find((s) => s.name === name) ?? (st?.initContainerStatuses ?? []).find((s) => s.name === name);
  return c?.containerID ?? "";
}

function probeOf(container: Container, probeType: ProbeType): Probe {
  const p = probeType === "liveness" ? container.livenessProbe : probeType === "readiness" ? container.readinessProbe : container.startupProbe;
  if (p === undefined) throw new Error(`newWorker: container ${container.name} has no ${probeType} probe`);
  return p;
}

/** The status manager's v1.PodStatus as the core reads it; times parsed from the API's RFC 3339 text. */
export function toWorkerPodStatus(s: PodStatus): WorkerPodStatus {
  return workerPodStatusOf(s);
}

// The status manager's statuses are frozen and every worker of the pod reads the same one at
// every tick until it changes: convert each once.
const workerPodStatusOf = perFrozenObject((s: PodStatus) => convertPodStatus(s));

function convertPodStatus(s: PodStatus): WorkerPodStatus {
  return {
    // Go's zero phase "" is neither Failed nor Succeeded, which is all the core asks; read it as Pending.
    phase: s.phase ?? "Pending",
    containerStatuses: (s.containerStatuses ?? []).map(toWorkerContainerStatus),
    initContainerStatuses: (s.initContainerStatuses ?? []).map(toWorkerContainerStatus),
  };
}

function toWorkerContainerStatus(c: ContainerStatus): WorkerContainerStatus {
  const st = c.state ?? {};
  const state: WorkerContainerStatus["state"] = {};
  if (st.running !== undefined) state.running = { startedAtMs: parseMetaTime(st.running.startedAt) };
  if (st.terminated !== undefined) state.terminated = { exitCode: st.terminated.exitCode };
  if (st.waiting !== undefined) state.waiting = st.waiting.reason === undefined ? {} : { reason: st.waiting.reason };
  return { name: c.name, containerID: c.containerID ?? "", state, started: c.started ?? null };
}
