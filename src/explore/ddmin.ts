// Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing Input",
// 2002): find a small subset of items that still makes the test fail. `test(subset)` returns the
// items of the run it accepted (possibly fewer than offered: a replay may drop later deviations),
// or null. `stop()` ends the search early (a budget), keeping the best subset found so far.
export function ddmin<T>(items: readonly T[], test: (subset: T[]) => T[] | null, stop: () => boolean): T[] {
  let cur = [...items];
  let n = 2;
  while (cur.length >= 2 && !stop()) {
    const chunks = split(cur, Math.min(n, cur.length));
    const next = reduceToChunk(chunks, test, stop) ?? (chunks.length > 2 ? reduceToComplement(chunks, test, stop) : null);
    if (next !== null) {
      n = next.length < cur.length / 2 ? 2 : Math.max(n - 1, 2);
      cur = next;
      continue;
    }
    if (n >= cur.length) break;
    n = Math.min(n * 2, cur.length);
  }
  if (cur.length === 1 && !stop()) cur = test([]) ?? cur;
  return cur;
}

function reduceToChunk<T>(chunks: T[][], test: (s: T[]) => T[] | null, stop: () => boolean): T[] | null {
  for (const c of chunks) {
    if (stop()) return null;
    const r = test(c);
    if (r !== null) return r;
  }
  return null;
}

function reduceToComplement<T>(chunks: T[][], test: (s: T[]) => T[] | null, stop: () => boolean): T[] | null {
  for (let i = 0; i < chunks.length; i++) {
    if (stop()) return null;
    const r = test(chunks.flatMap((c, j) => (j === i ? [] : c)));
    if (r !== null) return r;
  }
  return null;
}

/** n nearly equal consecutive chunks (the first ones one longer). */
export function split<T>(items: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const size = Math.floor(items.length / n) + (i < items.length % n ? 1 : 0);
    out.push(items.slice(start, start + size));
    start += size;
  }
  return out.filter((c) => c.length > 0);
}
