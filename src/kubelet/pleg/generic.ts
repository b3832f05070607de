// Models pkg/kubelet/pleg/generic.go (GenericPLEG: Start/Stop, Watch, Healthy, relist, updateCache, getPodIPs), 1.21–1.29 line.
//
// GenericPLEG relies solely on periodic listing to discover container changes. It assumes that a
// container would not be created, terminated, and garbage collected within one relist period; if
// that happens it misses every event of that container (upstream's own comment).
//
// With the EventedPLEG gate (KEP-3386, evented.ts) this PLEG is the fallback: it relists every 300 s,
// a pod whose status the cache refused (it holds a newer one from an event) sends no events, and
// Update changes the period when the Evented PLEG falls back to relisting. Not modelled:
// relistLock/podCacheMutex, the metrics other than the discarded-event count and the running pod
// and container gauges (metrics.ts), and the 1.32+ restructure of relist around watch conditions.
import { again, formatDuration, recvCase, selectOp, type Chan, type Op, type Proc, type SelectResult, type Sim, type Timer } from "../../sim/index.ts";
import type { Cache } from "../container/cache.ts";
import { GO_ZERO_TIME_MS, type PodStatus } from "../container/runtime.ts";
import type { RuntimePod } from "../kuberuntime/running_pod.ts";
import { CriError } from "../../cri/errors.ts";
import { goErrorValue, type GoError } from "../types.ts";
import { ContainerChanged, ContainerDied, plegChannelCapacity, plegRelistPeriodMs, relistThresholdMs } from "./pleg.ts";
import type { HealthResult, PodLifecycleEvent, PodLifecycleEventGenerator, RelistDuration } from "./pleg.ts";
import { computeEventsByPodID, PodRecords } from "./generic_events.ts";
import { RunningPodAndContainerMetrics } from "./metrics.ts";

/**
 * The slice of kubecontainer.Runtime the PLEG calls, in the shape kuberuntime's
 * KubeGenericRuntimeManager has: GetPods(all=true) lists every pod with its containers and
 * sandboxes (kubecontainer states; sandboxes by SandboxToContainerState), GetPodStatus inspects
 * one pod. Both take virtual time and return a CRI error as a value.
 */
export interface PodStatusSource {
  GetPods(all: boolean): Proc<RuntimePod[] | CriError>;
  GetPodStatus(uid: string, name: string, namespace: string): Proc<PodStatus | CriError | PodStatusFailure>;
}

/**
 * A GetPodStatus that fails with a status as well (Go's `(status, err)` with both set, as
 * upstream's tests mock it): the cache keeps both. The runtime manager fails with a CriError and no status.
 */
export class PodStatusFailure {
  constructor(
    readonly err: Error,
    readonly status: PodStatus | null,
  ) {}
}

/** A CRI status error as the Go error the cache stores and the trace prints (err.Error()). */
/** Healthy()'s (true, nil), shared: syncLoop asks before every iteration. */
const HEALTHY: HealthResult = Object.freeze({ ok: true, err: null });

function goError(err: CriError): Error {
  return new Error(err.message, { cause: err });
}

export interface GenericPLEGOptions {
  /** Defaults: relist every 1 s, unhealthy after 3 min. */
  relistDuration?: RelistDuration;
  /** From 1.26 the kubelet makes the channel and passes it in; before, NewGenericPLEG made it. */
  eventChannel?: Chan<PodLifecycleEvent>;
  /** The capacity of the channel made here (plegChannelCapacity, 1000). */
  channelCapacity?: number;
  /** The process group of the relist loop (killed with the kubelet on a restart). */
  group?: string;
  /** Scenario variant `plegSetCurrentKeepsMissingPods`: the pre-v1.2.0 bug of R08 (see PodRecords.setCurrent). */
  setCurrentKeepsMissingPods?: boolean;
  /** The EventedPLEG feature gate: a relist whose cache.Set was refused sends no events for the pod. */
  eventedPLEG?: boolean;
  /** isEventedPLEGInUse: the gate may be on while the Evented PLEG has fallen back to relisting. */
  isEventedPLEGInUse?: () => boolean;
}

const COMPONENT = "pleg";

