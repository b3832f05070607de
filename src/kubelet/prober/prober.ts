// Models pkg/kubelet/prober/prober.go (prober.probe, runProbeWithRetries, runProbe) over a ProbeRunner that takes virtual time.
//
// Upstream, runProbe dispatches on the handler: exec goes through the CRI (ExecSync), HTTP, TCP
// and gRPC dial the pod. Here a ProbeRunner does the dispatch and answers after some virtual time:
// success, warning (a success with something to say, as an HTTP redirect to another host),
// failure, timeout (no answer within timeoutSeconds) or error (the probe could not run: container
// gone, CRI error). criProbeRunner adapts the simulated runtime. A failed or errored probe records
// an Unhealthy event through recordContainerEvent, a warning a ProbeWarning event, as upstream.
// The levels keep upstream's steps and names but are not generators: each returns the probe's one
// kernel operation with its own part as a continuation on it (sim/ops.ts andThen), or its answer
// at once when no virtual time passes, so the worker yields once per probe.
// Simplified: probe-level terminationGracePeriodSeconds is not read.
import type { Container, Pod, PodStatus, Probe } from "../../k8s/pod.ts";
import { andThen, awaitOp, genOp, type Op, type Proc, type Sim } from "../../sim/index.ts";
import { formatPod } from "../container/helpers.ts";
import { ParseContainerID } from "../container/runtime.ts";
import type { ProbeOutcome, ProbeType } from "./worker_core.ts";
import type { ContainerNetwork, RuntimeService } from "../../cri/services.ts";
import type { ExecSyncResponse } from "../../cri/api.ts";
import type { NetworkOutcome } from "../../cri/exec_ops.ts";
import { CriError } from "../../cri/errors.ts";
import { containerFieldPath, type EventRecorder, type EventType } from "../kuberuntime/events.ts";
import { proberEra, type ProberEra } from "./era.ts";
import { perFrozenObject, perKey } from "../../k8s/memo.ts";

/** pkg/kubelet/events: the prober's event reasons. */
export const ContainerUnhealthy = "Unhealthy";
export const ContainerProbeWarning = "ProbeWarning";

/** The probe's answer as the runner reports it; "error" means no result at all (probe.Unknown with an error). */
export interface ProbeRunResult {
  answer: "success" | "warning" | "failure" | "timeout" | "error";
  output: string;
  /** An exec timeout's CRI error text: before 1.20 the probe returned it as an error. */
  execTimeoutError?: string;
}

export interface ProbeRequest {
  probeType: ProbeType;
  pod: Pod;
  /** The status-manager status doProbe read (pod IP for network probes). */
  podStatus: PodStatus;
  container: Container;
  /** "type://id" */
  containerID: string;
  probe: Probe;
  /** timeoutSeconds in ms: a runner must answer "timeout" no later than this. */
  timeoutMs: number;
}

/** Runs one probe attempt against a container; takes virtual time. */
export interface ProbeRunner {
  runProbe(req: ProbeRequest): Proc<ProbeRunResult>;
  /**
   * The attempt as the one kernel operation that runs it, or its answer at once when no virtual
   * time passes; the Prober uses it when given (runners written as generators, fakes, omit it).
   */
  runProbeOp?(req: ProbeRequest): Op | ProbeRunResult;
}

/** maxProbeRetries: attempts made while the probe errors (not while it fails). */
export const maxProbeRetries = 3;

export interface ProberOptions {
  /** The kubelet's event recorder; without one no probe events are recorded. */
  recorder?: EventRecorder | null;
  /** Which release's event texts (defaults to the newest). */
  era?: ProberEra;
}

export class Prober {
  private readonly recorder: EventRecorder | null;
  private readonly era: ProberEra;

  constructor(
    private readonly sim: Sim,
    private readonly runner: ProbeRunner,
    opts: ProberOptions = {},
  ) {
    this.recorder = opts.recorder ?? null;
    this.era = opts.era ?? proberEra(33);
  }

  /** recordContainerEvent should be used by the prober for all container related events. */
  recordContainerEvent(pod: Pod, container: Container, eventType: EventType, reason: string, message: string): void {
    this.recorder?.Eventf(pod, eventType, reason, message, containerFieldPath(pod, container));
  }

