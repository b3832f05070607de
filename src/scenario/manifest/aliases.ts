// A workload's pod may be named by the workload: `create: nginx` for the pod Deployment nginx
// makes (nginx-5f77bd959c-bjdmd), since the generated name is not something to type. The
// scenario's references (timeline steps, expectations, faults) that name a workload and no pod
// are rewritten to the pod's "namespace/name" before the cross-checks and the schema see them.
import { isObj, list, str, type Raw } from "../podindex.ts";
import { ACTION_NAMES } from "../schema/timeline.ts";

/** Pod keys by the names that may stand for them: "name" and "ns/name" of each workload. */
export type Aliases = ReadonlyMap<string, string>;

export function aliasesOf(entries: ReadonlyArray<{ workload: { namespace: string; name: string } | null; podKey: string }>): Aliases {
  const podNames = new Set(entries.flatMap((e) => [e.podKey, e.podKey.slice(e.podKey.indexOf("/") + 1)]));
  const byName = new Map<string, string[]>();
  for (const e of entries) {
    if (e.workload === null) continue;
    for (const ref of [e.workload.name, `${e.workload.namespace}/${e.workload.name}`]) byName.set(ref, [...(byName.get(ref) ?? []), e.podKey]);
  }
  // A name that is also a pod's, or that two workloads share, stays as written: the checks say why.
  return new Map([...byName].filter(([ref, keys]) => keys.length === 1 && !podNames.has(ref)).map(([ref, keys]) => [ref, keys[0]!]));
}

/** The scenario with every reference to a workload replaced by its pod's key (a new value). */
export function resolveAliases(raw: Raw, aliases: Aliases): Raw {
  if (aliases.size === 0) return raw;
  const ref = (v: unknown): unknown => (typeof v === "string" && aliases.has(v) ? aliases.get(v) : v);
  const inTarget = (v: unknown): unknown => (typeof v === "string" ? ref(v) : isObj(v) && v.pod !== undefined ? { ...v, pod: ref(v.pod) } : v);
  const out: Raw = { ...raw };
  if (Array.isArray(raw.timeline)) {
    out.timeline = raw.timeline.map((s) => (isObj(s) ? Object.fromEntries(Object.entries(s).map(([k, v]) => [k, (ACTION_NAMES as string[]).includes(k) ? inTarget(v) : v])) : s));
  }
  if (Array.isArray(raw.expect)) {
    out.expect = raw.expect.map((e) => (isObj(e) ? Object.fromEntries(Object.entries(e).map(([k, v]) => [k, ["eventually", "never", "that"].includes(k) ? inTarget(v) : v])) : e));
  }
  if (isObj(raw.runtime) && Array.isArray(raw.runtime.faults)) out.runtime = { ...raw.runtime, faults: raw.runtime.faults.map(inTarget) };
  if (isObj(raw.swarm) && Array.isArray(raw.swarm.faults)) {
    out.swarm = { ...raw.swarm, faults: list(raw.swarm.faults).map((f) => (isObj(f) ? { ...f, fault: inTarget(f.fault) } : f)) };
  }
  return out;
}

export function workloadOf(obj: Raw): { namespace: string; name: string } | null {
  const kind = str(obj.kind) ?? "Pod";
  const meta = isObj(obj.metadata) ? obj.metadata : {};
  const name = str(meta.name);
  return kind === "Pod" || name === undefined ? null : { namespace: str(meta.namespace) || "default", name };
}