export class GenericPLEG implements PodLifecycleEventGenerator {
  private readonly eventChannel: Chan<PodLifecycleEvent>;
  private readonly podRecords = new PodRecords();
  /** Pods that failed to have their status retrieved during a relist; retried on the next one. */
  private podsToReinspect = new Map<string, RuntimePod | null>();
  private relistTime: number | null = null;
  private stopCh: Chan<never> | null = null;
  private relistDuration: RelistDuration;
  private discarded = 0;
  /** kubelet_running_containers and kubelet_running_pods, as the last successful relist set them. */
  readonly metrics = new RunningPodAndContainerMetrics();
  /**
   * The listing of the last relist when it found no events (a cache beside upstream's code): the
   * records were left as they were, so the same listing again gives the same records and no
   * events, and setCurrent and computeEvents are skipped. Null after any relist with events.
   */
  private quietListing: readonly RuntimePod[] | null = null;

  constructor(
    private readonly sim: Sim,
    private readonly runtime: PodStatusSource,
    /** The pod status cache; null in upstream's cache-less test PLEG (cacheEnabled() is false). */
    private readonly cache: Cache | null,
    private readonly opts: GenericPLEGOptions = {},
  ) {
    this.relistDuration = opts.relistDuration ?? { relistPeriodMs: plegRelistPeriodMs, relistThresholdMs };
    if (!(this.relistDuration.relistPeriodMs > 0)) throw new RangeError("GenericPLEG: relist period must be positive");
    this.eventChannel = opts.eventChannel ?? sim.chan<PodLifecycleEvent>("pleg/events", opts.channelCapacity ?? plegChannelCapacity);
  }

  /** Watch returns the channel from which the subscriber can receive PodLifecycleEvent events. */
  Watch(): Chan<PodLifecycleEvent> {
    return this.eventChannel;
  }

  /** Start spawns a process to relist periodically: `go wait.Until(g.relist, g.relistPeriod, stopCh)`. */
  Start(): void {
    if (this.stopCh !== null) return;
    const stopCh = this.sim.chan<never>("pleg/stop", 0);
    this.stopCh = stopCh;
    this.sim.go("pleg/relist", () => this.until(stopCh), { group: this.opts.group ?? "kubelet", daemon: true });
  }

  Stop(): void {
    if (this.stopCh === null) return;
    this.stopCh.close();
    this.stopCh = null;
  }

  /** Update the relisting period and threshold (the Evented PLEG's fallback to relisting). */
  Update(relistDuration: RelistDuration): void {
    this.relistDuration = relistDuration;
  }

  /** metrics.PLEGDiscardEvents: events dropped because the channel was full. */
  get discardedEvents(): number {
    return this.discarded;
  }

  /** The time of the last successful GetPods (null before the first). */
  get relistTimeMs(): number | null {
    return this.relistTime;
  }

  /** Healthy checks if PLEG works properly: the last relist is at most relistThreshold old. */
  Healthy(): HealthResult {
    if (this.relistTime === null) return { ok: false, err: new Error("pleg has yet to be successful") };
    const elapsedMs = this.sim.nowMs - this.relistTime;
    const thresholdMs = this.relistDuration.relistThresholdMs;
    if (elapsedMs > thresholdMs) {
      const msg = `pleg was last seen active ${formatDuration(elapsedMs)} ago; threshold is ${formatDuration(thresholdMs)}`;
      return { ok: false, err: goErrorValue(msg) };
    }
    return HEALTHY;
  }

  /** The pod records (old and current, per pod) and when relist last ran: play mode shows them. */
  recordsView(): { relistTimeMs: number | null; records: ReturnType<PodRecords["entries"]> } {
    return { relistTimeMs: this.relistTime, records: this.podRecords.entries() };
  }

  /**
   * wait.Until with sliding=true: relist, then wait a full period after it returns, so a slow
   * relist delays the next one (R10). The stop channel is checked before each relist.
   */
  private *until(stopCh: Chan<never>): Proc<void> {
    // One timer for every period, re-armed after each relist, as wait.Until's backoff timer is
    // (Reset): its channel is empty again once the select took its tick. One select operation on
    // the same cases each period: no generator and operation a period, and the kernel revives the
    // select's waiters (sim/perform.ts selectOp, requeueSelect).
    let t: Timer | null = null;
    let op: Op | null = null;
    for (;;) {
      if (stopCh.closed) return; // select { case <-stopCh: return; default: }
      yield* this.relist();
      if (t === null) {
        t = this.sim.newTimer("pleg/relist-period", this.relistDuration.relistPeriodMs);
        op = selectOp([recvCase(stopCh), recvCase(t.C)]);
      } else t.reset(this.relistDuration.relistPeriodMs);
      const c = (yield again(op!)) as SelectResult;
      if (c.index === 0) {
        t.stop();
        return;
      }
    }
  }

