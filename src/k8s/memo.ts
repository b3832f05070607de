// Pure functions computed once per argument. Objects handed around the simulator (API pods, cached
// statuses, runtime views) are frozen, so what is derived from one never changes; an unfrozen
// argument could change, so it is recomputed every time. Functions of a string or number (a
// timestamp, a version literal) are kept in a bounded map instead.

/** f, remembered per frozen argument (a WeakMap: nothing outlives its object). */
export function perFrozenObject<K extends object, V>(f: (k: K) => V): (k: K) => V {
  const memo = new WeakMap<K, V>();
  return (k: K): V => {
    if (!Object.isFrozen(k)) return f(k);
    let v = memo.get(k);
    if (v === undefined) {
      v = f(k);
      memo.set(k, v);
    }
    return v;
  };
}

/**
 * f, remembered per primitive key in a map emptied when it holds maxEntries (memory stays bounded;
 * f is pure, so a value computed again equals the one dropped). A call that throws keeps nothing.
 */
export function perKey<K extends string | number, V>(f: (k: K) => V, maxEntries: number): (k: K) => V {
  return perKeyOf(f, (k) => k, maxEntries);
}

/**
 * f, remembered per keyOf(argument) as perKey does: for arguments that are not frozen but whose
 * value a key says in full (a pod's content). A null key: f is called, nothing kept.
 */
export function perKeyOf<A, K extends string | number, V>(f: (a: A) => V, keyOf: (a: A) => K | null, maxEntries: number): (a: A) => V {
  const memo = new Map<K, V>();
  return (a: A): V => {
    const k = keyOf(a);
    if (k === null) return f(a);
    let v = memo.get(k);
    if (v === undefined) {
      v = f(a);
      if (memo.size >= maxEntries) memo.clear();
      memo.set(k, v);
    }
    return v;
  };
}
