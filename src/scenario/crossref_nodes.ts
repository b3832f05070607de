// Cross-checks of a cluster (`nodes:`): one of node: and nodes:, a node's kubelet named as the node,
// pods bound to nodes that exist, and timeline steps aimed at nodes that exist. They read the raw
// YAML value, as crossref.ts does, so they report with the schema's own errors.
import { suggestion } from "./found.ts";
import type { PathIssue } from "./messages.ts";
import { isObj, list, str, type Raw } from "./podindex.ts";
import { ACTION_NAMES } from "./schema/timeline.ts";
import { DEFAULT_KUBELET_VERSION } from "./schema/kubelet.ts";
import { parseKubeletVersion, type KubeletVersion } from "../kubelet/version.ts";

/** The node names of the scenario: every `nodes:` entry's, or the one node's (null: unknown). */
function nodeNames(raw: Raw, kubelet: Raw): string[] | null {
  // Each name once (a name given twice is its own error) and none empty, as the messages list them.
  if (Array.isArray(raw.nodes)) return [...new Set(raw.nodes.map((n) => (isObj(n) ? str(n.name) ?? "" : "")))].filter((n) => n !== "");
  const node = isObj(raw.node) ? raw.node : {};
  return [str(node.name) ?? str(kubelet.nodeName) ?? "node-1"];
}

export function checkCluster(raw: Raw, kubelet: Raw, issues: PathIssue[]): void {
  const cluster = Array.isArray(raw.nodes);
  if (cluster && isObj(raw.node) && Object.keys(raw.node).length > 0) {
    issues.push({ path: ["node"], atKey: true, message: "expected node: or nodes:, not both: with nodes:, each entry is a node (move this one into the list); --node, which names a one-node scenario's node, does not apply to a cluster, which runs all its nodes" });
  }
  if (cluster && kubelet.nodeName !== undefined) {
    issues.push({ path: ["kubelet", "nodeName"], message: "expected no nodeName with nodes:: the top-level kubelet serves every node, each under its own name" });
  }
  if (cluster) {
    list(raw.nodes).forEach((n, i) => {
      if (!isObj(n) || !isObj(n.kubelet) || n.kubelet.nodeName === undefined || n.kubelet.nodeName === n.name) return;
      issues.push({ path: ["nodes", i, "kubelet", "nodeName"], message: `expected the node's name "${String(n.name)}" or nothing, found "${String(n.kubelet.nodeName)}"` });
    });
  }
  checkReplicas(raw, cluster, issues);
  const names = nodeNames(raw, kubelet);
  if (names === null) return;
  if (cluster) checkBoundPods(raw, names, issues);
  checkStepNodes(raw, names, cluster, issues);
}

/** A pod that names its node (spec.nodeName) must name a node of the cluster. */
function checkBoundPods(raw: Raw, names: readonly string[], issues: PathIssue[]): void {
  list(raw.pods).forEach((p, i) => {
    if (!isObj(p) || !isObj(p.manifest) || !isObj(p.manifest.spec)) return;
    const bound = p.manifest.spec.nodeName;
    if (typeof bound !== "string" || bound === "" || names.includes(bound)) return;
    issues.push({
      path: ["pods", i, "manifest", "spec", "nodeName"],
      message: `expected the name of a node in nodes: (${names.join(", ")}), found "${bound}"${suggestion(bound, names)}`,
    });
  });
}

/** The steps that act on a Node object, which only a cluster has, and why a one-node scenario cannot take them. */
const NODE_OBJECT_STEPS: ReadonlyMap<string, string> = new Map([
  ["taintNode", "a one-node scenario has no Node object to taint (write the node's taints under node:)"],
  ["untaintNode", "a one-node scenario has no Node object to taint (write the node's taints under node:)"],
  ["cordon", "a one-node scenario has no Node object and no scheduler to keep pods off it"],
  ["uncordon", "a one-node scenario has no Node object and no scheduler to keep pods off it"],
  ["deleteNode", "a one-node scenario has no Node object to delete"],
]);

function checkStepNodes(raw: Raw, names: readonly string[], cluster: boolean, issues: PathIssue[]): void {
  list(raw.timeline).forEach((step, i) => {
    if (!isObj(step)) return;
    for (const action of ACTION_NAMES) {
      const value = step[action];
      // cordon, uncordon and deleteNode take the node's name as a plain string too.
      const shorthand = NODE_OBJECT_STEPS.has(action) && typeof value === "string";
      const body = shorthand ? { node: value } : value;
      if (!cluster && (isObj(value) || shorthand) && NODE_OBJECT_STEPS.has(action)) {
        issues.push({ path: ["timeline", i, action], message: `expected nodes: for ${action}: ${NODE_OBJECT_STEPS.get(action)!}` });
        continue;
      }
      if (!isObj(body) || body.node === undefined || (typeof body.node === "string" && names.includes(body.node))) continue;
      const where = cluster ? `a node in nodes: (${names.join(", ")})` : `the scenario's one node "${names[0]}"`;
      issues.push({ path: shorthand ? ["timeline", i, action] : ["timeline", i, action, "node"], message: `expected ${where}, found ${JSON.stringify(body.node)}${typeof body.node === "string" ? suggestion(body.node, names) : ""}` });
    }
  });
}

