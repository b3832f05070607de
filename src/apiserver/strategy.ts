// Models pkg/registry/core/pod/strategy.go (podStrategy, podStatusStrategy) and rest/update.go BeforeUpdate.
//
// Pure functions from values to values. The update preparations assign fields on copy-on-write
// edits (objects.ts) of the incoming pod, as upstream assigns them on the decoded object, so a
// strategy never touches a frozen object and the result shares every unchanged subtree.
import type { ObjectMeta, Pod } from "../k8s/pod.ts";
import type { Edit } from "./objects.ts";
import { defaultPod } from "../k8s/defaults.ts";
import { newBadRequest, newInvalid, newInvalidStatus, type StatusError } from "./errors.ts";
import { validatePodForCreate, validatePodForUpdate, type PodValidationResult } from "./validation/index.ts";
import { formatRFC3339 } from "./time.ts";
import { perFrozenObject, perKeyOf } from "../k8s/memo.ts";

/**
 * podStrategy.PrepareForCreate plus the generic store's system fields (FillObjectMetaSystemFields):
 * a new uid, creationTimestamp, and a status reset to Pending.
 * Simplification: status.qosClass is not computed (the kubelet models do not read it).
 */
export function prepareForCreate(input: Pod, uid: string, nowMs: number): Pod {
  const pod = defaultPod(input);
  pod.metadata.uid = uid;
  pod.metadata.creationTimestamp = formatRFC3339(nowMs);
  delete pod.metadata.deletionTimestamp;
  delete pod.metadata.deletionGracePeriodSeconds;
  pod.status = { phase: "Pending" };
  return pod;
}

/**
 * podStrategy.Validate: ValidatePodCreate on the pod as decoded with its defaults (validation/).
 * A pod the decoder refuses is a 400 BadRequest, one validation refuses a 422 Invalid.
 */
export function validateCreate(pod: Pod): StatusError | null {
  return statusOf(validateForCreateOnce(pod));
}

/**
 * Validation is a pure function of the pod: a frozen manifest (an exploration creates the same
 * one in every run, node/plan.ts) is validated once, and any other pod once per content (the pods
 * a controller or a cluster's timeline builds anew in every run are a few contents, each validated
 * at about 50 µs against 4 µs for its key).
 */
/** A bound on the contents kept (memory stays bounded; a result computed again equals the one dropped). */
const MAX_CONTENTS = 256;
const validateForCreateOnce = perFrozenObject(perKeyOf(validatePodForCreate, contentKey, MAX_CONTENTS));

/**
 * The pod's JSON text with what JSON would lose spelled out after a NUL (a key whose value is
 * undefined, a non-finite number, -0; a text that starts with NUL gets a second), so two pods have
 * one key only when every key, its order and every value are the same; null for a pod that holds
 * something else than JSON's values, plain objects and arrays (validated every time).
 */
function contentKey(pod: Pod): string | null {
  try {
    return JSON.stringify(pod, keepLost);
  } catch (e) {
    if (e === NOT_JSON) return null;
    throw e;
  }
}

const NOT_JSON = new Error("not a JSON value");

function keepLost(this: Record<string, unknown>, key: string, v: unknown): unknown {
  if (v !== this[key]) throw NOT_JSON; // a toJSON method changed it (a Date)
  switch (typeof v) {
    case "string":
      return v.charCodeAt(0) === 0 ? `\u0000${v}` : v; // so no text reads as a marker
    case "number":
      return Number.isFinite(v) && !Object.is(v, -0) ? v : `\u0000${Object.is(v, -0) ? "-0" : String(v)}`;
    case "undefined":
      return "\u0000undefined";
    case "boolean":
      return v;
    case "object": {
      if (v === null) return v;
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto === Object.prototype || proto === Array.prototype || proto === null) return v;
      throw NOT_JSON;
    }
    default:
      throw NOT_JSON;
  }
}

