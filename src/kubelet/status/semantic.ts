// Models k8s.io/apimachinery/pkg/api/equality (Semantic.DeepEqual) for v1.PodStatus values as JSON-shaped objects.
//
// Go compares typed structs; here a status is a plain object where an absent field, null and the
// Go zero value must all read alike. The forked reflect.DeepEqual apimachinery uses also treats a
// nil slice or map as equal to an empty one. What cannot be read off the value is which fields
// are pointers in Go: a nil pointer differs from a pointer to a zero value. In v1.PodStatus those
// are `started` (*bool) and the container state arms (`waiting`, `running`, `terminated`), whose
// presence is the state itself. Everything else is a value, a slice or a map.
import { canonicalJSON } from "../container/helpers.ts";

/** Scalar fields that are pointers in Go: false/0 there is a set value, not an unset one. */
const POINTER_SCALARS: ReadonlySet<string> = new Set(["started"]);
/** Struct fields that are pointers in Go: an empty object there is a set value. */
const POINTER_STRUCTS: ReadonlySet<string> = new Set(["waiting", "running", "terminated"]);

/** Semantic.DeepEqual(a, b) for statuses, conditions and container statuses. */
export function semanticDeepEqual(a: unknown, b: unknown): boolean {
  return canonicalJSON(goZero(a, "") ?? null) === canonicalJSON(goZero(b, "") ?? null);
}

/** Rewrites a value so that everything Go would call "zero" or "nil" becomes undefined. */
function goZero(value: unknown, key: string): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    return value.map((v) => goZero(v, "") ?? null);
  }
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as object).sort()) {
      const v = goZero((value as Record<string, unknown>)[k], k);
      if (v !== undefined) out[k] = v;
    }
    if (Object.keys(out).length === 0 && !POINTER_STRUCTS.has(key)) return undefined;
    return out;
  }
  if (POINTER_SCALARS.has(key)) return value;
  if (value === "" || value === 0 || value === false) return undefined;
  return value;
}
