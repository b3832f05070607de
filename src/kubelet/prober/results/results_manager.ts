// Models pkg/kubelet/prober/results/results_manager.go (Manager: Get/Set/Remove and the Updates channel).
//
// Set sends on the updates channel with a BLOCKING send when the cached result changes, exactly
// as upstream: with 20 unread updates queued, the probe worker that calls Set stops until its
// reader (the syncLoop, or before 1.21 the prober manager) catches up.
// Simplified: the RWMutex guarding the cache is not modelled; no operation yields while holding it.
import type { Chan, Proc, Sim } from "../../../sim/index.ts";
import { send } from "../../../sim/index.ts";
import type { Result } from "../worker_core.ts";

export type { Result } from "../worker_core.ts";

/** Update: one changed result, sent over the Updates channel. ContainerID is "type://id". */
export interface Update {
  readonly ContainerID: string;
  readonly Result: Result;
  readonly PodUID: string;
}

/** The capacity of the updates channel upstream. */
export const updatesChannelCapacity = 20;

export class ResultsManager {
  private readonly cache = new Map<string, Result>();
  private readonly updates: Chan<Update>;
  private changes = 0;

  /** `name` ("liveness", "readiness", "startup") only names the channel and the trace records. */
  constructor(
    private readonly sim: Sim,
    readonly name: string,
  ) {
    this.updates = sim.chan<Update>(`prober/${name}Updates`, updatesChannelCapacity);
  }

  /** Not upstream: how many changes the cached results have had (equal numbers, the same results). */
  get generation(): number {
    return this.changes;
  }

  /** Get returns the cached result for the container ID, or undefined when there is none. */
  Get(containerID: string): Result | undefined {
    return this.cache.get(containerID);
  }

  /** Set caches the result; when it changed, sends an Update (blocking while the channel is full). */
  *Set(containerID: string, result: Result, podUID: string): Proc<void> {
    if (!this.setInternal(containerID, result)) return;
    this.sim.emit("prober", "ResultSet", { uid: podUID, containerID, probeType: this.name, result });
    yield* send(this.updates, { ContainerID: containerID, Result: result, PodUID: podUID });
  }

  /** Remove clears the cached result for the container ID. */
  Remove(containerID: string): void {
    if (this.cache.delete(containerID)) this.changes++;
  }

  /** Updates: the channel of changed results (a single reader, as upstream notes). */
  Updates(): Chan<Update> {
    return this.updates;
  }

  private setInternal(containerID: string, result: Result): boolean {
    const prev = this.cache.get(containerID);
    if (prev !== undefined && prev === result) return false;
    this.changes++;
    this.cache.set(containerID, result);
    return true;
  }
}