function statusOf(r: PodValidationResult): StatusError | null {
  if (r.ok) return null;
  return r.code === 400 ? newBadRequest(r.statusMessage) : newInvalidStatus(r.statusMessage);
}

/**
 * rest.BeforeUpdate + podStrategy.PrepareForUpdate: status, uid-if-unset, creationTimestamp and the
 * deletion fields come from the stored object; an update can never remove a deletion timestamp.
 */
export function prepareForUpdate(pod: Edit<Pod>, meta: Edit<ObjectMeta>, old: Pod): void {
  // `newPod.Status = oldPod.Status`: the stored subtree itself, as Go's struct copy shares it. The
  // store deep-freezes what it holds, so sharing is safe, and it keeps the new object's unchanged
  // subtrees identical to the old one's: every later comparison of them stops at `a === b`.
  pod.set("status", old.status);
  keepSystemMeta(meta, old);
}

/** podStatusStrategy.PrepareForUpdate: only status (and labels, annotations) may change. */
export function prepareForStatusUpdate(pod: Edit<Pod>, meta: Edit<ObjectMeta>, old: Pod): void {
  // Shared, not copied: the stored pod is deep-frozen (see prepareForUpdate).
  pod.set("spec", old.spec);
  meta.set("ownerReferences", old.metadata.ownerReferences);
  keepSystemMeta(meta, old);
}

function keepSystemMeta(meta: Edit<ObjectMeta>, old: Pod): void {
  if (!meta.get("uid")) meta.set("uid", old.metadata.uid);
  if (old.metadata.creationTimestamp) meta.set("creationTimestamp", old.metadata.creationTimestamp);
  if (old.metadata.deletionTimestamp) meta.set("deletionTimestamp", old.metadata.deletionTimestamp);
  else meta.delete("deletionTimestamp");
  if (old.metadata.deletionGracePeriodSeconds != null) {
    meta.set("deletionGracePeriodSeconds", old.metadata.deletionGracePeriodSeconds);
  } else {
    meta.delete("deletionGracePeriodSeconds");
  }
}

/** ValidateObjectMetaUpdate: uid and name are immutable (a UID in a patch acts as a precondition). */
export function validateMetaUpdate(next: Pod, old: Pod): StatusError | null {
  if (next.metadata.uid !== old.metadata.uid) {
    return newInvalid(old.metadata.name, `metadata.uid: Invalid value: "${next.metadata.uid}": field is immutable`);
  }
  return null;
}

/** podStrategy.ValidateUpdate: ValidatePodUpdate (validation/), which includes the metadata checks. */
export function validateUpdate(next: Pod, old: Pod): StatusError | null {
  return statusOf(validatePodForUpdate(next, old));
}

/**
 * ValidatePodStatusUpdate: the meta checks plus ValidateContainerStateTransition: unless the
 * restart policy is Always, a terminated container may not go back to a non-terminated state
 * (with OnFailure, one that failed may).
 */
export function validateStatusUpdate(next: Pod, old: Pod): StatusError | null {
  const metaErr = validateMetaUpdate(next, old);
  if (metaErr !== null) return metaErr;
  const policy = old.spec.restartPolicy ?? "Always";
  if (policy === "Always") return null;
  const lists = [["containerStatuses", "containerStatuses"], ["initContainerStatuses", "initContainerStatuses"]] as const;
  for (const [field] of lists) {
    const olds = old.status?.[field] ?? [];
    const news = next.status?.[field] ?? [];
    for (let i = 0; i < olds.length; i++) {
      const o = olds[i]!;
      const term = o.state?.terminated;
      if (term === undefined) continue;
      if (term.exitCode !== 0 && policy === "OnFailure") continue;
      if (news.some((n) => n.name === o.name && n.state?.terminated === undefined)) {
        return newInvalid(old.metadata.name, `status.${field}[${i}].state: Forbidden: may not be transitioned to non-terminated state`);
      }
    }
  }
  return null;
}
