// The pod workers as pod_workers_test.go builds them (createPodWorkers and
// createTimeIncrementingPodWorkers): the real PodWorkers with sync functions that only record
// their calls, resync 1 s, back-off 1 ms, a fake work queue and a runtime-backed fake pod cache.
//
// The Go harness's fake clock is the kernel's virtual clock, driven from outside the run with
// Sim.runUntil. The time-incrementing harness puts upstream's workerChannelFn seam to the same use
// as the Go test: every wake-up of a worker passes a relay that waits while the worker is held and
// then steps the clock by one second; UpdatePod steps it by one second too. Draining runs the kernel
// until nothing is left to do (runUntil reports "idle").
import type { Pod } from "../k8s/pod.ts";
import type { PodStatus } from "../kubelet/container/runtime.ts";
import { emptyPodStatus } from "../kubelet/container/cache.ts";
import type { PodSyncer } from "../kubelet/pod_worker_loop.ts";
import { PodWorkers, type PodWorkerSync } from "../kubelet/pod_workers.ts";
import type { PodStatusFunc, UpdatePodOptions } from "../kubelet/pod_sync_status.ts";
import type { PodCacheReader } from "../kubelet/pod_workers_types.ts";
import { SyncPodKill, type GoError, type RunningPod, type SyncContext, type SyncPodType } from "../kubelet/types.ts";
import { WorkQueue } from "../kubelet/util/queue.ts";
import { recv, send, sleep, Sim, type Chan, type Proc } from "../sim/index.ts";

/** One recorded sync call (syncPodRecord in the Go test). */
export interface SyncRecord {
  fn: "syncPod" | "syncTerminatingPod" | "syncTerminatingRuntimePod" | "syncTerminatedPod";
  name: string;
  updateType?: SyncPodType;
  gracePeriod?: number;
  terminated?: boolean;
  runningPod?: string;
}

/** The four sync functions, recording and returning at once (the Go fakes take no time either). */
class RecordingSyncer implements PodSyncer {
  readonly processed = new Map<string, SyncRecord[]>();
  /** terminalPhaseSync.SetTerminal: syncPod reports these pods terminal (TestTerminalPhaseTransition). */
  readonly terminal = new Set<string>();
  private note(uid: string, r: SyncRecord): void {
    const list = this.processed.get(uid) ?? [];
    list.push(r);
    this.processed.set(uid, list);
  }
  *SyncPod(_ctx: SyncContext, updateType: SyncPodType, pod: Pod): Proc<[boolean, GoError]> {
    this.note(pod.metadata.uid!, { fn: "syncPod", name: pod.metadata.name, updateType });
    return [this.terminal.has(pod.metadata.uid!), null];
  }
  *SyncTerminatingPod(_ctx: SyncContext, pod: Pod, _s: PodStatus, gracePeriod: number | undefined, _a: PodStatusFunc | undefined): Proc<GoError> {
    this.note(pod.metadata.uid!, { fn: "syncTerminatingPod", name: pod.metadata.name, updateType: SyncPodKill, ...(gracePeriod === undefined ? {} : { gracePeriod }) });
    return null;
  }
  *SyncTerminatingRuntimePod(_ctx: SyncContext, rp: RunningPod): Proc<GoError> {
    this.note(rp.id, { fn: "syncTerminatingRuntimePod", name: rp.name, updateType: SyncPodKill, runningPod: rp.id });
    return null;
  }
  *SyncTerminatedPod(_ctx: SyncContext, pod: Pod): Proc<GoError> {
    this.note(pod.metadata.uid!, { fn: "syncTerminatedPod", name: pod.metadata.name, terminated: true });
    return null;
  }
}

/** containertest.NewFakeCache over a fake runtime: GetPodStatus fails (NotFound) or returns an empty status. */
class FakeRuntimeCache implements PodCacheReader {
  notFound = false;
  Get(uid: string): PodStatus | undefined {
    return this.notFound ? undefined : emptyPodStatus(uid);
  }
  *GetNewerThan(uid: string): Proc<PodStatus> {
    return emptyPodStatus(uid);
  }
  *GetNewerThanWithError(uid: string): Proc<[PodStatus | null, GoError]> {
    return this.notFound ? [null, new Error("rpc error: code = NotFound desc = No such pod")] : [emptyPodStatus(uid), null];
  }
}

