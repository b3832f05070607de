// The scenario's pods before the schema sees them: `manifestFile` read, each manifest (a Pod or a
// workload) turned into the pod the kubelet gets, a Job's containers given their default program,
// and the node named after the pods' spec.nodeName when the scenario names none. Everything the
// schema and the cross-checks then report is placed where the user wrote it (locator.ts).
import type { LocatedIssue } from "../errors.ts";
import { isObj, str, type Raw } from "../podindex.ts";
import { DEFAULT_KUBELET_VERSION, DEFAULT_NODE_NAME } from "../schema/kubelet.ts";
import type { ManifestObject } from "./documents.ts";
import { expandObject, type Expanded } from "./expand.ts";
import { replicasOf } from "./controllers.ts";
import { jobCountsOf } from "./batch.ts";
import type { Locator } from "./locator.ts";
import { aliasesOf, resolveAliases, workloadOf } from "./aliases.ts";

/** Reads a manifest file named by `manifestFile` (the loader resolves it against the scenario's folder). */
export type ManifestReader = (path: string) => { ok: true; objects: ManifestObject[]; file: string } | { ok: false; issues: LocatedIssue[]; file: string };

export interface PreparedEntries {
  /** The scenario value the schema parses: every manifest a pod, manifestFile gone. */
  forSchema: Raw;
  /** The scenario as the user wrote it, with manifestFile replaced by the object it names (self-contained). */
  written: Raw;
  /** The expansion of each pod entry, by index (absent where the entry has no manifest to expand). */
  expanded: Map<number, Expanded>;
  errors: LocatedIssue[];
  warnings: LocatedIssue[];
  /** Short lines for `note:` (fields kubectl adds, the node taken from the manifests). */
  notes: string[];
  /** Entries whose manifestFile could not be read: their pods' names are unknown. */
  unresolved: number;
}

export function kubeletMinor(raw: Raw): number {
  const kubelet = isObj(raw.kubelet) ? raw.kubelet : {};
  const m = /^v?1\.(\d+)/.exec(str(kubelet.version) ?? DEFAULT_KUBELET_VERSION);
  return m === null ? Number(/1\.(\d+)/.exec(DEFAULT_KUBELET_VERSION)![1]) : Number(m[1]);
}

/** The node a scenario names (node.name, else kubelet.nodeName), or undefined when it names none. */
export function writtenNodeName(raw: Raw): string | undefined {
  const node = isObj(raw.node) ? raw.node : {};
  const kubelet = isObj(raw.kubelet) ? raw.kubelet : {};
  return str(node.name) ?? str(kubelet.nodeName);
}

export function prepareEntries(raw: Raw, locator: Locator, opts: { read?: ManifestReader; fromManifestFile: boolean }): PreparedEntries {
  const out: PreparedEntries = { forSchema: { ...raw }, written: { ...raw }, expanded: new Map(), errors: [], warnings: [], notes: [], unresolved: 0 };
  if (!Array.isArray(raw.pods)) return out;
  const minor = kubeletMinor(raw);
  const manifests = new Map<number, Raw>();
  const writtenPods: unknown[] = raw.pods.map((entry, i) => {
    if (!isObj(entry)) return entry;
    const manifest = resolveManifest(entry, i, locator, opts.read, out);
    if (isObj(manifest)) manifests.set(i, manifest);
    return manifest === undefined ? entry : withManifest(entry, manifest);
  });
  const expandAll = (nodeName: string) => {
    for (const [i, manifest] of manifests) {
      const entry = raw.pods as unknown[];
      const source = isObj(entry[i]) && (entry[i].source === "file" || entry[i].source === "api") ? (entry[i].source as "file" | "api") : undefined;
      out.expanded.set(i, expandObject(manifest, { minor, nodeName, source, fromManifestFile: opts.fromManifestFile, ...(Array.isArray(raw.nodes) ? { cluster: true } : {}) }));
    }
  };
  // A DaemonSet's pod is pinned to the node, which the pods copied from a cluster may name: expand
  // again once the node is known, if it is not the one first assumed.
  const firstNode = Array.isArray(raw.nodes) && isObj(raw.nodes[0]) ? str(raw.nodes[0].name) : undefined;
  const provisional = firstNode ?? writtenNodeName(raw) ?? DEFAULT_NODE_NAME;
  expandAll(provisional);
  // A cluster (`nodes:`) runs every node: pods bound to any of them run there (crossref_nodes.ts checks the names).
  const nodeName = Array.isArray(raw.nodes) ? provisional : adoptNode(raw, out, locator);
  if (nodeName !== provisional) expandAll(nodeName);
  const schemaPods = writtenPods.map((written, i) => {
    const e = out.expanded.get(i);
    if (e === undefined || !isObj(written)) return written;
    const origin = locator.origins.get(i);
    if (origin !== undefined) origin.mapPath = e.mapPath;
    out.errors.push(...e.errors.map((x) => locator.placeInObject(i, x)));
    out.warnings.push(...e.warnings.map((x) => locator.placeInObject(i, x)));
    return e.pod === null ? written : forSchemaEntry(written, e, Array.isArray(raw.nodes));
  });
  out.forSchema.pods = schemaPods;
  out.written.pods = writtenPods;
  out.forSchema = resolveAliases(out.forSchema, aliasesOf([...out.expanded].flatMap(([i, e]) => {
    const written = writtenPods[i];
    const meta = e.pod !== null && isObj(e.pod.metadata) ? e.pod.metadata : null;
    if (meta === null || !isObj(written) || !isObj(written.manifest)) return [];
    return [{ workload: workloadOf(written.manifest), podKey: `${str(meta.namespace) || "default"}/${str(meta.name) ?? ""}` }];
  })));
  const handled = [...out.expanded.values()].flatMap((e) => e.handled);
  if (handled.length > 0) out.notes.unshift(handledNote(handled));
  return out;
}

