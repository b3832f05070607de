// apimachinery's Semantic.DeepEqual as the oracle2 API-status vectors need it: a value with every
// Go zero value dropped, so that "", 0, false, nil and empty lists read as absent, while fields that
// are pointers in Go (a set pointer to an empty struct or false is not nil) are kept.

/** Fields of v1 status types that are pointers in Go. */
const POINTER_FIELDS: ReadonlySet<string> = new Set(["started", "waiting", "running", "terminated", "resources", "user", "allocatedResourcesStatus"]);

/** The value as Go's zero-aware comparison sees it: zero fields dropped, recursively; undefined for zero. */
export function goValue(value: unknown, key = ""): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    return value.map((v) => goValue(v) ?? null);
  }
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const g = goValue(v, k);
      if (g !== undefined) out[k] = g;
      else if (POINTER_FIELDS.has(k) && v !== null && v !== undefined && typeof v === "object") out[k] = {};
    }
    if (Object.keys(out).length === 0 && !POINTER_FIELDS.has(key)) return undefined;
    return out;
  }
  if (POINTER_FIELDS.has(key)) return value;
  return value === "" || value === 0 || value === false ? undefined : value;
}
