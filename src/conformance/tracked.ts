// Which fields of a vector its runner read. A vector passes only when every field it carries was
// read by the runner (compared, or used as an input), or named by the runner as not modelled; a
// field nobody read makes the vector `partial`, never `ok` (docs/conformance.md).
//
// The runner gets the vector through a Proxy that notes the path of every leaf it reads (a
// primitive, null, or an empty list or map). zod would read everything, so parsing goes through
// parseTracked: it parses the value under the proxy and hands back the result wrapped at the same
// path. Prose fields (names, notes, provenance) are not expectations and need no reader.
import type { z } from "zod";

const META = Symbol("conformance.tracked");

interface Meta {
  target: object;
  path: string;
  tracker: Tracker;
}

/** Fields that describe a vector for people: never read, never missing (also any key ending in "Note"). */
export const PROSE_KEYS: ReadonlySet<string> = new Set([
  "name", "id", "source", "kind", "notes", "note", "helper", "compare", "variant", "description", "comment",
  "pinnedAt", "legacyV1_21", "label", "why", "todo",
]);

export function isProseKey(key: string): boolean {
  return PROSE_KEYS.has(key) || /[a-z]Notes?$/.test(key);
}

function childPath(path: string, key: string, isArray: boolean): string {
  if (isArray) return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}

function isContainer(v: unknown): v is object {
  return typeof v === "object" && v !== null;
}

function isEmptyContainer(v: object): boolean {
  return Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;
}

export class Tracker {
  readonly read = new Set<string>();
  private readonly proxies = new WeakMap<object, Map<string, object>>();

  /** The value, wrapped so that reads under it are noted against `path`. */
  wrap<T>(value: T, path = ""): T {
    if (!isContainer(value)) return value;
    let byPath = this.proxies.get(value);
    if (byPath === undefined) {
      byPath = new Map();
      this.proxies.set(value, byPath);
    }
    const cached = byPath.get(path);
    if (cached !== undefined) return cached as T;
    const tracker = this;
    const isArray = Array.isArray(value);
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        if (key === META) return { target, path, tracker } satisfies Meta;
        const v = Reflect.get(target, key, receiver);
        if (typeof key === "symbol" || !Object.prototype.hasOwnProperty.call(target, key)) return v;
        if (isArray && key === "length") return v;
        const p = childPath(path, key, isArray);
        if (isContainer(v) && !isEmptyContainer(v)) return tracker.wrap(v, p);
        tracker.read.add(p);
        return v;
      },
    });
    byPath.set(path, proxy);
    return proxy as T;
  }
}

function metaOf(value: unknown): Meta | undefined {
  return isContainer(value) ? ((value as Record<symbol, unknown>)[META] as Meta | undefined) : undefined;
}

/** Marks a whole tracked value read (the runner uses it whole) and returns a plain deep copy. */
export function consume<T>(value: T): T {
  const meta = metaOf(value);
  if (meta === undefined) return value;
  markAll(meta.target, meta.path, meta.tracker);
  return structuredClone(meta.target) as T;
}

function markAll(value: unknown, path: string, tracker: Tracker): void {
  if (!isContainer(value) || isEmptyContainer(value)) {
    tracker.read.add(path);
    return;
  }
  const isArray = Array.isArray(value);
  for (const [k, v] of Object.entries(value)) markAll(v, childPath(path, k, isArray), tracker);
}

/** safeParse of a possibly tracked value; the parsed result reports its reads at the same path. */
export function parseTracked<T>(schema: z.ZodType<T>, value: unknown): ReturnType<z.ZodType<T>["safeParse"]> {
  const meta = metaOf(value);
  const r = schema.safeParse(meta === undefined ? value : meta.target);
  if (meta === undefined || !r.success) return r;
  return { ...r, data: meta.tracker.wrap(r.data, meta.path) } as ReturnType<z.ZodType<T>["safeParse"]>;
}

/** The path a tracked value sits at ("" when it is not tracked). */
export function pathOf(value: unknown): string {
  return metaOf(value)?.path ?? "";
}

/** Every leaf path of a plain value, prose fields left out. */
export function leafPaths(value: unknown, path = "", out: string[] = []): string[] {
  if (!isContainer(value) || isEmptyContainer(value)) {
    out.push(path);
    return out;
  }
  const isArray = Array.isArray(value);
  for (const [k, v] of Object.entries(value)) {
    if (!isArray && isProseKey(k)) continue;
    leafPaths(v, childPath(path, k, isArray), out);
  }
  return out;
}

/** The leaves of `raw` the tracker never saw read, excluding those under `excused` paths. */
export function unreadLeaves(raw: unknown, tracker: Tracker, excused: readonly string[] = []): string[] {
  const under = (p: string, prefix: string) => p === prefix || p.startsWith(`${prefix}.`) || p.startsWith(`${prefix}[`);
  return leafPaths(raw).filter((p) => !tracker.read.has(p) && !excused.some((e) => under(p, e)));
}
