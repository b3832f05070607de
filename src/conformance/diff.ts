// Readable field-by-field comparison of an expected vector value with what the simulator computed.
//
// Per the oracle README, null (a Go nil slice) and [] compare equal, since the simulator's callers
// never tell them apart; everything else is compared structurally.

/** One line per difference, each naming the field path; empty when equal. */
export function diffValues(expected: unknown, actual: unknown, path = ""): string[] {
  if (equalish(expected, actual)) return [];
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    return keys.flatMap((k) => diffValues(expected[k], actual[k], path === "" ? k : `${path}.${k}`));
  }
  return [`${path || "(value)"}: expected ${show(expected)}, got ${show(actual)}`];
}

/** Structural equality with null ≡ [] and undefined ≡ null. */
export function equalish(a: unknown, b: unknown): boolean {
  const na = normalizeEmpty(a);
  const nb = normalizeEmpty(b);
  if (na === nb) return true;
  if (Array.isArray(na) && Array.isArray(nb)) {
    return na.length === nb.length && na.every((v, i) => equalish(v, nb[i]));
  }
  if (isPlainObject(na) && isPlainObject(nb)) {
    const keys = new Set([...Object.keys(na), ...Object.keys(nb)]);
    return [...keys].every((k) => equalish(na[k], nb[k]));
  }
  return false;
}

/** A compact one-line rendering of a value for diff lines. */
export function show(value: unknown): string {
  if (value === undefined) return "(absent)";
  return JSON.stringify(value);
}

function normalizeEmpty(v: unknown): unknown {
  if (v === undefined || (Array.isArray(v) && v.length === 0)) return null;
  return v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
