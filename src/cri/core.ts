// The simulated runtime's engine: every CRI call is built by call() as one kernel operation that
// takes the call's virtual latency, applies injected faults, runs the method's handler on the
// runtime's state and writes one trace record (no upstream file; this is the part of containerd's
// CRI plugin that every handler shares).
import { callOp, recvOp, thenOp, Op, type Chan, type Rng, type Sim } from "../sim/index.ts";
import type { ContainerEventResponse, ContainerEventType } from "./api.ts";
import { drawMs, type RangeMs, type RuntimeConfig, type RuntimeOptions } from "./config.ts";
import { CriError, canceled, deadlineExceeded, unavailable } from "./errors.ts";
import { FaultInjector, type CallSite } from "./faults.ts";
import type { CriMethod } from "./methods.ts";
import { DEFAULT_PROGRAM, type ContainerBehaviour } from "./program.ts";
import { RuntimeStore, type ContainerRecord } from "./store.ts";
import { toContainerStatus, toSandboxStatus } from "./views.ts";

export const TRACE_COMPONENT = "runtime";
const SOCKET_PATH = "/run/containerd/containerd.sock";
/** containerd buffers container events for the Evented PLEG in a channel of this size. */
const EVENT_BUFFER = 1000;

export class RuntimeCore {
  readonly store: RuntimeStore;
  readonly faults: FaultInjector;
  readonly rng: Rng;
  /** Calls that arrive before this instant find the runtime's socket closed (a restart). */
  unavailableUntilMs = -1;
  private readonly behaviours = new Map<string, ContainerBehaviour>();
  private readonly eventSubscribers: Chan<ContainerEventResponse>[] = [];

  constructor(
    readonly sim: Sim,
    readonly config: RuntimeConfig,
    readonly options: RuntimeOptions,
  ) {
    this.store = new RuntimeStore(options.idPrefix);
    this.faults = new FaultInjector(config.faults);
    this.rng = sim.rng("runtime");
  }

  get nowMs(): number {
    return this.sim.nowMs;
  }

  emit(kind: string, fields: Record<string, unknown>): void {
    this.sim.emit(TRACE_COMPONENT, kind, fields);
  }

  /** Scripts what a container of a pod does; programs by attempt, the last repeating. */
  setBehaviour(podKey: string, containerName: string, behaviour: ContainerBehaviour): void {
    if (behaviour.length === 0) throw new RangeError(`behaviour of ${podKey}/${containerName} has no program`);
    this.behaviours.set(`${podKey}/${containerName}`, behaviour);
  }

  /**
   * A container's program: its latest template's that scripts the container, else its own pod's,
   * else the default (as if each adoption had copied the template's programs over the pod's own).
   */
  behaviourFor(podKey: string, containerName: string): ContainerBehaviour {
    const templates = this.options.templates?.templatesOf(podKey);
    if (templates !== undefined) {
      for (let i = templates.length - 1; i >= 0; i--) {
        const b = this.behaviours.get(`${templates[i]}/${containerName}`);
        if (b !== undefined) return b;
      }
    }
    return this.behaviours.get(`${podKey}/${containerName}`) ?? [DEFAULT_PROGRAM];
  }

  /** The call site of a call naming a sandbox by ID (pod unknown for an unknown ID). */
  sandboxSite(method: CriMethod, sandboxId: string): CallSite {
    return { method, pod: this.store.sandboxes.get(sandboxId)?.podKey ?? null, container: null };
  }

  /** The call site of a call naming a container by ID. */
  containerSite(method: CriMethod, containerId: string): CallSite {
    const c = this.store.containers.get(containerId);
    return { method, pod: c?.podKey ?? null, container: c?.name ?? null };
  }

