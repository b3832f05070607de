// Models the apiserver's cacheWatcher (apiserver/pkg/storage/cacher/cache_watcher.go) and the watch stream.
//
// Each watch has a bounded input buffer and one process that delivers its events into the
// client's result channel after the watcher's delivery delay, in order. The result channel is
// unbuffered, like a StreamWatcher's: a client that does not read holds the pump, the buffer fills,
// and the server then closes the watch, as the cacher closes an unresponsive watcher.
import { recvCase, select, sendCase, type Chan, type Proc, type Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { podKey } from "../k8s/podutil.ts";
import type { WatchEvent, WatchInterface } from "./client.ts";
import type { StatusError } from "./errors.ts";
import { matchesNode, type StoredEvent } from "./store.ts";
import { Edit } from "./objects.ts";

/** The cacher's per-watcher input channel size. */
export const DEFAULT_WATCH_BUFFER = 100;

interface Pending {
  readonly deliverAtMs: number;
  readonly event: WatchEvent;
}

export interface WatcherOptions {
  readonly id: number;
  readonly actor: string;
  readonly nodeName: string | undefined;
  readonly bufferSize: number;
  readonly timeoutMs: number | null;
  /** The delivery delay of the next event (fixed, or drawn from the apiserver's stream). */
  readonly delayMs: () => number;
}

export class Watcher implements WatchInterface {
  readonly resultChan: Chan<WatchEvent>;
  private readonly queue: Pending[] = [];
  private readonly kick: Chan<true>;
  private lastDeliverAtMs = 0;
  /** Extra delivery delay a scenario put on this stream (a slow or stalled connection). */
  extraDelayMs = 0;
  private closing: string | null = null;
  private drainThenClose = false;

  constructor(
    private readonly sim: Sim,
    readonly opts: WatcherOptions,
  ) {
    this.resultChan = sim.chan<WatchEvent>(`watch#${opts.id}.result`, 0);
    this.kick = sim.chan<true>(`watch#${opts.id}.kick`, 1);
    sim.go(`apiserver/watch#${opts.id}`, () => this.pump(), { group: "apiserver", daemon: true });
  }

  get open(): boolean {
    return this.closing === null && !this.drainThenClose;
  }

  /** watch.Interface.Stop, called by the client. */
  stop(): void {
    this.terminate("stopped by client");
  }

  /** Closes the stream now; events not yet delivered are lost with the connection. */
  terminate(reason: string): void {
    if (this.closing !== null) return;
    this.closing = reason;
    this.kick.offer(true);
  }

  /** Delivers a store event, converted for this watcher's field selector (cacheWatcher.convertToWatchEvent). */
  offerStored(e: StoredEvent): void {
    const ev = convertToWatchEvent(e, this.opts.nodeName);
    if (ev !== null) this.enqueue(ev);
  }

  /**
   * Queues one event (an initial ADDED, a replayed one, or an ERROR). A full buffer closes the
   * watch only when its oldest event is overdue, i.e. the client has stopped taking events: a burst
   * written in one instant (a cluster's controllers creating hundreds of pods, a list of more pods
   * than the buffer holds) is taken by a reading client as cacheWatcher.add's blocking send under
   * the dispatcher's timeout budget would, and processInterval's initial events bypass the buffer.
   */
  enqueue(event: WatchEvent): void {
    if (!this.open) return;
    if (this.queue.length >= this.opts.bufferSize && (this.queue[0]?.deliverAtMs ?? -1) < this.sim.nowMs) {
      this.terminate("watcher buffer full (unresponsive client)");
      return;
    }
    const at = Math.max(this.sim.nowMs + this.opts.delayMs() + this.extraDelayMs, this.lastDeliverAtMs);
    this.lastDeliverAtMs = at;
    this.queue.push({ deliverAtMs: at, event });
    this.kick.offer(true);
  }

  /** Sends an ERROR event (e.g. 410 Expired) and closes the watch after it, as an errWatcher does. */
  fail(status: StatusError): void {
    this.enqueue({ type: "ERROR", object: null, status });
    this.drainThenClose = true;
    this.kick.offer(true);
  }

  private *pump(): Proc<void> {
    const timeout = this.opts.timeoutMs === null ? null : this.sim.after(`watch#${this.opts.id}.timeout`, this.opts.timeoutMs);
    for (;;) {
      if (this.closing !== null) break;
      const head = this.queue[0];
      if (head === undefined) {
        if (this.drainThenClose) break;
        const c = yield* select([recvCase(this.kick), recvCase(timeout)]);
        if (c.index === 1) this.terminate("timeout");
        continue;
      }
      const waitMs = head.deliverAtMs - this.sim.nowMs;
      if (waitMs > 0) {
        const due = this.sim.after(`watch#${this.opts.id}.delay`, waitMs);
        const c = yield* select([recvCase(this.kick), recvCase(timeout), recvCase(due)]);
        if (c.index === 1) this.terminate("timeout");
        continue;
      }
      const c = yield* select([recvCase(this.kick), recvCase(timeout), sendCase(this.resultChan, head.event)]);
      if (c.index === 1) this.terminate("timeout");
      if (c.index === 2) this.delivered(this.queue.shift()!.event);
    }
    this.queue.length = 0;
    this.sim.emit("apiserver", "WatchClosed", { watch: this.opts.id, actor: this.opts.actor, reason: this.closing ?? "error sent" });
    this.resultChan.close();
  }

  private delivered(ev: WatchEvent): void {
    const obj = ev.object;
    this.sim.emit("apiserver", "WatchEvent", {
      watch: this.opts.id,
      actor: this.opts.actor,
      type: ev.type,
      ...(obj === null ? { error: ev.status?.message ?? "" } : describe(obj)),
    });
  }
}

/** The previous state of an object at the resourceVersion of the event that changed it. */
function atVersion(prev: Pod, cur: Pod): Pod {
  const metadata = new Edit(prev.metadata).set("resourceVersion", cur.metadata.resourceVersion).result();
  return new Edit(prev).set("metadata", metadata).result();
}

export function describe(pod: Pod): { pod: string; uid: string; resourceVersion: string } {
  return { pod: podKey(pod), uid: pod.metadata.uid ?? "", resourceVersion: pod.metadata.resourceVersion ?? "" };
}

/**
 * cacheWatcher.convertToWatchEvent: with a field selector, an object that starts matching is
 * ADDED and one that stops matching is DELETED (its old state, at the new resourceVersion).
 */
export function convertToWatchEvent(e: StoredEvent, nodeName: string | undefined): WatchEvent | null {
  const curPasses = e.type !== "DELETED" && matchesNode(e.object, nodeName);
  const oldPasses = matchesNode(e.prevObject, nodeName);
  if (e.type === "DELETED") return oldPasses ? { type: "DELETED", object: e.object, status: null } : null;
  if (curPasses && oldPasses) return { type: "MODIFIED", object: e.object, status: null };
  if (curPasses) return { type: "ADDED", object: e.object, status: null };
  if (oldPasses) return { type: "DELETED", object: atVersion(e.prevObject!, e.object), status: null };
  return null;
}