  /**
   * relist queries the container runtime for the list of pods/containers, compares it with the
   * internal pods/containers, and generates events accordingly (`Relist` from 1.27, same body).
   */
  *relist(): Proc<void> {
    const timestampMs = this.sim.nowMs;
    const podList = yield* this.runtime.GetPods(true);
    if (podList instanceof CriError) {
      this.sim.emit(COMPONENT, "relist", { durationMs: this.sim.nowMs - timestampMs, err: podList.message });
      return;
    }
    // The relist time moves only after a successful GetPods (#45496: an honest health signal).
    this.relistTime = timestampMs;
    // Update running pod and container count.
    this.metrics.update(podList);
    const eventsByPodID = this.eventsOf(podList);
    const needsReinspection = new Map<string, RuntimePod | null>();
    let sent = 0;
    // If there are events associated with a pod, we should update the podCache. Go ranges over a map
    // (an empty one draws no order: most relists find nothing).
    for (const pid of eventsByPodID.size === 0 ? NO_PIDS : this.sim.mapOrder([...eventsByPodID.keys()].sort(byString))) {
      const pod = this.podRecords.getCurrent(pid);
      const ref = podRef(pod ?? this.podRecords.getOld(pid));
      if (this.cacheEnabled()) {
        // On an inspection error the podRecord is not updated, so the change is detected again next time.
        const [err, updated] = yield* this.updateCache(pod, pid);
        if (err !== null) {
          needsReinspection.set(pid, pod);
          continue;
        }
        // Inspected because it had events: the reinspection below must not inspect it again.
        this.podsToReinspect.delete(pid);
        // The cache kept a newer status (from an event of the Evented PLEG): nothing to report.
        if (this.opts.eventedPLEG === true && !updated) continue;
      }
      this.podRecords.update(pid);
      for (const e of eventsByPodID.get(pid)!) sent += this.sendEvent(e, ref) ? 1 : 0;
    }
    if (this.cacheEnabled()) {
      yield* this.reinspect(needsReinspection);
      // Update the cache timestamp. This needs to happen *after* all pods have been properly updated in the cache.
      this.cache!.UpdateTime(timestampMs);
      this.podsToReinspect = needsReinspection;
    }
    this.sim.emit(COMPONENT, "relist", { durationMs: this.sim.nowMs - timestampMs, pods: podList.length, events: sent });
  }

  /**
   * setCurrent, then computeEvents for every record. A listing of the same (frozen) pods as the
   * last relist's, when that one found no events, leaves the records as they are and gives no
   * events again (both are functions of the records and the listing alone): skipped then, as the
   * PLEG relists every pod of the node every second and most seconds nothing changed.
   */
  private eventsOf(podList: readonly RuntimePod[]): ReadonlyMap<string, PodLifecycleEvent[]> {
    if (this.quietListing !== null && sameItems(this.quietListing, podList)) return NO_EVENTS;
    this.podRecords.setCurrent(podList, this.opts.setCurrentKeepsMissingPods === true);
    const eventsByPodID = computeEventsByPodID(this.podRecords);
    this.quietListing = eventsByPodID.size === 0 && podList.every((p) => Object.isFrozen(p)) ? podList : null;
    return eventsByPodID;
  }

  /** cacheEnabled: the kubelet always gives the PLEG a cache; upstream's relist tests may not. */
  private cacheEnabled(): boolean {
    return this.cache !== null;
  }

  /** Reinspect any pods that failed inspection during the previous relist (a Go map range). */
  private *reinspect(needsReinspection: Map<string, RuntimePod | null>): Proc<void> {
    if (this.podsToReinspect.size === 0) return; // nothing to range over: no order to draw
    for (const pid of this.sim.mapOrder([...this.podsToReinspect.keys()].sort(byString))) {
      const pod = this.podsToReinspect.get(pid) ?? null;
      const [err] = yield* this.updateCache(pod, pid);
      if (err !== null) needsReinspection.set(pid, pod);
    }
  }

  /**
   * Sends one event without blocking; ContainerChanged is filtered out ("not reliable and no other
   * components use yet"), and a full channel discards the event ("Event channel is full, discard
   * this relist() cycle event"). Returns whether the event was sent.
   */
  private sendEvent(e: PodLifecycleEvent, ref: string | undefined): boolean {
    const fields = eventFields(ref, e);
    if (e.Type === ContainerChanged) {
      fields.filtered = true;
      this.sim.emit(COMPONENT, ContainerChanged, fields);
      return false;
    }
    if (!this.eventChannel.trySend(e)) {
      this.discarded++;
      fields.type = e.Type;
      fields.discarded = this.discarded;
      this.sim.emit(COMPONENT, "EventDropped", fields);
      return false;
    }
    const died = this.diedStatus(e);
    if (died !== undefined) fields.exitCode = died.exitCode;
    this.sim.emit(COMPONENT, e.Type, fields);
    return true;
  }

