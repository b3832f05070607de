// The scenario kubelet-sim builds around a plain manifest file: every pod created at 0s (a mirror
// pod's static pod written to the manifest directory at 0s), containers that run until stopped (a
// run-to-completion pod's exit 0 after a while), an `until` long enough for the pods to start and
// settle, and one expectation per pod: Ready, or Succeeded for a pod that runs to completion (a
// Job's, a Job-owned pod's, a run-once pod's). What it assumed is said in a few lines.
//
// A file a cluster is needed for runs as one (`nodes:`, docs/cluster.md): pods bound to more than
// one node run on the nodes they name, and a workload that asks for more than one pod (replicas,
// or a Job's parallelism or completions) gets its controller, on the nodes the pods name or else on
// default nodes node-1, node-2, ... enough for every pod at 110 (the kubelet's maxPods) a node.
// Every other file is one node, built exactly as before.
import { formatPath, type LocatedIssue } from "../errors.ts";
import { formatDuration, parseDuration } from "../../sim/duration.ts";
import { locate } from "../positions.ts";
import { isObj, list, str, type Raw } from "../podindex.ts";
import { DEFAULT_KUBELET_VERSION, DEFAULT_NODE_NAME } from "../schema/kubelet.ts";
import { DEFAULT_LATENCY } from "../schema/runtime.ts";
import { API_VERSIONS, unservedApiVersion } from "./api_versions.ts";
import type { ManifestObject } from "./documents.ts";
import { expandObject, skipReason, type Expanded } from "./expand.ts";
import { kubeletMinor } from "./entries.ts";
import { replicasOf } from "./controllers.ts";
import { jobCountsOf } from "./batch.ts";
import { Locator } from "./locator.ts";

export interface BuiltScenario {
  raw: Raw;
  locator: Locator;
  /** The assumptions, a few short lines for people. */
  assumptions: string[];
  /** What a cluster would refuse before any pod exists: an apiVersion it does not serve, an ambiguous node. */
  errors: LocatedIssue[];
}

/** What the command line says about the scenario to build: `--kubelet-version`, `--node`. */
export interface BuildOptions {
  kubeletVersion?: string;
  nodeName?: string;
}

const MIN_UNTIL_MS = 60_000;
const SANDBOX_MS = parseDuration(DEFAULT_LATENCY.RunPodSandbox);
const PULL_MS = parseDuration(DEFAULT_LATENCY.PullImage);
/** A default init container runs 1s (schema/behaviour.ts defaultBehaviour). */
const INIT_MS = 1000;

interface Made {
  o: ManifestObject;
  e: Expanded;
}

