// Models pkg/kubelet/config/config.go (PodConfig, podStorage.Merge, SeenAllSources) and pkg/kubelet/config/mux.go.
//
// Each source gets an unbuffered channel and one listener process that calls Merge, as the Mux
// does; Merge holds updateLock while it sends, so the updates of different sources reach the
// syncLoop in strict order, and a syncLoop that stops reading blocks every source behind the
// 50-slot updates channel, exactly as upstream.
import { lock, recv, send, type Chan, type Mutex, type Proc, type Sim } from "../../sim/index.ts";
import { podKey } from "../../k8s/podutil.ts";
import { emptyPodStorage, merge, type MergeResult, type PodStorageState } from "./merge.ts";
import type { PodUpdate } from "./pod_update.ts";

/** NewPodConfig: `updates := make(chan kubetypes.PodUpdate, 50)`. */
export const UPDATES_CHANNEL_CAPACITY = 50;

/**
 * The sends of podStorage.Merge in PodConfigNotificationIncremental mode, in upstream's order:
 * REMOVE, ADD, UPDATE, DELETE, the empty ADD that marks a source seen, then RECONCILE.
 */
export function incrementalNotifications(r: MergeResult, firstSet: boolean): PodUpdate[] {
  const out: PodUpdate[] = [];
  if (r.removes.Pods.length > 0) out.push(r.removes);
  if (r.adds.Pods.length > 0) out.push(r.adds);
  if (r.updates.Pods.length > 0) out.push(r.updates);
  if (r.deletes.Pods.length > 0) out.push(r.deletes);
  if (firstSet && r.adds.Pods.length === 0 && r.updates.Pods.length === 0 && r.deletes.Pods.length === 0) {
    // Send an empty update when first seeing the source and there are no ADD or UPDATE or
    // DELETE pods from the source. This signals kubelet that the source is ready.
    out.push(r.adds);
  }
  // Only add reconcile support here, because kubelet doesn't support Snapshot update now.
  if (r.reconciles.Pods.length > 0) out.push(r.reconciles);
  return out;
}

/**
 * PodConfig in PodConfigNotificationIncremental mode (the only mode the kubelet uses).
 * Simplification: the Snapshot modes and Sync() (a SET of the merged state) are not modelled.
 */
export class PodConfig {
  /** The channel of denormalized changes the syncLoop reads (Updates()). */
  readonly updates: Chan<PodUpdate>;
  private storage: PodStorageState = emptyPodStorage();
  private readonly updateLock: Mutex;
  private readonly sources = new Set<string>();
  private readonly muxChannels = new Map<string, Chan<PodUpdate>>();
  private readonly mapOrder = (keys: readonly string[]): string[] => this.sim.mapOrder(keys);

  constructor(private readonly sim: Sim) {
    this.updates = sim.chan<PodUpdate>("config.updates", UPDATES_CHANNEL_CAPACITY);
    this.updateLock = sim.mutex("podStorage.updateLock");
  }

  Updates(): Chan<PodUpdate> {
    return this.updates;
  }

  /** The merged per-source state, for checkers and tests: as of now (Merge updates a source's map in place, MergeContext.inPlace). */
  get state(): PodStorageState {
    return this.storage;
  }

  /** Channel creates or returns a config source channel (unbuffered, as Mux.ChannelWithContext). */
  Channel(source: string): Chan<PodUpdate> {
    if (source.length === 0) throw new Error("Channel given an empty name");
    this.sources.add(source);
    const existing = this.muxChannels.get(source);
    if (existing !== undefined) return existing;
    const ch = this.sim.chan<PodUpdate>(`config.source.${source}`, 0);
    this.muxChannels.set(source, ch);
    this.sim.go(`config/mux/${source}`, () => this.listen(source, ch), { group: "kubelet", daemon: true });
    return ch;
  }

  /** SeenAllSources: every configured source is in seenSources and has sent at least one SET. */
  SeenAllSources(seenSources: ReadonlySet<string>): boolean {
    for (const s of this.sources) {
      if (!seenSources.has(s) || !this.storage.sourcesSeen.has(s)) return false;
    }
    return true;
  }

  /** The sources configured so far (c.sources). */
  get configuredSources(): ReadonlySet<string> {
    return this.sources;
  }

  private *listen(source: string, ch: Chan<PodUpdate>): Proc<void> {
    for (;;) {
      const { value, ok } = yield* recv(ch);
      if (!ok) return;
      yield* this.Merge(source, value!);
    }
  }

  /** podStorage.Merge: merge under updateLock, then deliver the notifications in order. */
  *Merge(source: string, change: PodUpdate): Proc<void> {
    yield* lock(this.updateLock);
    try {
      const seenBefore = this.storage.sourcesSeen.has(source);
      this.traceIncoming(source, change);
      const r = merge(this.storage, source, change, { nowMs: this.sim.nowMs, mapOrder: this.mapOrder, inPlace: true });
      this.storage = r.state;
      const firstSet = !seenBefore && this.storage.sourcesSeen.has(source);
      for (const pod of r.rejected) {
        this.sim.emit("config", "FailedValidation", { pod: podKey(pod), uid: pod.metadata.uid ?? "", source, reason: "duplicate pod name" });
      }
      for (const u of incrementalNotifications(r, firstSet)) {
        yield* send(this.updates, u);
        this.traceOutgoing(u);
      }
    } finally {
      this.updateLock.unlock();
    }
  }

  /** The change as it comes in; a keyed store's SET names its pods by the keys it already holds (SetListing). */
  private traceIncoming(source: string, change: PodUpdate): void {
    this.sim.emit("config", change.Op, {
      source,
      incoming: true,
      pods: change.listing?.keys ?? change.Pods.map((p) => podKey(p)),
      uids: change.Pods.map((p) => p.metadata.uid ?? ""),
    });
  }

  private traceOutgoing(u: PodUpdate): void {
    if (u.Pods.length === 0) {
      this.sim.emit("config", u.Op, { pod: null, uid: null, source: u.Source, sourceReady: true });
      return;
    }
    for (const p of u.Pods) this.sim.emit("config", u.Op, { pod: podKey(p), uid: p.metadata.uid ?? "", source: u.Source });
  }
}
