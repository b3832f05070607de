// What the apiserver's decoder refuses before any validation runs (a 400, not a 422): a quantity
// that does not parse (resource.Quantity.UnmarshalJSON), a number too large for an int32 field,
// and a field of the wrong JSON type (encoding/json's UnmarshalTypeError).
//
// The pod schema (src/k8s/pod.ts) already checks the types of the fields it models; this checks
// the int32 ranges it leaves open and the fields it does not model but the validation reads.
// Simplification: wrong types in fields neither modelled nor validated are not reported.
import type { Pod } from "../../k8s/pod.ts";
import { parseQuantity } from "./quantity.ts";
import { byCodeUnit, get, isObj, list } from "./raw.ts";

export interface DecodeError {
  /** Where, as keys from the pod's root. */
  readonly path: readonly PropertyKey[];
  /** The decoder's message, as the apiserver returns it after `Pod in version "v1" cannot be handled as a Pod: `. */
  readonly message: string;
}

type GoType = "string" | "int32" | "int64" | "bool" | "object" | "list" | "map";

interface Field {
  readonly key: string;
  readonly type: GoType;
  /** For objects and list items: their fields, and the Go struct's name. */
  readonly struct?: string;
  readonly fields?: readonly Field[];
}

const f = (key: string, type: GoType, struct?: string, fields?: readonly Field[]): Field => ({ key, type, struct, fields });

const PROBE_INT32 = ["initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"].map((k) => f(k, "int32"));
const PORT_FIELDS = [f("containerPort", "int32"), f("hostPort", "int32")];
const HANDLER = [f("grpc", "object", "GRPCAction", [f("port", "int32")])];
const KEY_REF = [f("name", "string"), f("key", "string")];
const CONTAINER_FIELDS: readonly Field[] = [
  f("ports", "list", "ContainerPort", PORT_FIELDS),
  ...["livenessProbe", "readinessProbe", "startupProbe"].map((k) => f(k, "object", "Probe", [...PROBE_INT32, ...HANDLER])),
  f("volumeMounts", "list", "VolumeMount", [f("name", "string"), f("mountPath", "string"), f("subPath", "string"), f("subPathExpr", "string")]),
  f("envFrom", "list", "EnvFromSource", [f("prefix", "string"), f("configMapRef", "object", "ConfigMapEnvSource", [f("name", "string")]),
    f("secretRef", "object", "SecretEnvSource", [f("name", "string")])]),
  f("env", "list", "EnvVar", [f("valueFrom", "object", "EnvVarSource", [
    f("fieldRef", "object", "ObjectFieldSelector", [f("apiVersion", "string"), f("fieldPath", "string")]),
    f("resourceFieldRef", "object", "ResourceFieldSelector", [f("resource", "string")]),
    f("configMapKeyRef", "object", "ConfigMapKeySelector", KEY_REF),
    f("secretKeyRef", "object", "SecretKeySelector", KEY_REF),
  ])]),
  f("resizePolicy", "list", "ContainerResizePolicy", [f("resourceName", "string"), f("restartPolicy", "string")]),
];
const SPEC_FIELDS: readonly Field[] = [
  f("volumes", "list", "Volume", [f("name", "string"),
    f("hostPath", "object", "HostPathVolumeSource", [f("path", "string"), f("type", "string")]),
    f("secret", "object", "SecretVolumeSource", [f("secretName", "string")]),
    f("configMap", "object", "ConfigMapVolumeSource", [f("name", "string")]),
    f("persistentVolumeClaim", "object", "PersistentVolumeClaimVolumeSource", [f("claimName", "string")])]),
  ...["containers", "initContainers", "ephemeralContainers"].map((k) => f(k, "list", k === "ephemeralContainers" ? "EphemeralContainer" : "Container", CONTAINER_FIELDS)),
  f("nodeSelector", "map"),
  f("hostname", "string"), f("subdomain", "string"), f("runtimeClassName", "string"), f("preemptionPolicy", "string"),
  f("tolerations", "list", "Toleration", [f("key", "string"), f("operator", "string"), f("value", "string"), f("effect", "string"),
    f("tolerationSeconds", "int64")]),
  f("readinessGates", "list", "PodReadinessGate", [f("conditionType", "string")]),
  f("schedulingGates", "list", "PodSchedulingGate", [f("name", "string")]),
];

const MIN_INT32 = -(2 ** 31);
const MAX_INT32 = 2 ** 31 - 1;

