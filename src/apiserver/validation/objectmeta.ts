// Models staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go, apis/meta/v1/validation
// (ValidateLabels) and the finalizer checks pkg/apis/core/validation adds (ValidateObjectMeta,
// ValidateObjectMetaUpdate, validateKubeFinalizerName).
//
// Simplifications: generateName is not modelled (scenario pods always have a name), nor are
// managedFields; maps are visited in sorted key order where Go's order is random.
import type { ObjectMeta } from "../../k8s/pod.ts";
import { FieldPath, forbidden, invalid, required, tooLong, type FieldError } from "./field.ts";
import { byteLength, isQualifiedName, isValidLabelValue, nameIsDNSLabel } from "./names.ts";
import { get, intPtr, isObj, list, str, stringMap } from "./raw.ts";

export const FIELD_IMMUTABLE_ERROR_MSG = "field is immutable";
export const IS_NEGATIVE_ERROR_MSG = "must be greater than or equal to 0";
/** TotalAnnotationSizeLimitB: 256 kB of keys and values together. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10);
const STANDARD_FINALIZERS = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

/** ValidateNonnegativeField */
export function validateNonnegativeField(value: number, p: FieldPath): FieldError[] {
  return value < 0 ? [invalid(p, value, IS_NEGATIVE_ERROR_MSG)] : [];
}

/** v1validation.ValidateLabels: every key a qualified name, every value a label value. */
export function validateLabels(labels: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of stringMap(labels)) {
    errs.push(...validateLabelName(k, p));
    for (const msg of isValidLabelValue(v)) errs.push(invalid(p, v, msg));
  }
  return errs;
}

/** ValidateLabelName */
export function validateLabelName(name: string, p: FieldPath): FieldError[] {
  return isQualifiedName(name).map((msg) => invalid(p, name, msg));
}

/** ValidateAnnotations: keys are qualified names in any case; 256 kB in all. */
export function validateAnnotations(annotations: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let totalSize = 0;
  for (const [k, v] of stringMap(annotations)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(p, k, msg));
    totalSize += byteLength(k) + byteLength(v);
  }
  if (totalSize > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(tooLong(p, TOTAL_ANNOTATION_SIZE_LIMIT_B));
  return errs;
}

/** schema.FromAPIVersionAndKind: "v1" is the core group; more than one "/" parses as nothing. */
function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split("/");
  if (apiVersion === "" || apiVersion === "/") return { group: "", version: "" };
  if (parts.length === 1) return { group: "", version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { group: "", version: "" };
}

function validateOwnerReference(ref: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(get(ref, "apiVersion"));
  const kind = str(get(ref, "kind"));
  const gv = groupVersionOf(apiVersion);
  if (gv.version === "") errs.push(invalid(p.child("apiVersion"), apiVersion, "version must not be empty"));
  if (kind === "") errs.push(invalid(p.child("kind"), kind, "must not be empty"));
  if (str(get(ref, "name")) === "") errs.push(invalid(p.child("name"), "", "must not be empty"));
  if (str(get(ref, "uid")) === "") errs.push(invalid(p.child("uid"), "", "must not be empty"));
  if (gv.group === "" && gv.version === "v1" && kind === "Event") {
    const shown = `v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:${JSON.stringify(str(get(ref, "name")))}}`;
    errs.push(invalid(p, { goSyntax: shown }, "/v1, Kind=Event is disallowed from being an owner"));
  }
  return errs;
}

/** ValidateOwnerReferences: each reference complete, and at most one controller. */
export function validateOwnerReferences(refs: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = "";
  for (const ref of list(refs)) {
    errs.push(...validateOwnerReference(ref, p));
    if (get(ref, "controller") !== true) continue;
    const current = `${str(get(ref, "kind"))}/${str(get(ref, "name"))}`;
    if (firstController === "") firstController = current;
    else {
      const detail = `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`;
      errs.push(invalid(p, { goSyntax: "[]v1.OwnerReference{...}" }, detail));
    }
  }
  return errs;
}

const goStrings = (xs: readonly string[]) => ({ goSyntax: `[]string{${xs.map((x) => JSON.stringify(x)).join(", ")}}` });

/** ValidateFinalizers: each name a qualified name, and not both orphan and foregroundDeletion. */
export function validateFinalizers(finalizers: readonly string[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers) errs.push(...isQualifiedName(f).map((msg) => invalid(p, f, msg)));
  if (finalizers.includes("orphan") && finalizers.includes("foregroundDeletion")) {
    errs.push(invalid(p, goStrings(finalizers), "finalizer orphan and foregroundDeletion cannot be both set"));
  }
  return errs;
}

