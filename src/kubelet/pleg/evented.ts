// Models pkg/kubelet/pleg/evented.go (EventedPLEG: Start/Stop, Watch, Healthy, watchEventsChannel,
// processCRIEvents, processCRIEvent, updateGlobalCache), KEP-3386, feature gate EventedPLEG (alpha
// 1.26, beta and off by default 1.27-1.29, alpha again from 1.30).
//
// The runtime pushes an event for every container it creates, starts, stops or deletes
// (GetContainerEvents); each carries the statuses of the sandbox's containers as they were when
// the runtime created it, and reaches the kubelet after a delivery delay (runtime
// containerEventDelay). The Evented PLEG writes that status into the pod cache, stamped with the
// event's creation time, and turns it into a pod lifecycle event. The generic PLEG keeps relisting
// as a fallback, every 300 s, and takes over (every second) when the stream fails too often.
//
// The stamp is where race R09 lives. Until ≈1.32 (PR #124297 "EventedPLEG: Pass event created
// timestamp correctly to cache") the cache got time.Unix(event.CreatedAt, 0): CreatedAt is in
// nanoseconds, read as seconds, so every entry an event wrote lay far in the future. GetNewerThan
// then never waited for such a pod (its entry was always "newer"), and handed a pod worker whatever
// the last delivered event said, possibly a container still "created" that the worker had started
// itself: computePodActions restarts a created container, and a second copy runs (#121003).
// Virtual time counts from the Unix epoch here, so the stamp is createdAt × 10⁹ ms.
//
// Simplified: the metrics (running pods and containers, latency) are left out; an event with no
// sandbox status is ignored as upstream does.
import { recv, sleep, type Chan, type Proc, type Sim } from "../../sim/index.ts";
import type { ContainerEventResponse } from "../../cri/api.ts";
import type { Cache } from "../container/cache.ts";
import type { PodStatus } from "../container/runtime.ts";
import { ContainerDied, ContainerRemoved, ContainerStarted, plegRelistPeriodMs, relistThresholdMs } from "./pleg.ts";
import type { HealthResult, PodLifecycleEvent, PodLifecycleEventGenerator, RelistDuration } from "./pleg.ts";

/**
 * The frequency with which the global timestamp of the cache is updated periodically: pod workers
 * stuck at cache.GetNewerThan are unblocked after this period. 5 s as #111384 merged it; later
 * upstream versions shortened it (simplified: 5 s in every release).
 */
export const globalCacheUpdatePeriodMs = 5000;
/** kubelet.go: the generic PLEG's period and threshold while the Evented PLEG is in use. */
export const eventedPlegRelistPeriodMs = 300_000;
export const eventedPlegRelistThresholdMs = 600_000;
/** ≈1.32: PR #124297 stamps the cache with the event's creation time (merged after 1.31.0; not picked). */
export const EVENT_TIMESTAMP_FIX_RELEASE = "1.32";
/** kubelet.go eventedPlegMaxStreamRetries. */
export const eventedPlegMaxStreamRetries = 5;

/** What the Evented PLEG needs of the runtime. */
export interface EventSource {
  /** GetContainerEvents: a fresh subscription; the channel closes when the stream breaks. */
  GetContainerEvents(): Chan<ContainerEventResponse>;
}

/** The generic PLEG, as the Evented PLEG drives it (podLifecycleEventGeneratorHandler). */
export interface RelistingPLEG {
  Start(): void;
  Stop(): void;
  Update(relistDuration: RelistDuration): void;
  relist(): Proc<void>;
}

export interface EventedPLEGOptions {
  eventChannel: Chan<PodLifecycleEvent>;
  /** The kuberuntime manager's GeneratePodStatus. */
  generatePodStatus: (event: ContainerEventResponse) => PodStatus;
  /** ≈1.32 (#124297): the cache is stamped with the event's creation time, not 10⁹ times it. */
  createdAtTimestampFixed: boolean;
  /** The generic PLEG's duration to fall back to (1 s, 3 min). */
  relistDuration?: RelistDuration;
  group?: string;
}

const COMPONENT = "pleg";

export class EventedPLEG implements PodLifecycleEventGenerator {
  private inUse = false;
  private stopCh: Chan<never> | null = null;
  private discarded = 0;

  constructor(
    private readonly sim: Sim,
    private readonly runtime: EventSource,
    private readonly cache: Cache,
    private readonly genericPleg: RelistingPLEG,
    private readonly opts: EventedPLEGOptions,
  ) {}

  Watch(): Chan<PodLifecycleEvent> {
    return this.opts.eventChannel;
  }

  /** isEventedPLEGInUse: the gate may be on while the stream is not (the fallback took over). */
  get InUse(): boolean {
    return this.inUse;
  }

  /** Start: the event stream and the periodic update of the cache's global timestamp. */
  Start(): void {
    if (this.inUse) return;
    this.inUse = true;
    const stopCh = this.sim.chan<never>("evented-pleg/stop", 0);
    this.stopCh = stopCh;
    const group = this.opts.group ?? "kubelet";
    this.sim.go("evented-pleg/watch", () => this.watchEventsChannel(stopCh), { group, daemon: true });
    this.sim.go("evented-pleg/global-cache", () => this.updateGlobalCacheLoop(stopCh), { group, daemon: true });
  }

  Stop(): void {
    if (!this.inUse) return;
    this.inUse = false;
    this.stopCh?.close();
    this.stopCh = null;
  }

