// Models the parts of pkg/controller/controller_utils.go the workload controllers share:
// FilterActivePods (IsPodActive) and ActivePodsWithRanks.Less, the order in which a ReplicaSet
// deletes surplus pods (getPodsRankedByRelatedPodsOnSameNode gives the ranks).
import type { Pod } from "../k8s/pod.ts";
import { parseRFC3339 } from "../apiserver/time.ts";
import { wait, type Proc, type Sim } from "../sim/index.ts";

/** SlowStartInitialBatchSize. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/**
 * slowStartBatch (replica_set.go; the DaemonSet and Job controllers run the same loop inline):
 * batches of 1, 2, 4... calls of `create(i)` for i = 0..count-1, each batch's calls as goroutines
 * `<name>/create` at once; a batch with a failure ends the run of batches. Returns how many
 * succeeded.
 */
export function* slowStartBatch(sim: Sim, name: string, count: number, create: (i: number) => Proc<boolean>): Proc<number> {
  let next = 0;
  let successes = 0;
  let batchSize = Math.min(count, SLOW_START_INITIAL_BATCH_SIZE);
  while (batchSize > 0) {
    const wg = sim.waitGroup(`${name}/slowStartBatch`);
    let failed = 0;
    wg.add(batchSize);
    for (let b = 0; b < batchSize; b++) {
      const i = next++;
      sim.go(`${name}/create`, function* () {
        if (yield* create(i)) successes++;
        else failed++;
        wg.done();
      }, { daemon: true });
    }
    yield* wait(wg);
    if (failed > 0) break;
    batchSize = Math.min(2 * batchSize, count - next);
  }
  return successes;
}

/** The annotation that orders a ReplicaSet's deletions (PodDeletionCost, beta since 1.22). */
export const POD_DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";

/** IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(p: Pod): boolean {
  const phase = p.status?.phase;
  return phase !== "Succeeded" && phase !== "Failed" && !p.metadata.deletionTimestamp;
}

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function readyCondition(p: Pod) {
  return p.status?.conditions?.find((c) => c.type === "Ready");
}

function isReady(p: Pod): boolean {
  return readyCondition(p)?.status === "True";
}

function deletionCost(p: Pod): number {
  const v = Number(p.metadata.annotations?.[POD_DELETION_COST] ?? "0");
  return Number.isInteger(v) ? v : 0;
}

function restarts(p: Pod): number {
  let max = 0;
  for (const s of p.status?.containerStatuses ?? []) max = Math.max(max, s.restartCount ?? 0);
  return max;
}

function timeMs(text: string | null | undefined): number | null {
  return text ? parseRFC3339(text) : null;
}

/** afterOrZero: an unset time first, then the later one. */
function afterOrZero(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === null;
  return a > b;
}

/**
 * ActivePodsWithRanks.Less, for sorting `pods` (the ranks: how many of them share each pod's node),
 * so that the pods to delete come first.
 */
export function activePodsWithRanksLess(pods: readonly Pod[]): (a: Pod, b: Pod) => number {
  const onNode = new Map<string, number>();
  for (const p of pods) if (p.spec.nodeName) onNode.set(p.spec.nodeName, (onNode.get(p.spec.nodeName) ?? 0) + 1);
  const rank = (p: Pod) => (p.spec.nodeName ? onNode.get(p.spec.nodeName)! : 0);
  const less = (a: Pod, b: Pod): boolean | null => {
    const na = a.spec.nodeName ?? "";
    const nb = b.spec.nodeName ?? "";
    if (na !== nb && (na === "" || nb === "")) return na === "";
    const pa = PHASE_ORDINAL[a.status?.phase ?? "Pending"] ?? 0;
    const pb = PHASE_ORDINAL[b.status?.phase ?? "Pending"] ?? 0;
    if (pa !== pb) return pa < pb;
    if (isReady(a) !== isReady(b)) return !isReady(a);
    if (deletionCost(a) !== deletionCost(b)) return deletionCost(a) < deletionCost(b);
    if (rank(a) !== rank(b)) return rank(a) > rank(b);
    if (isReady(a) && isReady(b)) {
      const ra = timeMs(readyCondition(a)?.lastTransitionTime);
      const rb = timeMs(readyCondition(b)?.lastTransitionTime);
      if (ra !== rb) return afterOrZero(ra, rb);
    }
    if (restarts(a) !== restarts(b)) return restarts(a) > restarts(b);
    const ca = timeMs(a.metadata.creationTimestamp);
    const cb = timeMs(b.metadata.creationTimestamp);
    if (ca !== cb) return afterOrZero(ca, cb);
    return null;
  };
  return (a, b) => {
    const l = less(a, b);
    if (l !== null) return l ? -1 : 1;
    // Upstream leaves equal pods in sort.Sort's order; here the name decides, for one answer.
    return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
  };
}