function withManifest(entry: Raw, manifest: unknown): Raw {
  const { manifestFile: _file, ...rest } = entry;
  return { ...rest, manifest };
}

/** The entry's manifest: inline, or read from manifestFile (exactly one object). */
function resolveManifest(entry: Raw, i: number, locator: Locator, read: ManifestReader | undefined, out: PreparedEntries): unknown {
  if (entry.manifestFile === undefined) {
    if (isObj(entry.manifest) && locator.origins.get(i) === undefined) {
      locator.origins.set(i, { ref: locator.mainRef()!, prefix: ["pods", i, "manifest"], display: ["pods", i, "manifest"], mapPath: (p) => [...p] });
    }
    return entry.manifest;
  }
  const at = (message: string) => out.errors.push(locator.place({ path: ["pods", i, "manifestFile"], message }));
  if (entry.manifest !== undefined) return void at("expected manifest or manifestFile, not both");
  if (typeof entry.manifestFile !== "string" || entry.manifestFile === "") return undefined; // the schema says what it expects
  if (read === undefined) return void at("manifestFile needs a scenario file to be relative to; inline the manifest with `manifest:` instead");
  const got = read(entry.manifestFile);
  if (!got.ok) {
    out.unresolved++;
    out.errors.push(...got.issues.map((x) => (x.path === "" && x.line === 1 && x.col === 1 && /no such file|permission|cannot open|directory/.test(x.message) ? locator.place({ path: ["pods", i, "manifestFile"], message: `${got.file}: ${x.message}` }) : x)));
    return undefined;
  }
  if (got.objects.length !== 1) {
    out.unresolved++;
    return void at(`${got.file} holds ${got.objects.length} objects; a pod entry takes one (give each its own entry, or run the file directly)`);
  }
  const obj = got.objects[0]!;
  locator.origins.set(i, { ref: obj.ref, prefix: obj.prefix, display: obj.prefix, mapPath: (p) => [...p] });
  return obj.value;
}

function forSchemaEntry(entry: Raw, e: Expanded, cluster: boolean): Raw {
  const out: Raw = { ...entry, manifest: e.pod };
  // In a cluster the ReplicaSet controller keeps spec.replicas pods of a Deployment or a ReplicaSet, the StatefulSet controller of a StatefulSet.
  if (cluster && (e.kind === "Deployment" || e.kind === "ReplicaSet" || e.kind === "StatefulSet") && out.replicas === undefined && isObj(entry.manifest)) {
    out.replicas = replicasOf(entry.manifest);
  }
  // ...and the Job controller a Job's parallelism, completions and backoffLimit.
  if (cluster && e.kind === "Job" && out.job === undefined && isObj(entry.manifest)) out.job = jobCountsOf(entry.manifest);
  if (e.source === "file") out.source = "file";
  if (e.exitAfter !== null) {
    // A run-to-completion pod's containers exit unless the scenario says what they do.
    const behaviour: Raw = { ...(isObj(entry.behaviour) ? entry.behaviour : {}) };
    for (const [name, after] of Object.entries(e.exitAfter)) if (behaviour[name] === undefined) behaviour[name] = { exitAfter: after };
    out.behaviour = behaviour;
  }
  return out;
}

/**
 * The scenario's node: the one it names; else the one node the pods copied from a cluster are
 * bound to (a note says so); else node-1. A pod bound to another node is a warning: the kubelet
 * never sees it. Returns the node's name.
 */
function adoptNode(raw: Raw, out: PreparedEntries, locator: Locator): string {
  const bound = [...out.expanded.entries()].filter(([, e]) => e.node !== null && e.pod !== null);
  const nodes = [...new Set(bound.map(([, e]) => e.node!))].sort();
  const written = writtenNodeName(raw);
  if (written === undefined && nodes.length === 1) {
    const node = isObj(raw.node) ? raw.node : {};
    out.forSchema.node = { ...node, name: nodes[0] };
    out.written.node = out.forSchema.node;
    if (nodes[0] !== DEFAULT_NODE_NAME) out.notes.push(`node: the kubelet runs as node ${nodes[0]}, the node the manifest binds its pods to (spec.nodeName)`);
    return nodes[0]!;
  }
  const name = written ?? DEFAULT_NODE_NAME;
  for (const [i, e] of bound) {
    if (e.source !== "api" || e.node === name) continue;
    const meta = isObj(e.pod!.metadata) ? e.pod!.metadata : {};
    const pod = `${str(meta.namespace) || "default"}/${str(meta.name) ?? "?"}`;
    out.warnings.push(locator.place({
      path: ["pods", i, "manifest", "spec", "nodeName"],
      message: `pod ${pod} is bound to node ${e.node} but this kubelet is node ${name}: the kubelet never sees it (its watch selects spec.nodeName=${name}); drop spec.nodeName or set node.name`,
    }));
  }
  return name;
}

/** One line for every server-set field found: "status: discarded ...; uid, creationTimestamp: set anew ...". */
function handledNote(handled: readonly string[]): string {
  const byWhat = new Map<string, string[]>();
  for (const h of handled) {
    const cut = h.indexOf(": ");
    const [field, what] = cut < 0 ? [h, ""] : [h.slice(0, cut), h.slice(cut + 2)];
    const fields = byWhat.get(what) ?? [];
    if (!fields.includes(field)) fields.push(field);
    byWhat.set(what, fields);
  }
  return `fields set by a cluster, handled as a new create would: ${[...byWhat].map(([what, fields]) => `${fields.join(", ")}: ${what}`).join("; ")}`;
}
