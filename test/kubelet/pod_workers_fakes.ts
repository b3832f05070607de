// Fakes for pod worker tests: a syncer that records calls and takes scripted virtual time, and a
// cache that answers at once.
import { call, MemorySink, Sim, type Proc } from "../../src/sim/index.ts";
import type { Pod } from "../../src/k8s/pod.ts";
import type { PodStatus } from "../../src/kubelet/container/runtime.ts";
import type { PodSyncer } from "../../src/kubelet/pod_worker_loop.ts";
import type { GoError, RunningPod, SyncContext, SyncPodType } from "../../src/kubelet/types.ts";
import type { PodStatusFunc } from "../../src/kubelet/pod_sync_status.ts";
import type { PodCacheReader } from "../../src/kubelet/pod_workers_types.ts";

export function pod(name: string, uid: string, extra: Partial<Pod["metadata"]> = {}, grace = 30): Pod {
  return {
    metadata: { name, namespace: "default", uid, ...extra },
    spec: { containers: [{ name: "app", image: "app:1" }], terminationGracePeriodSeconds: grace },
  };
}

export function emptyStatus(uid: string, nowMs: number): PodStatus {
  return { id: uid, name: "", namespace: "default", ips: [], containerStatuses: [], sandboxStatuses: [], timestampMs: nowMs };
}

export class InstantCache implements PodCacheReader {
  constructor(private readonly sim: Sim) {}
  *GetNewerThan(uid: string, _minTimeMs: number): Proc<PodStatus> {
    return emptyStatus(uid, this.sim.nowMs);
  }
  *GetNewerThanWithError(uid: string, _minTimeMs: number): Proc<[PodStatus | null, GoError]> {
    return [emptyStatus(uid, this.sim.nowMs), null];
  }
  Get(uid: string): PodStatus | undefined {
    return emptyStatus(uid, this.sim.nowMs);
  }
}

export class FakeSyncer implements PodSyncer {
  readonly calls: string[] = [];
  syncPodMs = 100;
  terminatingMs = 100;
  terminal = false;
  constructor(private readonly sim: Sim) {}
  private log(what: string): void {
    this.calls.push(`${this.sim.nowMs}:${what}`);
  }
  *SyncPod(ctx: SyncContext, updateType: SyncPodType, pod: Pod, _m: Pod | undefined, _s: PodStatus): Proc<[boolean, GoError]> {
    this.log(`SyncPod(${pod.metadata.name},${updateType})`);
    yield* call(this.syncPodMs, "syncPod");
    if (ctx.err() !== null) {
      this.log(`SyncPod(${pod.metadata.name}) cancelled`);
      return [false, ctx.err()];
    }
    return [this.terminal, null];
  }
  *SyncTerminatingPod(ctx: SyncContext, pod: Pod, _s: PodStatus, gracePeriod: number | undefined, podStatusFn: PodStatusFunc | undefined): Proc<GoError> {
    const s: { phase?: "Failed"; reason?: string } = {};
    podStatusFn?.(s);
    this.log(`SyncTerminatingPod(${pod.metadata.name},grace=${gracePeriod}${s.reason === undefined ? "" : `,${s.phase}/${s.reason}`})`);
    yield* call(this.terminatingMs, "terminating");
    return ctx.err();
  }
  *SyncTerminatingRuntimePod(_ctx: SyncContext, rp: RunningPod): Proc<GoError> {
    this.log(`SyncTerminatingRuntimePod(${rp.name})`);
    yield* call(10, "terminating-runtime");
    return null;
  }
  *SyncTerminatedPod(_ctx: SyncContext, pod: Pod, _s: PodStatus): Proc<GoError> {
    this.log(`SyncTerminatedPod(${pod.metadata.name})`);
    yield* call(10, "terminated");
    return null;
  }
}

export function newSim(untilMs = 600_000): { sim: Sim; sink: MemorySink } {
  const sink = new MemorySink();
  return { sim: new Sim({ seed: 1, strategy: { name: "fifo" }, sinks: [sink], bounds: { untilMs } }), sink };
}
