// Models pkg/util/pod/pod.go (PatchPodStatus): send the status as a patch of pods/<name>/status with the pod's UID as a precondition.
import type { Pod, PodStatus } from "../../k8s/pod.ts";
import type { Proc } from "../../sim/index.ts";
import type { StatusError } from "../../apiserver/errors.ts";
import type { StatusClient } from "./interfaces.ts";
import { semanticDeepEqual } from "./semantic.ts";

export type PatchResult =
  | { pod: Pod | null; unchanged: boolean; err: null }
  | { pod: null; unchanged: false; err: StatusError };

/**
 * PatchPodStatus. Upstream builds a strategic merge patch from old to new and skips the request
 * when the patch holds nothing but the UID precondition ("unchanged"). Simplified: the patch
 * carries the whole new status, which for the fields modelled here is what applying the
 * strategic merge patch to the stored status yields; "unchanged" is semantic equality.
 */
export function* PatchPodStatus(
  client: StatusClient,
  namespace: string,
  name: string,
  uid: string,
  oldPodStatus: PodStatus,
  newPodStatus: PodStatus,
): Proc<PatchResult> {
  if (semanticDeepEqual(oldPodStatus, newPodStatus)) return { pod: null, unchanged: true, err: null };
  const r = yield* client.patchPodStatus(namespace, name, newPodStatus, uid);
  if (r.err !== null) return { pod: null, unchanged: false, err: r.err };
  return { pod: r.value, unchanged: false, err: null };
}
