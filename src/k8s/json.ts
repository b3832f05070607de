// JSON-shaped values compared as their JSON encodings would be (no upstream file: Go compares typed
// structs with reflect.DeepEqual; here API objects are plain, frozen JSON values).

/** JSON with object keys in code-unit order, so equal values always encode alike. */
export function canonicalJSON(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJSON(v))).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(",")}}`;
}

/**
 * canonicalJSON(a) === canonicalJSON(b), without building either string: identical references are
 * equal at once (frozen API objects share every unchanged subtree), object keys whose value is
 * undefined count as absent, undefined in an array or at the top reads as null, as in JSON.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const objectA = a !== null && typeof a === "object";
  const objectB = b !== null && typeof b === "object";
  if (!objectA || !objectB) return !objectA && !objectB && jsonScalar(a) === jsonScalar(b);
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) return arraysEqual(a as unknown[], b as unknown[]);
  return objectsEqual(a as Record<string, unknown>, b as Record<string, unknown>);
}

function arraysEqual(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
  return true;
}

function objectsEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let definedA = 0;
  for (const k in a) {
    if (!Object.hasOwn(a, k) || a[k] === undefined) continue;
    definedA++;
    if (!Object.hasOwn(b, k) || b[k] === undefined || !jsonEqual(a[k], b[k])) return false;
  }
  let definedB = 0;
  for (const k in b) if (Object.hasOwn(b, k) && b[k] !== undefined) definedB++;
  return definedA === definedB;
}

/** What JSON.stringify makes of a scalar, as a comparable value: undefined, NaN and ±Infinity are null. */
function jsonScalar(v: unknown): unknown {
  if (v === undefined || v === null || typeof v === "function" || typeof v === "symbol") return null;
  if (typeof v === "number" && !Number.isFinite(v)) return null;
  return v;
}

/**
 * A deep copy of a JSON-shaped value (plain objects, arrays, scalars; keys whose value is undefined
 * are kept, as structuredClone keeps them). What structuredClone gives for such a value, at about a
 * seventh of its cost (structuredClone serializes): the models copy a pod status on every sync.
 * Unlike structuredClone it does not keep two references to one object as one: API objects are
 * trees, and no model relies on that.
 */
export function cloneJSON<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJSON(value[i] as unknown);
    return out as T;
  }
  // A spread copies the own keys in their order (V8 clones the shape in one step, where adding the
  // keys one by one walked a transition per key); then every object-valued field is copied in place.
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const k in out) {
    const v = out[k];
    if (v !== null && typeof v === "object") out[k] = cloneJSON(v);
  }
  return out as T;
}
