// Models pkg/kubelet/container/runtime_cache.go: the runtime's pod list, cached for a period.
// The pre-1.22 cleanup paths read it stale (race R02); the current kubelet forces a refresh.
import type { Proc } from "../../sim/index.ts";
import type { GoError, RunningPod } from "../types.ts";

export interface PodLister {
  GetPods(all: boolean): Proc<[RunningPod[], GoError]>;
}

/** runtimeCacheRefreshPeriod = housekeepingPeriod (2 s) + housekeepingWarningDuration (1 s). */
export const runtimeCacheRefreshPeriodMs = 3000;

export class RuntimeCache {
  private pods: RunningPod[] = [];
  private cacheTimeMs = -1;

  constructor(
    private readonly clock: { readonly nowMs: number },
    private readonly getter: PodLister,
    private readonly cachePeriodMs = runtimeCacheRefreshPeriodMs,
  ) {}

  /** GetPods: the cached list, refreshed first when older than the cache period. */
  *GetPods(): Proc<[RunningPod[], GoError]> {
    if (this.cacheTimeMs < 0 || this.clock.nowMs - this.cacheTimeMs > this.cachePeriodMs) {
      const err = yield* this.updateCache();
      if (err !== null) return [[], err];
    }
    return [this.pods, null];
  }

  /**
   * The list as last filled and when (-1: never), without refreshing it: what a read-only view of
   * the kubelet at a virtual instant may show, since a refresh would be a runtime call in the run.
   */
  peek(): { pods: readonly RunningPod[]; cacheTimeMs: number } {
    return { pods: this.pods, cacheTimeMs: this.cacheTimeMs };
  }

  /** ForceUpdateIfOlder: refresh when the cache was filled before minTimeMs. */
  *ForceUpdateIfOlder(minTimeMs: number): Proc<GoError> {
    if (this.cacheTimeMs < minTimeMs) return yield* this.updateCache();
    return null;
  }

  private *updateCache(): Proc<GoError> {
    // The timestamp is taken before listing, as upstream's getPodsWithTimestamp does.
    const timestampMs = this.clock.nowMs;
    const [pods, err] = yield* this.getter.GetPods(false);
    if (err !== null) return err;
    this.pods = pods;
    this.cacheTimeMs = timestampMs;
    return null;
  }
}