  /** The status whose exit code upstream logs for ContainerDied ("Generic (PLEG): container finished"). */
  private diedStatus(e: PodLifecycleEvent): { readonly exitCode: number } | undefined {
    if (e.Type !== ContainerDied || this.cache === null) return undefined;
    const [status, err] = this.cache.GetWithError(e.ID);
    return err === null ? status?.containerStatuses.find((s) => s.id.id === e.Data) : undefined;
  }

  /**
   * updateCache inspects the pod and stores its status in the cache, stamped with the time taken
   * *before* GetPodStatus ran: the status is at least as new as that instant (R07 turns on this).
   * With the EventedPLEG gate on and the Evented PLEG in use, the stamp is the status' own
   * TimeStamp instead (KEP-3386: the runtime's time, comparable with its events' times). That is
   * Go's zero time when GetPodStatus left it unset (before 1.32, a runtime without a timestamp):
   * the cache then refuses the status whenever it holds an entry for the pod.
   */
  *updateCache(pod: RuntimePod | null, pid: string): Proc<[GoError, boolean]> {
    if (pod === null) {
      // The pod is missing in the current relist: it has no visible (active or inactive) containers.
      this.cache!.Delete(pid);
      return [null, true];
    }
    const timestampMs = this.sim.nowMs;
    const status = yield* this.runtime.GetPodStatus(pod.id, pod.name, pod.namespace);
    if (status instanceof CriError || status instanceof PodStatusFailure) {
      // GetPodStatus fails as (nil, err), or with a status too: the entry holds the error and that
      // status. Simplified: the `status != nil` guard (#122475) is taken in every release; before
      // it the kubelet panicked.
      const err = status instanceof CriError ? goError(status) : status.err;
      const partial = status instanceof CriError ? null : status.status;
      return [err, this.cache!.Set(pod.id, partial, err, timestampMs)];
    }
    const stampMs = this.opts.eventedPLEG === true && this.opts.isEventedPLEGInUse?.() === true ? status.timestampMs ?? GO_ZERO_TIME_MS : timestampMs;
    // Preserve the pod IP across cache updates if the new IP is empty (copied: the runtime's value is not ours).
    return [null, this.cache!.Set(pod.id, { ...status, ips: this.getPodIPs(pid, status) }, null, stampMs)];
  }

  /** getPodIPs preserves an older cached status' pod IPs if the new status has none and its sandboxes have exited. */
  private getPodIPs(pid: string, status: PodStatus): string[] {
    if (status.ips.length !== 0) return status.ips;
    const [oldStatus, err] = this.cache!.GetWithError(pid);
    if (err !== null || oldStatus === null || oldStatus.ips.length === 0) return [];
    // If at least one sandbox is ready, then use this status update's pod IP.
    if (status.sandboxStatuses.some((s) => s.state === "SANDBOX_READY")) return status.ips;
    // For pods with no ready containers or sandboxes (like exited pods) use the old status' pod IP.
    return oldStatus.ips;
  }
}

/** No events (a quiet relist's), and no pods to range over: read only. */
const NO_EVENTS: ReadonlyMap<string, PodLifecycleEvent[]> = new Map();
const NO_PIDS: readonly string[] = [];

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The trace's pod fields of a listed pod ("ns/name"). */
function podRef(pod: RuntimePod | null): string | undefined {
  if (pod === null || pod.name === "") return undefined;
  return pod.namespace === "" ? pod.name : `${pod.namespace}/${pod.name}`;
}

/**
 * An event record's fields so far (pod, uid, containerID), for the caller to add to in order. Not
 * `{ ...ref, uid, ... }`: on Node 20's V8 a literal that spreads a fresh object and then adds a
 * property costs about 1 µs (see podFields in container/cache.ts).
 */
function eventFields(pod: string | undefined, e: PodLifecycleEvent): Record<string, unknown> {
  const fields: Record<string, unknown> = pod === undefined ? {} : { pod };
  fields.uid = e.ID;
  fields.containerID = e.Data;
  return fields;
}