export function scenarioFromManifests(objects: readonly ManifestObject[], skipped: readonly ManifestObject[], file: string, opts: BuildOptions = {}): BuiltScenario {
  const locator = new Locator(null, file);
  const version = opts.kubeletVersion ?? DEFAULT_KUBELET_VERSION;
  const minor = kubeletMinor({ kubelet: { version } });
  const errors = [...objects.flatMap((o) => apiVersionErrors(o, minor, false)), ...skipped.flatMap((o) => apiVersionErrors(o, minor, true))];
  const expandWith = (nodeName: string): Made[] => objects.map((o) => ({ o, e: expandObject(o.value, { minor, nodeName, source: undefined, fromManifestFile: true }) }));
  let made = expandWith(opts.nodeName ?? DEFAULT_NODE_NAME);
  const clusterNodes = clusterOf(made, opts.nodeName);
  const choice = clusterNodes === null ? chooseNode(made, opts.nodeName) : { name: clusterNodes[0]! };
  if (choice.name !== (opts.nodeName ?? DEFAULT_NODE_NAME)) made = expandWith(choice.name);
  const elsewhere = made.filter(({ e }) => opts.nodeName !== undefined && e.node !== null && e.node !== opts.nodeName);
  const kept = made.filter((m) => !elsewhere.includes(m));
  const pods: Raw[] = [];
  const timeline: Raw[] = [];
  const expect: Raw[] = [];
  const lines: string[] = [];
  let untilMs = MIN_UNTIL_MS;
  kept.forEach(({ o, e }, i) => {
    locator.origins.set(i, { ref: o.ref, prefix: o.prefix, display: o.prefix, mapPath: (p) => [...p] });
    pods.push(entryOf(o, e));
    if (e.pod === null || e.errors.length > 0) return;
    const meta = e.pod.metadata as Raw;
    const key = `${str(meta.namespace) || "default"}/${str(meta.name) ?? ""}`;
    timeline.push({ at: "0s", [e.source === "file" ? "staticAdd" : "create"]: key });
    expect.push(e.completes ? { eventually: { pod: key, phase: "Succeeded" } } : { eventually: { pod: key, conditions: { Ready: "True" } } });
    untilMs = Math.max(untilMs, untilFor(e));
    const what = e.assumptions.map((a) => a.replace(/^from [A-Za-z]+ \S+: /, "")).join("; ");
    const static_ = e.source === "file" ? ", run as the static pod it mirrors" : "";
    lines.push(`${key}: ${o.kind} ${o.name} (line ${o.line})${static_}${what === "" ? "" : `; ${what}`}`);
  });
  const raw: Raw = {
    name: scenarioName(file),
    description: `Built by kubelet-sim from ${baseName(file)}: each pod is created at 0s and its containers run until stopped (a run-to-completion pod's exit 0 after a while); each is expected to become Ready (a run-to-completion pod to succeed).`,
    seed: 1,
    until: formatDuration(untilMs),
    kubelet: { version },
    ...(clusterNodes !== null ? { nodes: clusterNodes.map((name) => ({ name })) } : opts.nodeName === undefined ? {} : { node: { name: opts.nodeName } }),
    pods,
    timeline,
    expect,
  };
  const completes = kept.some(({ e }) => e.completes);
  const assumptions = [
    ...lines,
    `every pod created at 0s; containers run until stopped${completes ? ", a run-to-completion pod's exit 0 (after 5s unless its command sleeps)" : ""}; init containers exit 0 after 1s; images pull in 1s`,
    `until ${formatDuration(untilMs)}; expected: each pod Ready${completes ? " (a run-to-completion pod Succeeded)" : ""}`,
    ...(clusterNodes !== null ? [clusterLine(clusterNodes, made, opts.nodeName)] : opts.nodeName === undefined ? [] : [`node: the kubelet runs as node ${opts.nodeName} (--node)`]),
    ...elsewhere.map(({ o, e }) => `skipped ${o.kind} ${o.name} (line ${o.line}): bound to node ${e.node}, not ${opts.nodeName}`),
    ...skipped.map((s) => `skipped ${s.kind} ${s.name} (line ${s.line}): ${skipReason(s.value)}`),
  ];
  return { raw, locator, assumptions, errors };
}

/**
 * `kubectl apply` refuses an object without apiVersion, and one in a version the cluster does not
 * serve. A runnable object's apiVersion is checked where it is expanded, with its other problems.
 */
function apiVersionErrors(o: ManifestObject, minor: number, skipped: boolean): LocatedIssue[] {
  const apiVersion = o.value.apiVersion;
  if (apiVersion === undefined) {
    const where = locate(o.ref.doc, o.ref.lc, [...o.prefix, "kind"], true);
    const use = servedVersion(o.kind, minor);
    return [{ file: o.ref.file, ...where, path: formatPath([...o.prefix, "apiVersion"]), message: `apiVersion not set: kubectl refuses an object without it${use === undefined ? "" : ` (a ${o.kind} is ${use})`}` }];
  }
  if (!skipped || typeof apiVersion !== "string") return [];
  const why = unservedApiVersion(o.kind, apiVersion, minor);
  return why === null ? [] : [{ file: o.ref.file, ...locate(o.ref.doc, o.ref.lc, [...o.prefix, "apiVersion"]), path: formatPath([...o.prefix, "apiVersion"]), message: why }];
}

/** The group/version a cluster of this release serves a kind in (the newest), if the table knows the kind. */
function servedVersion(kind: string, minor: number): string | undefined {
  return (API_VERSIONS[kind] ?? []).filter((v) => (v.since ?? 0) <= minor && (v.removedIn ?? Infinity) > minor).at(-1)?.apiVersion;
}

