// An index of the scenario's pods, read defensively from the raw YAML value (which may be partly
// invalid), so cross-reference checks can run alongside the schema and report everything at once.

export type Raw = Record<string, unknown>;
export const isObj = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export type ContainerKind = "init" | "sidecar" | "regular";

export interface IndexedContainer {
  name: string;
  kind: ContainerKind;
  /** Probe kinds declared in the manifest: liveness, readiness, startup. */
  probes: Set<string>;
  /** Lifecycle hooks declared in the manifest: postStart, preStop. */
  hooks: Set<string>;
}

export interface IndexedPod {
  index: number;
  name: string;
  namespace: string;
  key: string;
  source: "api" | "file";
  containers: Map<string, IndexedContainer>;
}

function indexContainer(c: Raw, kind: ContainerKind): IndexedContainer {
  const probes = new Set<string>();
  for (const p of ["liveness", "readiness", "startup"]) if (isObj(c[`${p}Probe`])) probes.add(p);
  const hooks = new Set<string>();
  const lifecycle = isObj(c.lifecycle) ? c.lifecycle : {};
  for (const h of ["postStart", "preStop"]) if (isObj(lifecycle[h])) hooks.add(h);
  return { name: str(c.name)!, kind, probes, hooks };
}

/** Sidecars need the SidecarContainers gate; without it the apiserver drops the field. */
export function indexPods(rawPods: unknown, sidecarsEnabled: boolean): IndexedPod[] {
  const pods: IndexedPod[] = [];
  list(rawPods).forEach((entry, index) => {
    if (!isObj(entry) || !isObj(entry.manifest)) return;
    const meta = isObj(entry.manifest.metadata) ? entry.manifest.metadata : {};
    const spec = isObj(entry.manifest.spec) ? entry.manifest.spec : {};
    const name = str(meta.name);
    if (name === undefined) return;
    const namespace = str(meta.namespace) || "default";
    const containers = new Map<string, IndexedContainer>();
    for (const c of list(spec.initContainers)) {
      if (!isObj(c) || str(c.name) === undefined) continue;
      const sidecar = c.restartPolicy === "Always" && sidecarsEnabled;
      containers.set(str(c.name)!, indexContainer(c, sidecar ? "sidecar" : "init"));
    }
    for (const c of list(spec.containers)) {
      if (isObj(c) && str(c.name) !== undefined) containers.set(str(c.name)!, indexContainer(c, "regular"));
    }
    const source = entry.source === "file" ? "file" : "api";
    pods.push({ index, name, namespace, key: `${namespace}/${name}`, source, containers });
  });
  return pods;
}

/** Finds the pod a reference names: "web" (any namespace, if unique) or "ns/web". */
export function findPod(
  pods: readonly IndexedPod[],
  ref: string,
): { pod: IndexedPod } | { error: "missing" | "ambiguous"; candidates: string[] } {
  const matches = ref.includes("/") ? pods.filter((p) => p.key === ref) : pods.filter((p) => p.name === ref);
  if (matches.length === 1) return { pod: matches[0]! };
  if (matches.length > 1) return { error: "ambiguous", candidates: matches.map((p) => p.key) };
  return { error: "missing", candidates: pods.map((p) => (ref.includes("/") ? p.key : p.name)) };
}
