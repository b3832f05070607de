// Reading a pod the way Go's decoder fills a struct: a field that is absent is its zero value.
// The pod schema (src/k8s/pod.ts) types only what the simulator models; fields it does not model
// (volumes, volumeMounts, envFrom, tolerations, ...) are read here, defensively. A field of the
// wrong type is refused earlier, by decode.ts, as the apiserver's decoder refuses it.

export type Raw = Record<string, unknown>;

export const isObj = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

/** A field of an object that may carry more than its type says. */
export function get(obj: unknown, key: string): unknown {
  return isObj(obj) ? obj[key] : undefined;
}

/** A Go string field: "" when absent or not a string. */
export const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** A Go integer field: 0 when absent or not a number. */
export const int = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** A Go pointer to an integer: null when absent or null. */
export const intPtr = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** A Go slice: [] when absent. */
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A Go map of strings, in sorted key order (Go's map order is random; ours must not be). */
export function stringMap(v: unknown): Array<[string, string]> {
  if (!isObj(v)) return [];
  return Object.keys(v)
    .sort(byCodeUnit)
    .map((k) => [k, str(v[k])] as [string, string]);
}

/** A total order on strings by UTF-16 code units (never localeCompare in the model). */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
