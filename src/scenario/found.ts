// Words for "what was found" in error messages, and "did you mean" suggestions.

/** Describes a parsed YAML value in a few words: `"abc"`, `the number 5`, `a list`, `a mapping`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null (an empty value)";
  if (typeof value === "string") return value.length > 40 ? `"${value.slice(0, 37)}..."` : JSON.stringify(value);
  if (typeof value === "number") return `the number ${value}`;
  if (typeof value === "boolean") return `the boolean ${value}`;
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (value instanceof Uint8Array) return "binary data";
  if (typeof value === "object") return Object.keys(value).length === 0 ? "an empty mapping" : "a mapping";
  return typeof value;
}

/** Edit distance where swapping two neighbours counts as one edit ("wbe" → "web"), as typos go. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, cur[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      cur.push(d);
    }
    rows.push(cur);
  }
  return rows[a.length]![b.length]!;
}

/** The closest candidate when it is close enough to be a likely typo, else undefined. */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  if (input.length > 100) return undefined;
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = c.toLowerCase() === lower ? 0 : editDistance(lower, c.toLowerCase());
    // Ties go to the earlier candidate, so suggestions do not depend on anything but the lists.
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  const limit = Math.max(1, Math.min(3, Math.floor(input.length / 3)));
  return bestDistance <= limit ? best : undefined;
}

/** `; did you mean "x"?` or "" */
export function suggestion(input: string, candidates: readonly string[]): string {
  const s = didYouMean(input, candidates);
  return s === undefined ? "" : `; did you mean "${s}"?`;
}