  /**
   * Builds one CRI call as one kernel operation (sim/ops.ts callOp), or returns the error at once
   * when the runtime is down (traced; no time passes and the caller is not even a scheduling
   * point, as a dial to a closed socket fails inside the caller's step). Otherwise the call takes
   * its drawn latency, then fails if a fault fires (before any effect: a failed StopContainer
   * leaves the container running), else runs `body` on the runtime's state. One trace record at
   * the end, kind = the method. With `done` (the caller's ctx.Done()), a cancellation during the
   * latency ends the call with Canceled. `body` may return a further stage (CriCall.after,
   * CriCall.afterRecv) when the work itself takes time.
   */
  call<T>(
    site: CallSite,
    id: string | null,
    body: (c: CriCall<T>) => T | CriError | Op,
    describe: (value: T) => Record<string, unknown> = () => ({}),
    latency: RangeMs = this.config.latency[site.method],
    done: Chan<never> | null = null,
  ): Op | CriError {
    const startMs = this.nowMs;
    if (startMs < this.unavailableUntilMs) {
      const out = unavailable(SOCKET_PATH);
      this.traceCall(site, id, startMs, out, describe);
      return out;
    }
    const fault = this.faults.match(site, startMs);
    const latencyMs = drawMs(this.rng, latency);
    const c = new CriCall<T>(this, site, id, startMs, describe);
    return callOp(latencyMs, `cri ${site.method}`, (cancelled) => {
      if (cancelled) return c.finish(canceled());
      if (fault === null) return c.settle(body(c));
      if (fault.kind === "timeout") {
        // The runtime never answers; the kubelet's gRPC deadline ends the call.
        return callOp(Math.max(0, startMs + this.options.requestTimeoutMs - this.nowMs), `cri ${site.method} (hung)`, () => c.finish(deadlineExceeded()));
      }
      return c.finish(new CriError("Unknown", fault.message));
    }, null, done);
  }

  /** @internal The call's one trace record (CriCall.finish). */
  traceCall<T>(site: CallSite, id: string | null, startMs: number, out: T | CriError, describe: (value: T) => Record<string, unknown>): void {
    if (!this.sim.traces(site.method)) return;
    const fields: Record<string, unknown> = {};
    if (site.pod !== null) fields["pod"] = site.pod;
    if (site.container !== null) fields["container"] = site.container;
    if (id !== null) fields["id"] = id;
    fields["tookMs"] = this.nowMs - startMs;
    if (out instanceof CriError) fields["error"] = out.message;
    else Object.assign(fields, describe(out), { result: "ok" });
    this.emit(site.method, fields);
  }

  /** GetContainerEvents: a stream of container lifecycle events, delivered after containerEventDelay. */
  subscribeContainerEvents(): Chan<ContainerEventResponse> {
    const ch = this.sim.chan<ContainerEventResponse>("runtime container events", EVENT_BUFFER);
    this.eventSubscribers.push(ch);
    return ch;
  }

  publishContainerEvent(c: ContainerRecord, type: ContainerEventType): void {
    if (this.eventSubscribers.length === 0) return;
    const sandbox = this.store.sandboxes.get(c.sandboxId);
    const ev: ContainerEventResponse = {
      containerId: c.id,
      containerEventType: type,
      createdAtMs: this.nowMs,
      podSandboxStatus: sandbox === undefined ? null : toSandboxStatus(sandbox),
      containersStatuses: this.store.sandboxContainers(c.sandboxId).map(toContainerStatus),
    };
    const dueMs = this.nowMs + drawMs(this.rng, this.config.containerEventDelay);
    // A full channel drops the event, as containerd's non-blocking send does.
    for (const ch of this.eventSubscribers) this.sim.schedule(dueMs, () => void ch.offer(ev));
  }
}

/**
 * One CRI call in flight: what its trace record needs, and its later stages. A stage's result is
 * the call's result (traced once, when the call ends) or yet another stage.
 */
export class CriCall<T> {
  constructor(
    private readonly rt: RuntimeCore,
    private readonly site: CallSite,
    private readonly id: string | null,
    private readonly startMs: number,
    private readonly describe: (value: T) => Record<string, unknown>,
  ) {}

  /** The work goes on for ms of virtual time (labelled for diagnoses), then `next` runs. */
  after(ms: number, label: string, next: () => T | CriError | Op): Op {
    return callOp(ms, label, () => this.settle(next()));
  }

  /** The work waits for a value or the close of `ch` (a process's exit), then `next` runs. */
  afterRecv(ch: Chan<unknown>, next: () => T | CriError | Op): Op {
    return thenOp(recvOp(ch), () => this.settle(next()));
  }

  /** A stage's outcome: a further stage is waited on; a result ends the call. */
  settle(out: T | CriError | Op): unknown {
    return out instanceof Op ? out : this.finish(out);
  }

  /** Ends the call with its one trace record; returns the caller's result. */
  finish(out: T | CriError): T | CriError {
    this.rt.traceCall(this.site, this.id, this.startMs, out, this.describe);
    return out;
  }
}
