// Copy-on-write edits of the frozen API objects the store holds (no upstream file: Go copies a
// struct and sets its fields; here the stored objects are frozen JSON values).
//
// An edit makes the next object exactly as an immer `produce` with the same assignments would: it
// shares every unchanged subtree with the object it replaces, keeps the keys in their order (a new
// key goes last), gives back the very same object when no assignment changed anything, and
// deep-freezes what is new. It does so without drafts or proxies: the store's hot path (every
// create, status patch, delete and resourceVersion bump) goes through here. immer stays where a
// model's update reads like upstream's code (the status manager, the config merge).

/** One object's copy-on-write edit. Assignments follow immer's rules (see set and delete). */
export class Edit<T extends object> {
  private copy: Record<string, unknown> | null = null;

  constructor(readonly base: T) {}

  /** The value as edited so far. */
  get<K extends keyof T & string>(key: K): T[K] {
    return ((this.copy ?? this.base) as T)[key];
  }

  /**
   * obj[key] = value. Like immer, a value identical to the current one (Object.is) changes
   * nothing, except that undefined set on an absent key adds the key; and -0 set on 0 (=== but
   * not Object.is) copies the object but keeps the 0.
   */
  set<K extends keyof T & string>(key: K, value: T[K]): this {
    const current = (this.copy ?? this.base) as Record<string, unknown>;
    if (Object.is(current[key], value) && (value !== undefined || Object.hasOwn(current, key))) return this;
    const copy = this.writable();
    if (copy[key] !== value || (value === undefined && !Object.hasOwn(copy, key))) copy[key] = value;
    return this;
  }

  /** delete obj[key]: a change only when the key is there. */
  delete(key: keyof T & string): this {
    if (!Object.hasOwn(this.copy ?? this.base, key)) return this;
    delete this.writable()[key];
    return this;
  }

  /** Whether any assignment changed the object. */
  get changed(): boolean {
    return this.copy !== null;
  }

  /** The edited object, deep-frozen: the base itself when nothing changed. */
  result(): T {
    return deepFreeze((this.copy ?? this.base) as T);
  }

  private writable(): Record<string, unknown> {
    this.copy ??= { ...(this.base as Record<string, unknown>) };
    return this.copy;
  }
}

/**
 * Freezes a JSON value and everything reachable from it, stopping at objects already frozen (as
 * immer's freeze(value, true) does: a frozen object is taken to be frozen all the way down).
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  } else {
    const o = value as Record<string, unknown>;
    for (const k in o) if (Object.hasOwn(o, k)) deepFreeze(o[k]);
  }
  return value;
}