  /**
   * probe: the result of one probe of the container, or "error" when it could not be determined.
   * Returned as the one kernel operation that runs the probe (the CRI call or network request,
   * its retries and the mapping of its answer to a result are continuations on it), or at once
   * when no virtual time passes. The worker yields the operation once.
   */
  probeOp(probeType: ProbeType, pod: Pod, status: PodStatus, container: Container, containerID: string): Op | ProbeOutcome {
    const spec = probeSpec(container, probeType);
    // A container without this probe is healthy.
    if (spec === undefined) return "Success";
    const ref = podRefOf(pod);
    const uid = pod.metadata.uid ?? "";
    this.sim.emit("prober", "ProbeRun", { pod: ref, uid, container: container.name, containerID, probeType });
    const req: ProbeRequest = { probeType, pod, podStatus: status, container, containerID, probe: spec, timeoutMs: (spec.timeoutSeconds ?? 1) * 1000 };
    return andThen(this.runProbeWithRetries(req, maxProbeRetries), (r) => this.probeResult(req, ref, uid, r));
  }

  /** probe as a generator, for callers that run it with `yield*`. */
  *probe(probeType: ProbeType, pod: Pod, status: PodStatus, container: Container, containerID: string): Proc<ProbeOutcome> {
    return yield* awaitOp(this.probeOp(probeType, pod, status, container, containerID));
  }

  /** The rest of probe once the answer is in: the result, its record and its event. */
  private probeResult(req: ProbeRequest, ref: string, uid: string, r: ProbeRunResult): ProbeOutcome {
    // Timeouts count as failures: exec timeouts since ExecProbeTimeout (1.20; runProbe makes them errors before), network ones always.
    const outcome: ProbeOutcome = r.answer === "error" ? "error" : r.answer === "success" || r.answer === "warning" ? "Success" : "Failure";
    // The ProbeRun fields again, then the answer, written out rather than spread (the spread cost a
    // probe more than the rest of its record's building did).
    this.sim.emit("prober", "ProbeResult", { pod: ref, uid, container: req.container.name, containerID: req.containerID, probeType: req.probeType, result: outcome, answer: r.answer, output: r.output });
    this.recordProbeEvent(req.probeType, req.pod, req.container, r);
    return outcome;
  }

  /**
   * The events probe() records for an answer: Unhealthy for an error or a failure, ProbeWarning
   * for a warning, none for a success. From ≈1.33 (#125901) an error's text names the state it
   * resulted in (probe.Unknown prints "unknown").
   */
  private recordProbeEvent(probeType: ProbeType, pod: Pod, container: Container, r: ProbeRunResult): void {
    const t = probeTypeString(probeType);
    if (r.answer === "error") {
      const message = this.era.probeErrorEventNamesResult
        ? `${t} probe errored and resulted in unknown state: ${r.output}`
        : `${t} probe errored: ${r.output}`;
      this.recordContainerEvent(pod, container, "Warning", ContainerUnhealthy, message);
    } else if (r.answer === "failure" || r.answer === "timeout") {
      this.recordContainerEvent(pod, container, "Warning", ContainerUnhealthy, `${t} probe failed: ${r.output}`);
    } else if (r.answer === "warning") {
      this.recordContainerEvent(pod, container, "Warning", ContainerProbeWarning, `${t} probe warning: ${r.output}`);
    }
  }

  /** runProbeWithRetries: retries only while the probe errors; a failure is an answer. */
  private runProbeWithRetries(req: ProbeRequest, retries: number): Op | ProbeRunResult {
    return retries > 0 ? this.attempt(req, 0, retries) : { answer: "error", output: "" };
  }

  /**
   * Attempt i of runProbeWithRetries' loop, as a continuation per attempt: its answer decides
   * attempt i+1. A method rather than a closure made per probe.
   */
  private attempt(req: ProbeRequest, i: number, retries: number): Op | ProbeRunResult {
    return andThen(this.runProbe(req), (r: ProbeRunResult) => (r.answer !== "error" || i + 1 >= retries ? r : this.attempt(req, i + 1, retries)));
  }