/** `replicas` is for a Deployment's, ReplicaSet's or StatefulSet's pod (by its controllerRef), `job` for a Job's, in a cluster. */
function checkReplicas(raw: Raw, cluster: boolean, issues: PathIssue[]): void {
  list(raw.pods).forEach((p, i) => {
    if (!isObj(p)) return;
    if (p.job !== undefined) checkOwned(p, i, "job", "Job", cluster, issues);
    if (p.replicas === undefined) return;
    if (!cluster) {
      issues.push({ path: ["pods", i, "replicas"], message: "expected nodes: for replicas: a one-node scenario runs one pod of a workload" });
      return;
    }
    const meta = isObj(p.manifest) && isObj(p.manifest.metadata) ? p.manifest.metadata : {};
    const owned = list(meta.ownerReferences).some((r) => isObj(r) && r.controller === true && (r.kind === "ReplicaSet" || r.kind === "StatefulSet"));
    if (!owned) issues.push({ path: ["pods", i, "replicas"], message: "expected a Deployment, ReplicaSet or StatefulSet manifest for replicas (a pod a ReplicaSet or StatefulSet owns)" });
  });
}

function checkOwned(p: Raw, i: number, field: string, kind: string, cluster: boolean, issues: PathIssue[]): void {
  if (!cluster) {
    issues.push({ path: ["pods", i, field], message: `expected nodes: for ${field}: a one-node scenario runs one pod of a workload` });
    return;
  }
  const meta = isObj(p.manifest) && isObj(p.manifest.metadata) ? p.manifest.metadata : {};
  if (!list(meta.ownerReferences).some((r) => isObj(r) && r.controller === true && r.kind === kind)) {
    issues.push({ path: ["pods", i, field], message: `expected a ${kind} manifest for ${field}` });
  } else if (kind === "Job" && isObj(meta.annotations) && meta.annotations["batch.kubernetes.io/job-completion-index"] !== undefined) {
    issues.push({ path: ["pods", i, "manifest", "spec", "completionMode"], message: "expected completionMode NonIndexed in a cluster: its Job controller does not model Indexed Jobs (docs/cluster.md)" });
  }
}

/**
 * The version skew policy (kubernetes.io/releases/version-skew-policy): a kubelet must not be newer
 * than kube-apiserver, and may be up to three minors older from 1.28 (KEP-3935; two before, which is
 * also why a kubelet older than 1.25 may only be two behind). The reason a kubelet is outside it, or null.
 */
export function skewProblem(kubelet: KubeletVersion, controlPlane: KubeletVersion): string | null {
  if (kubelet.minor > controlPlane.minor) return `newer than the control plane's 1.${controlPlane.minor} (a kubelet must not be newer than kube-apiserver)`;
  const allowed = controlPlane.minor >= 28 ? 3 : 2;
  const behind = controlPlane.minor - kubelet.minor;
  if (behind > allowed) return `${behind} minor releases older than the control plane's 1.${controlPlane.minor} (at most ${allowed} are supported)`;
  return null;
}

const versionOf = (v: unknown): KubeletVersion | null => (typeof v === "string" ? parseKubeletVersion(v) : null);

/** `controlPlane:` is a cluster's; each node's kubelet within the version skew policy of it, else a warning. */
export function checkControlPlane(raw: Raw, kubelet: Raw, issues: PathIssue[], warnings: PathIssue[]): void {
  const cp = raw.controlPlane;
  if (cp === undefined) return;
  if (!Array.isArray(raw.nodes)) {
    issues.push({ path: ["controlPlane"], atKey: true, message: "expected nodes: for controlPlane: a one-node scenario has no control plane (no scheduler or controllers) but its kubelet" });
    return;
  }
  const cpVersion = isObj(cp) ? versionOf(cp.version) : null;
  if (cpVersion === null) return;
  const top = kubelet.version === undefined ? DEFAULT_KUBELET_VERSION : kubelet.version;
  list(raw.nodes).forEach((n, i) => {
    if (!isObj(n)) return;
    const own = isObj(n.kubelet) ? n.kubelet.version : undefined;
    const v = versionOf(own ?? top);
    const problem = v === null ? null : skewProblem(v, cpVersion);
    if (problem === null) return;
    const path = own !== undefined ? ["nodes", i, "kubelet", "version"] : kubelet.version !== undefined ? ["kubelet", "version"] : ["nodes", i, "name"];
    warnings.push({ path, message: `node ${JSON.stringify(n.name)}'s kubelet 1.${v!.minor} is outside the supported version skew: ${problem}; it runs anyway` });
  });
}
