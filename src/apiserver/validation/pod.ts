// Models ValidatePodCreate, ValidatePodUpdate, validatePodMetadataAndSpec, ValidateContainerUpdates,
// ValidatePodSpecificAnnotations and ValidatePodSpecificAnnotationUpdates of
// pkg/apis/core/validation/validation.go.
//
// Simplifications: seccomp and AppArmor annotations are not checked; the tolerations annotation is
// not parsed; the ServiceAccount admission plugin (which fills serviceAccountName before
// validation) is not modelled, so the projected-token check it makes moot is left out; scheduling
// gates do not relax nodeSelector or affinity updates; and the spec diff upstream appends to a
// refused update is a plain list of the changed fields, not cmp.Diff's output.
import type { Container, Pod, PodSpec } from "../../k8s/pod.ts";
import { canonicalJSON } from "../../k8s/json.ts";
import { validateContainerOnlyForPod } from "./containers.ts";
import { FieldPath, forbidden, invalid, required, type FieldError } from "./field.ts";
import { inclusiveRangeError, nameIsDNSSubdomain } from "./names.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "./objectmeta.ts";
import type { PodValidationOptions } from "./options.ts";
import { validatePodSpec, validateTolerations } from "./podspec.ts";
import { parseQuantity, quantityString } from "./quantity.ts";
import { byCodeUnit, get, intPtr, isObj, list, str, stringMap } from "./raw.ts";

export const MIRROR_POD_ANNOTATION_KEY = "kubernetes.io/config.mirror";
const POD_DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";
const APPARMOR_PREFIX = "container.apparmor.security.beta.kubernetes.io/";
const MAX_INT32 = 2 ** 31 - 1;

/** ValidatePodSpecificAnnotations: a mirror pod is bound to a node; a deletion cost is an int32. */
function validatePodSpecificAnnotations(annotations: unknown, spec: PodSpec, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const a = isObj(annotations) ? annotations : {};
  if (MIRROR_POD_ANNOTATION_KEY in a && str(spec.nodeName) === "") {
    errs.push(invalid(p.key(MIRROR_POD_ANNOTATION_KEY), str(a[MIRROR_POD_ANNOTATION_KEY]), "must set spec.nodeName if mirror pod annotation is set"));
  }
  if (!opts.allowInvalidPodDeletionCost && POD_DELETION_COST in a && !isInt32Text(str(a[POD_DELETION_COST]))) {
    errs.push(invalid(p.key(POD_DELETION_COST), str(a[POD_DELETION_COST]), "must be a 32bit integer"));
  }
  return errs;
}

/** GetDeletionCostFromPodAnnotations: a "-" or a digit first (no "+", no leading zero), then strconv.ParseInt(v, 10, 32). */
function isInt32Text(v: string): boolean {
  if (!/^(-[0-9]+|0|[1-9][0-9]*)$/.test(v)) return false;
  const n = Number(v);
  return Number.isInteger(n) && n >= -(2 ** 31) && n <= MAX_INT32;
}

/** validatePodMetadataAndSpec */
function validatePodMetadataAndSpec(pod: Pod, opts: PodValidationOptions): FieldError[] {
  const metaPath = FieldPath.of("metadata");
  const specPath = FieldPath.of("spec");
  const errs = [
    ...validateObjectMeta(pod.metadata, nameIsDNSSubdomain, metaPath),
    ...validatePodSpecificAnnotations(pod.metadata.annotations, pod.spec, metaPath.child("annotations"), opts),
    ...validatePodSpec(pod.spec, specPath, opts),
  ];
  (pod.spec.containers ?? []).forEach((c, i) => errs.push(...validateContainerOnlyForPod(c, specPath.child("containers").index(i))));
  (pod.spec.initContainers ?? []).forEach((c, i) => errs.push(...validateContainerOnlyForPod(c, specPath.child("initContainers").index(i))));
  return errs;
}

