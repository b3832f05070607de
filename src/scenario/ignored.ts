// Lists the manifest fields the simulator does not model: keys a pod manifest carries that the pod
// schema (src/k8s/pod.ts) does not name. They are accepted, never an error, and reported once.
import type { z } from "zod";
import { podSchema } from "../k8s/pod_schema.ts";
import { defOf, unwrap } from "./introspect.ts";
import { isObj, list } from "./podindex.ts";

export interface IgnoredField {
  /** The field in manifest terms, with list indexes elided: `spec.containers[].securityContext`. */
  field: string;
  /** Where it first occurs, from the scenario root: `["pods", 0, "manifest", "spec", ...]`. */
  path: PropertyKey[];
}

/** The apiserver discards these on create, though the pod schema reads them (status) for other uses. */
const DISCARDED_ON_CREATE = ["status"];

export function ignoredManifestFields(rawPods: unknown): IgnoredField[] {
  const found = new Map<string, IgnoredField>();
  list(rawPods).forEach((entry, i) => {
    if (!isObj(entry) || !isObj(entry.manifest)) return;
    const base: PropertyKey[] = ["pods", i, "manifest"];
    for (const key of DISCARDED_ON_CREATE) {
      if (entry.manifest[key] !== undefined && !found.has(key)) found.set(key, { field: key, path: [...base, key] });
    }
    walk(entry.manifest, podSchema, "", base, found, 0);
  });
  return [...found.values()].sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
}

function walk(value: unknown, schema: z.ZodType, field: string, path: PropertyKey[], out: Map<string, IgnoredField>, depth: number): void {
  // The YAML reader already refused anything deeper than this.
  if (depth > 64) return;
  const def = defOf(unwrap(schema));
  if (def.type === "object" && def.shape && isObj(value)) {
    for (const [key, child] of Object.entries(value)) {
      const name = field === "" ? key : `${field}.${key}`;
      const childSchema = def.shape[key];
      if (childSchema === undefined) {
        if (!out.has(name)) out.set(name, { field: name, path: [...path, key] });
      } else if (!DISCARDED_ON_CREATE.includes(name)) {
        walk(child, childSchema, name, [...path, key], out, depth + 1);
      }
    }
  } else if (def.type === "array" && def.element && Array.isArray(value)) {
    value.forEach((item, i) => walk(item, def.element!, `${field}[]`, [...path, i], out, depth + 1));
  }
}
