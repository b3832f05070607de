// Models staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go (BeforeDelete) and podStrategy.CheckGracefulDelete.
//
// Pure: given the stored pod, the options and the time, say what the delete does. The generic
// store's two phases (registry/generic/registry/store.go Delete + updateForGracefulDeletionAndFinalizers)
// are in the server; this decides between them.
import type { Pod } from "../k8s/pod.ts";
import type { DeleteOptions } from "./client.ts";
import { newConflict, type StatusError } from "./errors.ts";
import { formatRFC3339, parseRFC3339 } from "./time.ts";

export type DeleteDecision =
  /** Write deletionTimestamp/deletionGracePeriodSeconds; `deleteNow` when the new grace is 0. */
  | { kind: "graceful"; deletionTimestamp: string; deletionGracePeriodSeconds: number; deleteNow: boolean }
  /** Already deleting with an equal or shorter grace: nothing changes (gracefulPending). */
  | { kind: "pending" }
  /** Not graceful (already deleting with grace 0 or unset): remove from storage now (errDeleteNow). */
  | { kind: "now" }
  | { kind: "error"; err: StatusError };

/**
 * podStrategy.CheckGracefulDelete: the grace is the request's, else the pod's
 * terminationGracePeriodSeconds; an unscheduled or terminal pod is deleted at once; negative → 1.
 */
export function checkGracefulDelete(pod: Pod, options: DeleteOptions): number {
  let period = options.gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 0;
  if (!pod.spec.nodeName) period = 0;
  const phase = pod.status?.phase;
  if (phase === "Failed" || phase === "Succeeded") period = 0;
  if (period < 0) period = 1;
  return period;
}

/** rest.BeforeDelete, in upstream's order of checks. */
export function beforeDelete(pod: Pod, options: DeleteOptions, nowMs: number): DeleteDecision {
  const meta = pod.metadata;
  const pre = options.preconditions;
  if (pre?.uid !== undefined && pre.uid !== meta.uid) {
    return {
      kind: "error",
      err: newConflict("Pod", meta.name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${meta.uid ?? ""}). The object might have been deleted and then recreated`),
    };
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
    return {
      kind: "error",
      err: newConflict("Pod", meta.name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion ?? ""}). The object might have been modified`),
    };
  }
  // Negative values are treated as 1s on the delete path.
  let requested = options.gracePeriodSeconds;
  if (requested !== undefined && requested < 0) requested = 1;
  if (meta.deletionTimestamp != null) return shortenOnly(pod, requested);
  const period = checkGracefulDelete(pod, { ...options, gracePeriodSeconds: requested });
  return {
    kind: "graceful",
    deletionTimestamp: formatRFC3339(nowMs + period * 1000),
    deletionGracePeriodSeconds: period,
    deleteNow: period === 0,
  };
}

/** "If we are already being deleted, we may only shorten the deletion grace period." */
function shortenOnly(pod: Pod, requested: number | undefined): DeleteDecision {
  const current = pod.metadata.deletionGracePeriodSeconds;
  // Graceful deletion was set without a grace, or at 0 (a failed second phase): delete now.
  if (current == null || current === 0) return { kind: "now" };
  if (requested === undefined || requested >= current) return { kind: "pending" };
  const oldTimestampMs = parseRFC3339(pod.metadata.deletionTimestamp!);
  return {
    kind: "graceful",
    deletionTimestamp: formatRFC3339(oldTimestampMs - current * 1000 + requested * 1000),
    deletionGracePeriodSeconds: requested,
    deleteNow: requested === 0,
  };
}