/** ValidatePodCreate: the whole pod, and no ephemeral containers yet. */
export function ValidatePodCreate(pod: Pod, opts: PodValidationOptions): FieldError[] {
  const errs = validatePodMetadataAndSpec(pod, opts);
  const specPath = FieldPath.of("spec");
  if ((pod.spec.ephemeralContainers ?? []).length > 0) {
    errs.push(forbidden(specPath.child("ephemeralContainers"), "cannot be set on create"));
  }
  if (str(pod.spec.nodeName) !== "" && list(get(pod.spec, "schedulingGates")).length !== 0) {
    errs.push(forbidden(specPath.child("nodeName"), "cannot be set until all schedulingGates have been cleared"));
  }
  return errs;
}

/** ValidatePodSpecificAnnotationUpdates: the mirror and AppArmor annotations may not change. */
function validateAnnotationUpdates(next: Pod, old: Pod, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const newA = new Map(stringMap(next.metadata.annotations));
  const oldA = new Map(stringMap(old.metadata.annotations));
  for (const [k, v] of oldA) {
    if (newA.get(k) === v) continue;
    if (k.startsWith(APPARMOR_PREFIX)) errs.push(forbidden(p.key(k), "may not remove or update AppArmor annotations"));
    if (k === MIRROR_POD_ANNOTATION_KEY) errs.push(forbidden(p.key(k), "may not remove or update mirror pod annotation"));
  }
  for (const k of newA.keys()) {
    if (oldA.has(k)) continue;
    if (k.startsWith(APPARMOR_PREFIX)) errs.push(forbidden(p.key(k), "may not add AppArmor annotations"));
    if (k === MIRROR_POD_ANNOTATION_KEY) errs.push(forbidden(p.key(k), "may not add mirror pod annotation"));
  }
  return [...errs, ...validatePodSpecificAnnotations(next.metadata.annotations, next.spec, p, opts)];
}

/** ValidateContainerUpdates: as many containers as before, each with an image. */
function validateContainerUpdates(next: readonly Container[], old: readonly Container[], p: FieldPath): { errs: FieldError[]; stop: boolean } {
  if (next.length !== old.length) return { errs: [forbidden(p, "pod updates may not add or remove containers")], stop: true };
  const errs: FieldError[] = [];
  next.forEach((c, i) => {
    if (str(c.image).length === 0) errs.push(required(p.index(i).child("image"), ""));
    errs.push(...validateContainerOnlyForPod(c, p.index(i)));
  });
  return { errs, stop: false };
}

const UPDATABLE_POD_SPEC_FIELDS = [
  "`spec.containers[*].image`",
  "`spec.initContainers[*].image`",
  "`spec.activeDeadlineSeconds`",
  "`spec.tolerations` (only additions to existing tolerations)",
  "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
];