function jsonKind(v: unknown): string {
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return "array";
  return typeof v === "string" ? "string" : "object";
}

const GO_TYPE_NAMES: Readonly<Record<GoType, string>> = {
  string: "string", int32: "int32", int64: "int64", bool: "bool", object: "", list: "", map: "map[string]string",
};

interface Walk {
  readonly errs: DecodeError[];
  /** The Go field path upstream's message names: struct fields without indexes, "spec.containers.ports". */
  readonly goPath: string;
  readonly path: readonly PropertyKey[];
  readonly struct: string;
}

/** UnmarshalTypeError: a number that does not fit is shown with its value, any other mismatch by kind. */
function typeError(w: Walk, field: Field, value: unknown, key: PropertyKey, goTypeName: string): void {
  const intField = field.type === "int32" || field.type === "int64";
  const shown = intField && typeof value === "number" ? `number ${value}` : jsonKind(value);
  w.errs.push({
    path: [...w.path, key],
    message: `json: cannot unmarshal ${shown} into Go struct field ${w.struct}.${w.goPath}.${field.key} of type ${goTypeName}`,
  });
}

function walkFields(obj: unknown, fields: readonly Field[], w: Walk): void {
  if (!isObj(obj)) return;
  for (const field of fields) {
    const v = obj[field.key];
    if (v === undefined || v === null) continue;
    checkField(v, field, w);
  }
}

function checkField(v: unknown, field: Field, w: Walk): void {
  const inner = (struct: string, path: readonly PropertyKey[]): Walk => ({ errs: w.errs, goPath: `${w.goPath}.${field.key}`, path, struct });
  switch (field.type) {
    case "string":
    case "bool":
      if (jsonKind(v) !== field.type) typeError(w, field, v, field.key, GO_TYPE_NAMES[field.type]);
      return;
    case "int32":
    case "int64":
      if (typeof v !== "number" || !Number.isInteger(v) || (field.type === "int32" && (v < MIN_INT32 || v > MAX_INT32))) {
        typeError(w, field, v, field.key, field.type);
      }
      return;
    case "map":
      if (!isObj(v)) typeError(w, field, v, field.key, GO_TYPE_NAMES.map);
      else for (const k of Object.keys(v).sort(byCodeUnit)) {
        if (typeof v[k] !== "string" && v[k] !== null) typeError(inner(w.struct, [...w.path, field.key]), f(k, "string"), v[k], k, "string");
      }
      return;
    case "object":
      if (!isObj(v)) typeError(w, field, v, field.key, `v1.${field.struct}`);
      else walkFields(v, field.fields ?? [], inner(field.struct!, [...w.path, field.key]));
      return;
    case "list":
      if (!Array.isArray(v)) typeError(w, field, v, field.key, `[]v1.${field.struct}`);
      else v.forEach((item, i) => {
        if (item !== null && !isObj(item)) typeError({ ...w, path: [...w.path, field.key] }, field, item, i, `v1.${field.struct}`);
        else walkFields(item, field.fields ?? [], inner(field.struct!, [...w.path, field.key, i]));
      });
  }
}

/** Quantities that would not parse, in the resource lists of every container and in emptyDir size limits. */
function quantityErrors(spec: unknown, errs: DecodeError[]): void {
  const check = (value: unknown, path: PropertyKey[]) => {
    if (value === undefined || value === null) return;
    const r = parseQuantity(typeof value === "number" ? String(value) : typeof value === "string" ? value : "");
    if (!r.ok) errs.push({ path, message: r.err });
  };
  for (const kind of ["containers", "initContainers", "ephemeralContainers"]) {
    list(get(spec, kind)).forEach((c, i) => {
      for (const which of ["limits", "requests"]) {
        const rl = get(get(c, "resources"), which);
        if (isObj(rl)) for (const name of Object.keys(rl).sort(byCodeUnit)) check(rl[name], ["spec", kind, i, "resources", which, name]);
      }
    });
  }
  list(get(spec, "volumes")).forEach((v, i) => check(get(get(v, "emptyDir"), "sizeLimit"), ["spec", "volumes", i, "emptyDir", "sizeLimit"]));
}

/** Everything the decoder would refuse in this pod, in document order of the fields checked. */
export function decodeErrors(pod: Pod): DecodeError[] {
  const errs: DecodeError[] = [];
  walkFields(pod.spec, SPEC_FIELDS, { errs, goPath: "spec", path: ["spec"], struct: "PodSpec" });
  quantityErrors(pod.spec, errs);
  return errs;
}