/** The Go test's fakeQueue: every Enqueue is recorded; GetWork hands out (and forgets) all of them, whatever their delay. */
class FakeQueue extends WorkQueue {
  private items: string[] = [];
  override Enqueue(uid: string, delayMs: number): void {
    this.items.push(uid);
    super.Enqueue(uid, delayMs);
  }
  /** fakeQueue.Set(): the queued UIDs since the last GetWork. */
  queued(): string[] {
    return [...new Set(this.items)].sort();
  }
  /** fakeQueue.GetWork(): the queued UIDs, then none. */
  takeAll(): string[] {
    const out = this.queued();
    this.items = [];
    return out;
  }
}

const SECOND_MS = 1000;

export class PodWorkersHarness {
  readonly sim = new Sim({ seed: 1, strategy: { name: "fifo" } });
  readonly syncer = new RecordingSyncer();
  readonly cache = new FakeRuntimeCache();
  readonly workers: PodWorkers;
  /** What the last SyncKnownPods returned. */
  lastSync: ReadonlyMap<string, PodWorkerSync> | null = null;
  /** The fake work queue: the UIDs the workers enqueued. */
  readonly queue: FakeQueue;
  /** Workers whose relay must wait (time-incrementing harness only): held during an update, or paused. */
  private readonly held = new Set<string>();
  /** PauseWorkers: held until ReleaseWorkers, drains skip them (drainUnpausedWorkers). */
  private readonly paused = new Set<string>();
  private readonly release = new Map<string, Chan<true>>();

  constructor(readonly timeIncrementing: boolean) {
    this.queue = new FakeQueue(this.sim);
    this.workers = new PodWorkers(this.sim, this.syncer, { Eventf: () => {} }, this.queue, SECOND_MS, 1, this.cache, "harness");
    if (timeIncrementing) {
      // The fake clock starts at Unix(1).
      this.stepClock();
      this.workers.workerChannelFn = (uid, podUpdates) => this.relay(uid, podUpdates);
    }
  }

  /** The relay between a worker's channel and the worker: wait while held, step the clock, pass the wake-up on. */
  private relay(uid: string, podUpdates: Chan<true>): Chan<true> {
    const out = this.sim.chan<true>(`relay/${uid}`, 0);
    const release = this.sim.chan<true>(`release/${uid}`, 1);
    this.release.set(uid, release);
    const held = this.held;
    this.sim.go(`relay/${uid}`, function* () {
      for (;;) {
        const r = yield* recv(podUpdates);
        if (!r.ok) break;
        while (held.has(uid)) yield* recv(release);
        yield* sleep(SECOND_MS);
        yield* send(out, true);
      }
      out.close();
    }, { group: "harness", daemon: true });
    return out;
  }

  /** UpdatePod, then (time-incrementing) one clock step with every worker held. */
  updatePod(o: UpdatePodOptions): void {
    if (this.timeIncrementing) for (const uid of this.release.keys()) this.held.add(uid);
    const uid = o.Pod?.metadata.uid ?? o.RunningPod?.id ?? "";
    if (this.timeIncrementing) this.held.add(uid);
    this.workers.UpdatePod(o);
    // The plain harness lets no worker run until the test drains: a burst of updates lands first.
    if (this.timeIncrementing) this.stepClock();
  }

  /** clock.Step(time.Second): whatever is due meanwhile runs (a held worker does not). */
  private stepClock(): void {
    const atMs = this.sim.nowMs + SECOND_MS;
    this.sim.schedule(atMs, () => {});
    this.sim.runUntil(atMs);
  }

  /** PauseWorkers: the workers wait at their next wake-up until released (time-incrementing harness). */
  pauseWorkers(uids: readonly string[]): void {
    for (const uid of uids) {
      this.paused.add(uid);
      this.held.add(uid);
    }
  }

  /** ReleaseWorkers: the paused workers may run again (at the next drain). */
  releaseWorkers(uids: readonly string[]): void {
    for (const uid of uids) this.paused.delete(uid);
  }

  /** drainWorkers: release every worker (but `except` and the paused ones) and run until nothing is left to do. */
  drain(except: readonly string[] = []): string | null {
    for (const uid of [...this.held]) {
      if (except.includes(uid) || this.paused.has(uid)) continue;
      this.held.delete(uid);
      this.release.get(uid)?.offer(true);
    }
    const r = this.sim.runUntil(Number.POSITIVE_INFINITY);
    return r === "idle" ? null : `the workers did not settle: ${r}`;
  }

  /** The Go time.Time of a model time as Unix seconds (-1, Go's zero time, is absent). */
  static seconds(ms: number): number | undefined {
    return ms < 0 ? undefined : Math.floor(ms / SECOND_MS);
  }
}
