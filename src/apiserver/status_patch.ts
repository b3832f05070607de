// Models what a strategic merge patch of pods/status does when the client computed it from a status
// it read earlier (statusutil.PatchPodStatus: strategicpatch.CreateTwoWayMergePatch(old, new)).
//
// Simplified: the diff is taken per top-level status field, and a field that changed is replaced
// whole; upstream merges lists by key (conditions by type, container statuses by name). For a
// patch applied to the object it was computed from, the result is the same. The difference shows
// only when the patch lands on another object, which is what race R15 is about: an empty diff
// changes nothing there, and a changed field overwrites that object's own value.
import type { PodStatus } from "../k8s/pod.ts";
import { cloneJSON, jsonEqual } from "../k8s/json.ts";

/** `target` with every top-level field that differs between `base` and `next` set as in `next`. */
export function applyStatusDiff(target: PodStatus, base: PodStatus, next: PodStatus): PodStatus {
  const out: Record<string, unknown> = cloneJSON(target) as Record<string, unknown>;
  const from = base as Record<string, unknown>;
  const to = next as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
  for (const k of keys) {
    if (jsonEqual(from[k] ?? null, to[k] ?? null)) continue;
    // A field the new status no longer has is deleted ("field": null in the patch).
    if (to[k] === undefined || to[k] === null) delete out[k];
    else out[k] = cloneJSON(to[k]);
  }
  return out as PodStatus;
}
