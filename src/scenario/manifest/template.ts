// What every workload controller does alike with its pod template: pkg/controller/
// controller_utils.go GetPodFromTemplate and getPodsPrefix, the object accessors the controllers
// share, and the selector check apps/v1 validation makes (ValidateDeploymentSpec and its twins:
// a selector is required and must select the template's labels).
import { requirementMatches } from "../../k8s/scheduling/node_affinity.ts";
import { generateName, ownerUid } from "./names.ts";
import { isObj, list, str, type Raw } from "../podindex.ts";

export interface ControllerContext {
  /** The minor version of the cluster (the scenario's kubelet): labels a release added are gated on it. */
  minor: number;
  /** The node the kubelet runs as: a DaemonSet's pod is pinned to it by node affinity. */
  nodeName: string;
  /** A cluster scenario (`nodes:`), where a ReplicaSet controller reads spec.replicas. */
  cluster?: boolean;
}

export interface PodFromController {
  /** The pod the controller would create: a new value, the object is never changed. */
  pod: Raw;
  /** What the controller gave the pod, in words, for the assumptions a run prints. */
  added: string[];
  /** True for a Job's pod: it runs to completion (its containers' default programs exit). */
  runsToCompletion: boolean;
}

/** A problem at a path inside the object (not the scenario). */
export interface ObjectIssue {
  path: PropertyKey[];
  message: string;
  atKey?: boolean;
}

export interface Controller {
  kind: string;
  apiVersions: readonly string[];
  /** Where the pod template sits in the object. */
  templatePath: readonly string[];
  /** What kubelet-sim assumes for this kind, in one sentence (docs/manifests.md, the assumptions block). */
  assumes: string;
  /** The paths of the object's fields the simulator does not model (listed, never dropped in silence). */
  unmodelled(obj: Raw): PropertyKey[][];
  /** What the apiserver's validation of the object (outside the pod template) refuses. */
  validate(obj: Raw): ObjectIssue[];
  podFor(obj: Raw, ctx: ControllerContext): PodFromController;
}

export const at = (obj: Raw, path: readonly string[]): unknown => path.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), obj);
export const metaOf = (obj: Raw): Raw => (isObj(obj.metadata) ? obj.metadata : {});
export const nameOf = (obj: Raw) => str(metaOf(obj).name) ?? "";
export const namespaceOf = (obj: Raw) => str(metaOf(obj).namespace) || "default";
export const labelsOf = (pod: Raw): Record<string, unknown> => (metaOf(pod).labels as Record<string, unknown>);

export const templateOf = (obj: Raw, path: readonly string[]): Raw => {
  const t = at(obj, path);
  return isObj(t) ? t : {};
};

/** GetPodFromTemplate: labels, annotations and finalizers copied, the spec deep-copied, a controller ref. */
export function podFromTemplate(template: Raw, owner: { apiVersion: string; kind: string; name: string; namespace: string }): Raw {
  const tm = isObj(template.metadata) ? template.metadata : {};
  const metadata: Raw = { namespace: owner.namespace, labels: { ...(isObj(tm.labels) ? tm.labels : {}) } };
  if (isObj(tm.annotations)) metadata.annotations = { ...tm.annotations };
  if (Array.isArray(tm.finalizers)) metadata.finalizers = [...tm.finalizers];
  metadata.ownerReferences = [{
    apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name,
    uid: ownerUid(`${owner.namespace}/${owner.kind}/${owner.name}`), controller: true, blockOwnerDeletion: true,
  }];
  return { apiVersion: "v1", kind: "Pod", metadata, spec: structuredClone(isObj(template.spec) ? template.spec : {}) };
}

/** getPodsPrefix: "name-" (upstream falls back to the bare name only when "name-" is not a valid prefix). */
export const prefixOf = (name: string) => `${name}-`;

export function named(pod: Raw, base: string, identity: string): void {
  metaOf(pod).name = generateName(base, identity);
}

/** The keys under `spec` (or another object) that are not in `reads`: fields nothing here models. */
export function unreadKeys(obj: Raw, path: readonly string[], reads: readonly string[]): PropertyKey[][] {
  const o = at(obj, path);
  if (!isObj(o)) return [];
  return Object.keys(o).filter((k) => !reads.includes(k)).map((k) => [...path, k]);
}

/** metav1.LabelSelectorAsSelector(...).Matches: matchLabels and matchExpressions, ANDed. */
export function selectorMatches(selector: Raw, labels: Readonly<Record<string, string>>): boolean {
  const matchLabels = isObj(selector.matchLabels) ? selector.matchLabels : {};
  for (const [k, v] of Object.entries(matchLabels)) if (labels[k] !== v) return false;
  return list(selector.matchExpressions).every((e) => isObj(e) && requirementMatches({ key: str(e.key) ?? "", operator: str(e.operator) ?? "", values: list(e.values).filter((x): x is string => typeof x === "string") }, labels));
}

/** Go's %v of a map[string]string, keys sorted: map[app:web tier:db]. */
function goMap(labels: Readonly<Record<string, string>>): string {
  return `map[${Object.keys(labels).sort().map((k) => `${k}:${labels[k]}`).join(" ")}]`;
}

/**
 * apps/v1 validation of spec.selector: required, not empty, and selecting the template's labels
 * (`selector` does not match template `labels`). A ReplicationController's selector defaults to
 * the template's labels, so `required` is false for it.
 */
export function validateSelector(obj: Raw, templatePath: readonly string[], required: boolean, kind: string): ObjectIssue[] {
  const selector = at(obj, ["spec", "selector"]);
  const tl = at(obj, [...templatePath, "metadata", "labels"]);
  const labels: Record<string, string> = Object.fromEntries(Object.entries(isObj(tl) ? tl : {}).map(([k, v]) => [k, String(v)]));
  if (selector === undefined) return required ? [{ path: ["spec", "selector"], message: "Required value" }] : [];
  if (!isObj(selector)) return [];
  const rc = !required;
  // A ReplicationController's selector is a plain map of labels.
  const asSelector: Raw = rc ? { matchLabels: selector } : selector;
  const empty = Object.keys(isObj(asSelector.matchLabels) ? asSelector.matchLabels : {}).length === 0 && list(asSelector.matchExpressions).length === 0;
  if (empty) return rc ? [] : [{ path: ["spec", "selector"], message: `Invalid value: {}: empty selector is invalid for ${kind.toLowerCase()}` }];
  if (selectorMatches(asSelector, labels)) return [];
  return [{ path: [...templatePath, "metadata", "labels"], message: `Invalid value: ${goMap(labels)}: \`selector\` does not match template \`labels\`` }];
}