  private runProbe(req: ProbeRequest): Op | ProbeRunResult {
    const p = req.probe;
    if (p.exec === undefined && p.httpGet === undefined && p.tcpSocket === undefined && p.grpc === undefined) {
      return { answer: "error", output: `missing probe handler for ${formatPod(req.pod)}:${req.container.name}` };
    }
    const run = this.runner.runProbeOp !== undefined ? this.runner.runProbeOp(req) : genOp(this.runner.runProbe(req));
    // Before 1.20 the remote runtime handed an exec timeout back as the raw gRPC error, and exec.go
    // as an error: retried, then discarded (a timing-out liveness probe never restarted anything).
    if (this.era.execTimeoutIsFailure) return run;
    return andThen(run, (r: ProbeRunResult) => (r.execTimeoutError !== undefined ? { answer: "error", output: r.execTimeoutError } : r));
  }
}

/** probeType.String(): "Liveness", "Readiness", "Startup". */
export function probeTypeString(probeType: ProbeType): string {
  if (probeType === "liveness") return "Liveness";
  if (probeType === "readiness") return "Readiness";
  return "Startup";
}

/**
 * The pod's "ns/name" for the probe's records. A worker probes with the same frozen pod object at
 * every tick, so the text is built once per pod, and is then one string that the trace digest
 * has already hashed.
 */
const podRefOf = perFrozenObject((pod: Pod): string => `${pod.metadata.namespace ?? ""}/${pod.metadata.name}`);

/** The ID part of a worker's "type://id": the same few strings at every tick, parsed once each. */
const runtimeIDOf = perKey((containerID: string): string => ParseContainerID(containerID).id, 4096);

/** The container's probe of this type. */
export function probeSpec(container: Container, probeType: ProbeType): Probe | undefined {
  if (probeType === "liveness") return container.livenessProbe;
  if (probeType === "readiness") return container.readinessProbe;
  return container.startupProbe;
}

/**
 * A ProbeRunner on the simulated runtime: exec probes through the CRI's ExecSync (a deadline error
 * is a timeout, any other CRI error means the probe could not run), network probes (HTTP, TCP,
 * gRPC) through the container network. Each attempt is the runtime's one operation with the
 * mapping of its answer as a continuation (runtimes without op builders, fakes, run as generators).
 */
export function criProbeRunner(
  runtime: Pick<RuntimeService, "ExecSync" | "ExecSyncOp">,
  network: Pick<ContainerNetwork, "probe" | "probeOp">,
): ProbeRunner {
  const runProbeOp = (req: ProbeRequest): Op | ProbeRunResult => {
    const id = runtimeIDOf(req.containerID);
    if (req.probe.exec !== undefined) {
      const timeoutSeconds = Math.max(1, Math.ceil(req.timeoutMs / 1000));
      const cmd = req.probe.exec.command ?? [];
      const purpose = { probe: req.probeType };
      const exec = runtime.ExecSyncOp !== undefined
        ? runtime.ExecSyncOp(id, cmd, timeoutSeconds, purpose)
        : genOp(runtime.ExecSync(id, cmd, timeoutSeconds, purpose));
      return andThen(exec, execProbeResult);
    }
    const request = network.probeOp !== undefined ? network.probeOp(id, req.probeType, req.timeoutMs) : genOp(network.probe(id, req.probeType, req.timeoutMs));
    return andThen(request, networkProbeResult);
  };
  return {
    runProbeOp,
    *runProbe(req: ProbeRequest): Proc<ProbeRunResult> {
      return yield* awaitOp(runProbeOp(req));
    },
  };
}

/** exec.go's reading of ExecSync's answer. */
function execProbeResult(r: ExecSyncResponse | CriError): ProbeRunResult {
  if (r instanceof CriError) {
    // ≥1.20 (ExecProbeTimeout): exec.go returns probe.Failure with the command's (empty) output.
    if (r.code === "DeadlineExceeded") return { answer: "timeout", output: "", execTimeoutError: r.message };
    return { answer: "error", output: r.message };
  }
  return { answer: r.exitCode === 0 ? "success" : "failure", output: r.stdout + r.stderr };
}

function networkProbeResult(o: NetworkOutcome): ProbeRunResult {
  // A success without output (every answered probe of a healthy container) is one shared answer,
  // which nothing writes (not frozen: a frozen object would be a second shape where answers are read).
  if (o.result === "success" && o.output === "") return NETWORK_SUCCESS;
  return { answer: o.result, output: o.output };
}

const NETWORK_SUCCESS: Readonly<ProbeRunResult> = { answer: "success", output: "" };