  /** Healthy: the Evented PLEG is declared unhealthy only if its event channel is out of capacity. */
  Healthy(): HealthResult {
    const ch = this.opts.eventChannel;
    if (ch.length >= ch.capacity) return { ok: false, err: new Error(`EventedPLEG: pleg event channel capacity is full with ${ch.length} events`) };
    return { ok: true, err: null };
  }

  /** wait.Until(updateGlobalCache, globalCacheUpdatePeriod): first at once, then every period. */
  private *updateGlobalCacheLoop(stopCh: Chan<never>): Proc<void> {
    for (;;) {
      if (stopCh.closed) return;
      this.cache.UpdateTime(this.sim.nowMs);
      yield* sleep(globalCacheUpdatePeriodMs, "globalCacheUpdatePeriod");
    }
  }

  /**
   * watchEventsChannel: read the runtime's stream; a broken stream forces a relist and is retried,
   * and after eventedPlegMaxStreamRetries failures the generic PLEG takes over at its own period.
   */
  private *watchEventsChannel(stopCh: Chan<never>): Proc<void> {
    let numAttempts = 0;
    while (!stopCh.closed) {
      if (numAttempts >= eventedPlegMaxStreamRetries) {
        // Fall back to Generic PLEG relisting since Evented PLEG is not working.
        this.sim.emit(COMPONENT, "EventedPLEGFallback", { attempts: numAttempts });
        this.Stop();
        this.genericPleg.Stop();
        this.genericPleg.Update(this.opts.relistDuration ?? { relistPeriodMs: plegRelistPeriodMs, relistThresholdMs });
        this.genericPleg.Start();
        return;
      }
      const stream = this.runtime.GetContainerEvents();
      yield* this.processCRIEvents(stream, stopCh);
      if (stopCh.closed) return;
      numAttempts++;
      this.sim.emit(COMPONENT, "EventStreamBroken", { attempt: numAttempts });
      yield* this.genericPleg.relist(); // Force a relist to get the latest container and pods running metric.
    }
  }

  /** processCRIEvents: until the stream closes (bounded by the run: the runtime delivers finitely many events). */
  private *processCRIEvents(stream: Chan<ContainerEventResponse>, stopCh: Chan<never>): Proc<void> {
    for (;;) {
      const { value, ok } = yield* recv(stream);
      if (!ok || stopCh.closed) return;
      this.processCRIEvent(value!);
    }
  }

  private processCRIEvent(event: ContainerEventResponse): void {
    // Ignore the event if PodSandboxStatus is nil: a relist will eventually sync the pod status.
    if (event.podSandboxStatus === null) return;
    const podID = event.podSandboxStatus.metadata.uid;
    const status = this.opts.generatePodStatus(event);
    status.ips = this.getPodIPs(podID, status);
    let shouldSendPLEGEvent = false;
    if (event.containerEventType === "CONTAINER_DELETED_EVENT") {
      // The runtime removed the container; when it is the sandbox, the pod leaves the cache too.
      if (status.sandboxStatuses.some((s) => s.id === event.containerId)) this.cache.Delete(podID);
      shouldSendPLEGEvent = true;
    } else {
      shouldSendPLEGEvent = this.cache.Set(podID, status, null, this.eventTimestampMs(event));
    }
    this.sim.emit(COMPONENT, "ContainerEvent", {
      pod: `${status.namespace}/${status.name}`, uid: podID, containerID: event.containerId, type: event.containerEventType,
      createdAtMs: event.createdAtMs, cached: shouldSendPLEGEvent,
    });
    if (shouldSendPLEGEvent) this.sendEventsFor(event, podID, `${status.namespace}/${status.name}`);
  }

  /** The cache stamp: time.Unix(createdAt, 0) until #124297, time.Unix(0, createdAt) after. */
  private eventTimestampMs(event: ContainerEventResponse): number {
    return this.opts.createdAtTimestampFixed ? event.createdAtMs : event.createdAtMs * 1e9;
  }

  /** processCRIEvent's switch: container creation sends nothing, as the generic PLEG. */
  private sendEventsFor(event: ContainerEventResponse, podID: string, pod: string): void {
    const send = (Type: PodLifecycleEvent["Type"]) => this.sendPodLifecycleEvent({ ID: podID, Type, Data: event.containerId }, pod);
    switch (event.containerEventType) {
      case "CONTAINER_STOPPED_EVENT":
        send(ContainerDied);
        return;
      case "CONTAINER_STARTED_EVENT":
        send(ContainerStarted);
        return;
      case "CONTAINER_DELETED_EVENT":
        // In case the pod is deleted it is safe to generate both ContainerDied and ContainerRemoved events.
        send(ContainerDied);
        send(ContainerRemoved);
        return;
      case "CONTAINER_CREATED_EVENT":
        return;
    }
  }

  private sendPodLifecycleEvent(e: PodLifecycleEvent, pod: string): void {
    if (!this.opts.eventChannel.trySend(e)) {
      this.discarded++;
      this.sim.emit(COMPONENT, "EventDropped", { pod, uid: e.ID, type: e.Type, discarded: this.discarded });
      return;
    }
    this.sim.emit(COMPONENT, e.Type, { pod, uid: e.ID, containerID: e.Data, evented: true });
  }

  /** getPodIPs: keep the cached IPs of a pod whose new status has none and no ready sandbox. */
  private getPodIPs(pid: string, status: PodStatus): string[] {
    if (status.ips.length !== 0) return status.ips;
    const [old, err] = this.cache.GetWithError(pid);
    if (err !== null || old === null || old.ips.length === 0) return [];
    if (status.sandboxStatuses.some((s) => s.state === "SANDBOX_READY")) return status.ips;
    return old.ips;
  }
}
