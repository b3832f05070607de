// Not a model: a host-side cache beside kubelet_pods.go's HandlePodCleanups (kubelet_handlers.ts),
// which every housekeeping period (2 s) walks every desired pod, every pod worker, every probe
// worker, every cached status and every runtime pod, and on a quiet node finds nothing to do. A
// pass must still make its runtime calls (ForceUpdateIfOlder, GetPods: kernel operations and their
// records) and the back-off GC; what it derives and compares around them is kept here while what it
// was derived from is unchanged (issue 21 item 3), each part on its own condition:
//
// - the known pods (upstream's allPods, workingPods from SyncKnownPods, allPodsByUID, and the UIDs
//   possibly running): while the pod manager's generation and the pod workers' are the ones the
//   last computation saw, and that computation did not move the workers' (SyncKnownPods acted on no
//   orphan and no restart request: it only read);
// - CleanupPods: with the same possibly-running set, the probe manager's generation left by the
//   last call, and that call stopped no worker;
// - RemoveOrphanedStatuses: with the same set of pod UIDs and the status manager's generation left
//   by the last call (which left no status outside the set; only an addition moves it since);
// - the restart of desired pods no worker knows: skipped when every desired pod had a worker
//   (known with the pods above);
// - the kill of runtime pods no worker knows: with the same runtime pods (element by element), the
//   same known pods, and the last loop killed none.
//
// Each reused part would have read the same inputs and done nothing, so the pass goes on exactly as
// it would have: the same records, the same choices. test/kubelet/housekeeping_reuse.test.ts runs
// every bundled scenario with every reuse checked against a fresh computation (verify mode).
import type { Pod } from "../k8s/pod.ts";
import type { PodWorkerSync } from "./pod_workers.ts";
import type { RunningPod } from "./types.ts";

/** What HandlePodCleanups derives before its runtime calls. */
export interface KnownPods {
  readonly allPods: readonly Pod[];
  readonly workingPods: ReadonlyMap<string, PodWorkerSync>;
  readonly allPodUIDs: ReadonlySet<string>;
  /** The workers' UIDs whose state is not terminated (their probes may go on). */
  readonly possiblyRunning: ReadonlySet<string>;
  /** Every desired pod has a worker: the restart loop has nothing to look at. */
  readonly everyDesiredKnown: boolean;
}

/** The generations a part's last pass left; absent on a fake (never reuse then). */
export interface Generations {
  readonly pods: number;
  readonly workers: number;
  readonly probes: number | undefined;
  readonly statuses: number | undefined;
}

/** Tests: compute every reused part afresh too, and throw if it differs or would have acted. */
export const housekeepingReuseChecks = { verify: false, reused: 0 };

export class HousekeepingReuse {
  private known: { value: KnownPods; pods: number; workers: number } | null = null;
  private cleanup: { possiblyRunning: ReadonlySet<string>; probes: number } | null = null;
  private orphanedStatuses: { allPodUIDs: ReadonlySet<string>; statuses: number } | null = null;
  private orphans: { known: KnownPods; running: readonly RunningPod[] } | null = null;

  /** The known pods: the last ones when neither generation moved since, else compute()'s (kept when it moved neither). */
  knownPods(g: () => Generations, compute: () => KnownPods): KnownPods {
    const before = g();
    const last = this.known;
    if (last !== null && last.pods === before.pods && last.workers === before.workers) {
      housekeepingReuseChecks.reused++;
      if (housekeepingReuseChecks.verify) verifyKnown(last.value, compute(), before, g());
      return last.value;
    }
    const value = compute();
    const after = g();
    this.known = after.pods === before.pods && after.workers === before.workers ? { value, pods: before.pods, workers: before.workers } : null;
    return value;
  }

  /** CleanupPods(possiblyRunning) unless the last call had the same set, stopped none, and the probe workers did not change since. */
  cleanupPods(known: KnownPods, probes: () => number | undefined, cleanup: () => number): void {
    const last = this.cleanup;
    const g = probes();
    const skip = last !== null && g !== undefined && last.possiblyRunning === known.possiblyRunning && last.probes === g;
    if (skip && !housekeepingReuseChecks.verify) return;
    const stopped = cleanup();
    if (skip && stopped !== 0) throw new Error("housekeeping reuse: CleanupPods stopped a worker in a pass it would have skipped");
    const after = probes();
    this.cleanup = stopped === 0 && after !== undefined ? { possiblyRunning: known.possiblyRunning, probes: after } : null;
  }

  /** RemoveOrphanedStatuses(allPodUIDs) unless the last call had the same set and no status was cached since. */
  removeOrphanedStatuses(known: KnownPods, statuses: () => number | undefined, remove: () => void): void {
    const last = this.orphanedStatuses;
    const g = statuses();
    const skip = last !== null && g !== undefined && last.allPodUIDs === known.allPodUIDs && last.statuses === g;
    if (skip && !housekeepingReuseChecks.verify) return;
    remove();
    const after = statuses();
    if (skip && after !== g) throw new Error("housekeeping reuse: RemoveOrphanedStatuses removed a status in a pass it would have skipped");
    this.orphanedStatuses = after === undefined ? null : { allPodUIDs: known.allPodUIDs, statuses: after };
  }

  /** The orphan loop over the runtime pods unless it ran over the same pods and known pods last time and killed none; kill() returns how many it killed. */
  killOrphans(known: KnownPods, running: readonly RunningPod[], kill: () => number): void {
    const last = this.orphans;
    const skip = last !== null && last.known === known && sameItems(last.running, running);
    if (skip && !housekeepingReuseChecks.verify) return;
    const killed = kill();
    if (skip && killed !== 0) throw new Error("housekeeping reuse: a runtime pod was killed in a pass that would have skipped the loop");
    this.orphans = killed === 0 ? { known, running } : null;
  }
}

/** A reused KnownPods against a fresh one: the same pods, workers (state, orphan), sets; computing it moved nothing. */
function verifyKnown(kept: KnownPods, fresh: KnownPods, before: Generations, after: Generations): void {
  const why =
    after.pods !== before.pods || after.workers !== before.workers ? "computing it again moved a generation"
    : !sameItems(kept.allPods, fresh.allPods) ? "the desired pods differ"
    : !sameWorkers(kept.workingPods, fresh.workingPods) ? "the workers' states differ"
    : !sameSet(kept.allPodUIDs, fresh.allPodUIDs) || !sameSet(kept.possiblyRunning, fresh.possiblyRunning) ? "the UID sets differ"
    : kept.everyDesiredKnown !== fresh.everyDesiredKnown ? "whether every desired pod has a worker differs"
    : null;
  if (why !== null) throw new Error(`housekeeping reuse: the kept known pods are not the fresh ones (${why})`);
}

/** What housekeeping reads of SyncKnownPods' answer: the UIDs, each one's state and orphan flag. */
function sameWorkers(a: ReadonlyMap<string, PodWorkerSync>, b: ReadonlyMap<string, PodWorkerSync>): boolean {
  if (a.size !== b.size) return false;
  for (const [uid, s] of a) {
    const t = b.get(uid);
    if (t === undefined || t.State !== s.State || t.Orphan !== s.Orphan) return false;
  }
  return true;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