/** ValidatePodUpdate: only images, a shorter deadline, added tolerations and removed scheduling gates. */
export function ValidatePodUpdate(next: Pod, old: Pod, opts: PodValidationOptions): FieldError[] {
  const metaPath = FieldPath.of("metadata");
  const specPath = FieldPath.of("spec");
  const errs = [
    ...validateObjectMetaUpdate(next.metadata, old.metadata, metaPath),
    ...validatePodMetadataAndSpec(next, opts),
    ...validateAnnotationUpdates(next, old, metaPath.child("annotations"), opts),
  ];
  for (const kind of ["containers", "initContainers"] as const) {
    const r = validateContainerUpdates(next.spec[kind] ?? [], old.spec[kind] ?? [], specPath.child(kind));
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const deadline = intPtr(next.spec.activeDeadlineSeconds);
  const oldDeadline = intPtr(old.spec.activeDeadlineSeconds);
  const deadlinePath = specPath.child("activeDeadlineSeconds");
  if (deadline !== null) {
    if (deadline < 0 || deadline > MAX_INT32) return [...errs, invalid(deadlinePath, deadline, inclusiveRangeError(0, MAX_INT32))];
    if (oldDeadline !== null && oldDeadline < deadline) return [...errs, invalid(deadlinePath, deadline, "must be less than or equal to previous value")];
  } else if (oldDeadline !== null) {
    errs.push(invalid(deadlinePath, null, "must not update from a positive integer to nil value"));
  }
  errs.push(...validateOnlyAddedTolerations(get(next.spec, "tolerations"), get(old.spec, "tolerations"), specPath.child("tolerations")));
  errs.push(...validateOnlyDeletedSchedulingGates(get(next.spec, "schedulingGates"), get(old.spec, "schedulingGates"), specPath.child("schedulingGates")));
  const changed = changedSpecFields(mungedSpec(next.spec, old.spec), old.spec);
  if (changed.length > 0) {
    const detail = `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(",")}\n${changed.join("\n")}`;
    errs.push(forbidden(specPath, detail));
  }
  return errs;
}

/** validateOnlyAddedTolerations: every old toleration still there (its tolerationSeconds may change). */
function validateOnlyAddedTolerations(next: unknown, old: unknown, p: FieldPath): FieldError[] {
  const newList = list(next);
  for (const o of list(old)) {
    const found = newList.some((n) => semanticJSON({ ...(o as object), tolerationSeconds: get(n, "tolerationSeconds") }) === semanticJSON(n));
    if (!found) return [forbidden(p, "existing toleration can not be modified except its tolerationSeconds")];
  }
  return validateTolerations(next, p);
}

/** validateOnlyDeletedSchedulingGates */
function validateOnlyDeletedSchedulingGates(next: unknown, old: unknown, p: FieldPath): FieldError[] {
  const oldNames = new Set(list(old).map((g) => str(get(g, "name"))));
  const errs: FieldError[] = [];
  list(next).forEach((g, i) => {
    const name = str(get(g, "name"));
    if (!oldNames.has(name)) errs.push(forbidden(p.index(i).child("name"), `only deletion is allowed, but found new scheduling gate '${name}'`));
  });
  return errs;
}

/** The new spec with every field an update may change set back to the old value. */
function mungedSpec(next: PodSpec, old: PodSpec): PodSpec {
  const withOldImages = (cs: readonly Container[] | undefined, olds: readonly Container[] | undefined) =>
    cs?.map((c, i) => ({ ...c, image: olds?.[i]?.image }));
  const munged: PodSpec = {
    ...next,
    containers: withOldImages(next.containers, old.containers) ?? [],
    initContainers: withOldImages(next.initContainers, old.initContainers),
    activeDeadlineSeconds: old.activeDeadlineSeconds,
    schedulingGates: get(old, "schedulingGates"),
    tolerations: old.tolerations,
  };
  const oldGrace = intPtr(old.terminationGracePeriodSeconds);
  if (oldGrace !== null && oldGrace < 0 && intPtr(munged.terminationGracePeriodSeconds) === 1) munged.terminationGracePeriodSeconds = oldGrace;
  return munged;
}

/** The top-level spec fields that differ, apiequality.Semantic-style: empty equals absent, quantities by value. */
function changedSpecFields(next: PodSpec, old: PodSpec): string[] {
  const keys = [...new Set([...Object.keys(next), ...Object.keys(old)])].sort(byCodeUnit);
  const lines: string[] = [];
  for (const k of keys) {
    const a = semanticJSON(get(old, k));
    const b = semanticJSON(get(next, k));
    if (a !== b) lines.push(`- ${k}: ${a}`, `+ ${k}: ${b}`);
  }
  return lines;
}

/**
 * JSON where Go's zero values vanish (null, "", false, empty lists and maps, a hostPort of 0) and
 * resource quantities are canonical. Simplification: pointer fields whose zero is not nil
 * (*bool, *int64) are treated like plain ones when false; integers keep their 0, since the
 * pod's integer pointers (grace periods, deadlines) must tell 0 from unset.
 */
function semanticJSON(v: unknown): string {
  return canonicalJSON(normalize(v, ""));
}

function normalize(v: unknown, key: string): unknown {
  if (v === null || v === undefined || v === "" || v === false || (key === "hostPort" && v === 0)) return undefined;
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((x) => normalize(x, "") ?? null);
  if (isObj(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const n = key === "limits" || key === "requests" ? canonicalQuantity(x) : normalize(x, k);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}

function canonicalQuantity(x: unknown): unknown {
  const r = parseQuantity(String(x));
  return r.ok ? quantityString({ ...r.q, original: null }) : x;
}