/** The nodes the pods are bound to (spec.nodeName, a mirror pod's node), sorted, with their pod counts. */
function boundNodes(made: readonly Made[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { e } of made) if (e.node !== null && e.pod !== null) counts.set(e.node, (counts.get(e.node) ?? 0) + 1);
  return new Map([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The node to run as: --node's; else the one node the pods are bound to (entries.ts adopts it); else node-1. */
function chooseNode(made: readonly Made[], chosen: string | undefined): { name: string } {
  return { name: chosen ?? [...boundNodes(made).keys()][0] ?? DEFAULT_NODE_NAME };
}

/** The kubelet's default maxPods: default nodes are added at one per this many pods. */
const PODS_PER_DEFAULT_NODE = 110;

/**
 * How many pods an object asks a cluster for: a Deployment's, ReplicaSet's or StatefulSet's
 * replicas, a NonIndexed Job's parallelism or completions (whichever is larger); 1 for the rest.
 */
function podsWanted({ o, e }: Made): number {
  if (e.pod === null || e.errors.length > 0) return 0;
  if (e.kind === "Deployment" || e.kind === "ReplicaSet" || e.kind === "StatefulSet") return replicasOf(o.value);
  if (e.kind === "Job" && !(isObj(o.value.spec) && o.value.spec.completionMode === "Indexed")) {
    const j = jobCountsOf(o.value);
    return Math.max(1, j.parallelism, j.completions ?? 0);
  }
  return 1;
}

/**
 * The cluster's nodes when the file needs a cluster (see the top of the file), else null. With
 * --node, only a workload of several pods makes one, of that node alone (the pods bound elsewhere
 * are skipped as before).
 */
function clusterOf(made: readonly Made[], chosen: string | undefined): string[] | null {
  const many = made.some((m) => podsWanted(m) > 1);
  if (chosen !== undefined) return many ? [chosen] : null;
  const named = [...boundNodes(made).keys()];
  if (named.length >= 2 || (many && named.length === 1)) return named;
  if (!many) return null;
  const pods = made.reduce((n, m) => n + podsWanted(m), 0);
  const count = Math.max(1, Math.ceil(pods / PODS_PER_DEFAULT_NODE));
  return Array.from({ length: count }, (_, i) => `node-${i + 1}`);
}

/** The note saying why the file runs as a cluster, and on which nodes. */
function clusterLine(nodes: readonly string[], made: readonly Made[], chosen: string | undefined): string {
  const workloads = made.filter((m) => podsWanted(m) > 1).map((m) => `${m.o.kind} ${m.o.name} (${podsWanted(m)} pods)`);
  const bound = boundNodes(made);
  const why = [
    ...(bound.size >= 2 && chosen === undefined ? [`the pods are bound to ${bound.size} nodes`] : []),
    ...(workloads.length > 0 ? [`${workloads.join(", ")} run by ${workloads.length === 1 ? "its controller" : "their controllers"}`] : []),
  ].join("; ");
  const where = nodes.length === 1 ? `one node, ${nodes[0]}` : `${nodes.length} nodes, ${nodes.join(", ")}`;
  return `cluster: ${why}: runs as a cluster of ${where} (nodes:, docs/cluster.md)`;
}

function entryOf(o: ManifestObject, e: Expanded): Raw {
  const entry: Raw = { manifest: o.value };
  if (e.source === "file") entry.source = "file";
  if (e.exitAfter !== null && Object.keys(e.exitAfter).length > 0) {
    entry.behaviour = Object.fromEntries(Object.entries(e.exitAfter).map(([n, after]) => [n, { exitAfter: after }]));
  }
  return entry;
}

/** Long enough to start, pass the probes and (to completion) finish, twice over, plus half a minute; in whole 10s. */
function untilFor(e: Expanded): number {
  const spec = isObj(e.pod!.spec) ? e.pod!.spec : {};
  const inits = list(spec.initContainers).filter(isObj);
  const containers = list(spec.containers).filter(isObj);
  const images = new Set([...inits, ...containers].map((c) => str(c.image) ?? ""));
  let readyMs = SANDBOX_MS + images.size * PULL_MS + inits.filter((c) => c.restartPolicy !== "Always").length * INIT_MS;
  let probesMs = 0;
  for (const c of [...inits, ...containers]) {
    for (const p of [c.startupProbe, c.readinessProbe]) {
      if (!isObj(p)) continue;
      const seconds = num(p.initialDelaySeconds, 0) + num(p.periodSeconds, 10) * num(p.successThreshold, 1);
      probesMs = Math.max(probesMs, seconds * 1000);
    }
  }
  const longest = Math.max(0, ...Object.values(e.exitAfter ?? {}).map((d) => parseDuration(d)));
  readyMs += probesMs + longest;
  return Math.max(MIN_UNTIL_MS, Math.ceil((2 * readyMs + 30_000) / 10_000) * 10_000);
}

const num = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : fallback);

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

/** A kebab-case scenario name from the file's name. */
export function scenarioName(file: string): string {
  const stem = baseName(file).replace(/\.(ya?ml|json)$/i, "").toLowerCase();
  const kebab = stem.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 100).replace(/-+$/, "");
  return kebab === "" ? "manifest" : kebab;
}
