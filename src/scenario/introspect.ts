// Reading the zod schema as data: the field names an object accepts, the schema under a path, the
// descriptions and defaults. Used for "did you mean", for ignored manifest fields, and for the
// reference page. Zod 4 keeps every schema's definition in `_zod.def`.
import { z } from "zod";
import type { FieldMeta } from "./schema/common.ts";

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: readonly z.ZodType[];
  getter?: () => z.ZodType;
  defaultValue?: unknown;
  entries?: Record<string, string | number>;
  values?: readonly unknown[];
};

export const defOf = (schema: z.ZodType): Def => schema._zod.def as unknown as Def;

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "catch", "readonly", "nonoptional"]);

/**
 * Strips wrappers down to the schema that decides the value's shape. A pipe stands for its input
 * side, except a preprocess (transform first), which stands for the schema it feeds.
 */
export function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 32; i++) {
    const def = defOf(s);
    if (WRAPPERS.has(def.type) && def.innerType) s = def.innerType;
    else if (def.type === "pipe" && def.in && def.out) s = defOf(def.in).type === "transform" ? def.out : def.in;
    else if (def.type === "lazy" && def.getter) s = def.getter();
    else return s;
  }
  return s;
}

/** The field names of an object schema (after unwrapping), or undefined for other schemas. */
export function objectKeys(schema: z.ZodType): string[] | undefined {
  const def = defOf(unwrap(schema));
  return def.type === "object" && def.shape ? Object.keys(def.shape) : undefined;
}

/** The schema of the value under `seg`, or undefined when the schema does not say. */
export function childSchema(schema: z.ZodType, seg: PropertyKey): z.ZodType | undefined {
  const s = unwrap(schema);
  const def = defOf(s);
  if (def.type === "object" && def.shape) return typeof seg === "string" ? def.shape[seg] : undefined;
  if (def.type === "array" && def.element) return typeof seg === "number" ? def.element : undefined;
  if (def.type === "record" && def.valueType) return typeof seg === "string" ? def.valueType : undefined;
  return undefined;
}

export function schemaAt(root: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let s: z.ZodType | undefined = root;
  for (const seg of path) {
    if (!s) return undefined;
    s = childSchema(s, seg);
  }
  return s;
}

/** The record's allowed keys when they are an enum (feature gates, CRI methods), else undefined. */
export function recordKeys(schema: z.ZodType): string[] | undefined {
  const def = defOf(unwrap(schema));
  if (def.type !== "record" || !def.keyType) return undefined;
  const keyDef = defOf(unwrap(def.keyType));
  return keyDef.type === "enum" && keyDef.entries ? Object.values(keyDef.entries).map(String) : undefined;
}

/** Merged meta of a schema and the wrappers around it; the outermost wins. */
export function metaOf(schema: z.ZodType): FieldMeta {
  const layers: z.ZodType[] = [];
  let s = schema;
  for (let i = 0; i < 32; i++) {
    layers.push(s);
    const def = defOf(s);
    if (WRAPPERS.has(def.type) && def.innerType) s = def.innerType;
    else if (def.type === "pipe" && def.in && def.out) s = defOf(def.in).type === "transform" ? def.out : def.in;
    else break;
  }
  const meta: FieldMeta = {};
  for (const layer of layers.reverse()) Object.assign(meta, z.globalRegistry.get(layer) ?? {});
  return meta;
}

/** The default a field takes when omitted, as the user would write it, or undefined. */
export function defaultOf(schema: z.ZodType): { value: unknown } | undefined {
  let s = schema;
  for (let i = 0; i < 32; i++) {
    const def = defOf(s);
    if (def.type === "default" || def.type === "prefault") return { value: def.defaultValue };
    if (!WRAPPERS.has(def.type) || !def.innerType) return undefined;
    s = def.innerType;
  }
  return undefined;
}

/** Whether the field may be omitted: an optional, default or prefault wrapper around it. */
export function isOptional(schema: z.ZodType): boolean {
  let s = schema;
  for (let i = 0; i < 32; i++) {
    const def = defOf(s);
    if (def.type === "optional" || def.type === "default" || def.type === "prefault") return true;
    if (!WRAPPERS.has(def.type) || !def.innerType) return false;
    s = def.innerType;
  }
  return false;
}