/** validateKubeFinalizerName: a name without "/" must be a standard finalizer. */
function validateKubeFinalizerName(name: string, p: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalid(p, name, msg));
  if (!name.includes("/") && !STANDARD_FINALIZERS.has(name)) {
    errs.push(invalid(p, name, "name is neither a standard finalizer name nor is it fully qualified"));
  }
  return errs;
}

const finalizersOf = (meta: ObjectMeta): string[] => list(meta.finalizers).map(str);

/** The checks ValidateObjectMetaAccessor and its update twin share (validateObjectMetaAccessorWithOptsCommon). */
function validateMetaCommon(meta: ObjectMeta, p: FieldPath): FieldError[] {
  return [
    ...validateNonnegativeField(meta.generation ?? 0, p.child("generation")),
    ...validateLabels(meta.labels, p.child("labels")),
    ...validateAnnotations(meta.annotations, p.child("annotations")),
    ...validateOwnerReferences(meta.ownerReferences, p.child("ownerReferences")),
    ...validateFinalizers(finalizersOf(meta), p.child("finalizers")),
  ];
}

/** ValidateObjectMeta for a namespaced object: name (by nameFn), namespace, then the common checks. */
export function validateObjectMeta(meta: ObjectMeta, nameFn: (name: string) => string[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(meta.name);
  if (name.length === 0) errs.push(required(p.child("name"), "name or generateName is required"));
  else errs.push(...nameFn(name).map((msg) => invalid(p.child("name"), name, msg)));
  const namespace = str(meta.namespace);
  if (namespace.length === 0) errs.push(required(p.child("namespace"), ""));
  else errs.push(...nameIsDNSLabel(namespace).map((msg) => invalid(p.child("namespace"), namespace, msg)));
  errs.push(...validateMetaCommon(meta, p));
  finalizersOf(meta).forEach((f, i) => errs.push(...validateKubeFinalizerName(f, p.child("finalizers").index(i))));
  return errs;
}

/** ValidateObjectMetaUpdate: the identity and deletion fields are immutable; a resourceVersion is required. */
export function validateObjectMetaUpdate(next: ObjectMeta, old: ObjectMeta, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp) {
    const added = finalizersOf(next).filter((f) => !finalizersOf(old).includes(f)).sort();
    if (added.length > 0) {
      errs.push(forbidden(p.child("finalizers"), `no new finalizers can be added if the object is being deleted, found new finalizers ${goStrings([...new Set(added)]).goSyntax}`));
    }
  }
  const rv = str(next.resourceVersion);
  if (rv.length === 0) errs.push(invalid(p.child("resourceVersion"), rv, "must be specified for an update"));
  if ((next.generation ?? 0) < (old.generation ?? 0)) errs.push(invalid(p.child("generation"), next.generation ?? 0, "must not be decremented"));
  const immutable = (field: string, a: unknown, b: unknown, shown: () => string | number | null | { stringer: string }) => {
    if (!sameValue(a, b)) errs.push(invalid(p.child(field), shown(), FIELD_IMMUTABLE_ERROR_MSG));
  };
  immutable("name", next.name, old.name, () => str(next.name));
  immutable("namespace", next.namespace ?? "", old.namespace ?? "", () => str(next.namespace));
  immutable("uid", next.uid ?? "", old.uid ?? "", () => str(next.uid));
  immutable("creationTimestamp", next.creationTimestamp ?? null, old.creationTimestamp ?? null, () => timeValue(next.creationTimestamp));
  immutable("deletionTimestamp", next.deletionTimestamp ?? null, old.deletionTimestamp ?? null, () => timeValue(next.deletionTimestamp));
  immutable("deletionGracePeriodSeconds", intPtr(next.deletionGracePeriodSeconds), intPtr(old.deletionGracePeriodSeconds),
    () => intPtr(next.deletionGracePeriodSeconds));
  errs.push(...validateLabels(next.labels, p.child("labels")));
  errs.push(...validateAnnotations(next.annotations, p.child("annotations")));
  errs.push(...validateOwnerReferences(next.ownerReferences, p.child("ownerReferences")));
  finalizersOf(next).forEach((f, i) => errs.push(...validateKubeFinalizerName(f, p.child("finalizers").index(i))));
  return errs;
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (isObj(a) && isObj(b) && JSON.stringify(a) === JSON.stringify(b));
}

/** A metav1.Time as its String() prints it ("2024-05-01 10:00:00 +0000 UTC"), or null. */
function timeValue(t: string | null | undefined): { stringer: string } | null {
  if (!t) return null;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(t);
  if (!m) return { stringer: t };
  const frac = (m[3] ?? "").replace(/0+$/, "");
  return { stringer: `${m[1]} ${m[2]}${frac === "." ? "" : frac} +0000 UTC` };
}
