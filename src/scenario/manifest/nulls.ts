// An explicit `null` read as the apiserver's JSON decoder reads it (encoding/json, as
// sigs.k8s.io/json runs it): a null field of an object leaves the field unset, whatever its type
// (map, list, pointer or scalar); a null item of a list is the item's zero value (an empty object,
// an empty string); a null value in a map is the value type's zero value (labels: "", a resource
// quantity: 0). Helm writes `resources: {}`, `limits: null`, `annotations: null`, `env: null` all
// the time, and a cluster takes them as unset, so the simulator does too.
import type { z } from "zod";
import { podSchema } from "../../k8s/pod_schema.ts";
import { defOf, unwrap } from "../introspect.ts";
import { isObj, type Raw } from "../podindex.ts";

/** The YAML reader refuses anything deeper; this bound only keeps the walk finite. */
const MAX_DEPTH = 64;

/** The zero value of an item or map value the schema describes: {} for a struct, "" for a string, "0" for a quantity. */
function zeroOf(schema: z.ZodType | undefined): unknown {
  if (schema === undefined) return null;
  const def = defOf(unwrap(schema));
  if (def.type === "object") return {};
  if (def.type === "string") return "";
  if (def.type === "union" && (def.options ?? []).some((o) => defOf(unwrap(o)).type === "string")) {
    // resource.Quantity (a string or a number) decodes null as zero.
    return (def.options ?? []).some((o) => defOf(unwrap(o)).type === "number") ? "0" : "";
  }
  if (def.type === "number") return 0;
  if (def.type === "boolean") return false;
  return null;
}

/**
 * `value` with its nulls decoded as above, as a new value (the input is never changed). The schema
 * says which values are structs, maps and lists; where it says nothing (a field the simulator does
 * not model), null fields are dropped and everything else is kept as written.
 */
export function decodeNulls(value: unknown, schema: z.ZodType | undefined, depth = 0): unknown {
  if (depth > MAX_DEPTH) return value;
  const def = schema === undefined ? undefined : defOf(unwrap(schema));
  if (Array.isArray(value)) {
    const element = def?.type === "array" ? def.element : undefined;
    return value.map((item) => (item === null ? zeroOf(element) ?? null : decodeNulls(item, element, depth + 1)));
  }
  if (!isObj(value)) return value;
  const out: Raw = {};
  if (def?.type === "record") {
    for (const [k, v] of Object.entries(value)) out[k] = v === null ? zeroOf(def.valueType) ?? null : decodeNulls(v, def.valueType, depth + 1);
    return out;
  }
  const shape = def?.type === "object" ? def.shape : undefined;
  for (const [k, v] of Object.entries(value)) {
    if (v === null) continue;
    out[k] = decodeNulls(v, shape?.[k], depth + 1);
  }
  return out;
}

/** A Pod manifest with its nulls decoded against the pod schema. */
export function decodePodNulls(pod: Raw): Raw {
  return decodeNulls(pod, podSchema) as Raw;
}

/**
 * A workload with its nulls decoded: the pod template's metadata and spec against the pod schema's,
 * every other field as a struct field (a workload's fields outside the template are structs and
 * scalars; a map there is rare and nothing here reads its values).
 */
export function decodeWorkloadNulls(obj: Raw, templatePath: readonly string[]): Raw {
  const decoded = decodeNulls(obj, undefined) as Raw;
  const template = templatePath.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), obj);
  if (!isObj(template)) return decoded;
  const shape = defOf(unwrap(podSchema)).shape!;
  const fixed: Raw = { ...(decodeNulls(template, undefined) as Raw) };
  if (template.metadata !== undefined && template.metadata !== null) fixed.metadata = decodeNulls(template.metadata, shape.metadata);
  if (template.spec !== undefined && template.spec !== null) fixed.spec = decodeNulls(template.spec, shape.spec);
  return setAt(decoded, templatePath, fixed);
}

function setAt(obj: Raw, path: readonly string[], value: unknown): Raw {
  if (path.length === 0) return value as Raw;
  const [head, ...rest] = path;
  const child = isObj(obj[head!]) ? (obj[head!] as Raw) : {};
  return { ...obj, [head!]: rest.length === 0 ? value : setAt(child, rest, value) };
}
