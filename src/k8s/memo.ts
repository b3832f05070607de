// Pure functions of immutable API objects, computed once per object. Objects handed around the
// simulator (API pods, cached statuses, runtime views) are frozen, so what is derived from one
// never changes; an unfrozen argument could change, so it is recomputed every time.

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
