// Models staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go
// (GetRequiredNodeAffinity, RequiredNodeAffinity.Match, LazyErrorNodeSelector) and the parts of
// k8s.io/apimachinery/pkg/labels (NewRequirement, Requirement.Matches) and fields it uses.
//
// A pod's nodeSelector and its required node affinity must both match the node's labels. Terms
// are ORed; a term's expressions and fields are ANDed; an empty term selects nothing; a term that
// does not parse matches nothing (the LazyErrorNodeSelector reports its errors only when no term
// matches, and the callers here ignore them, as the kubelet and the scheduler's filter do).
// Simplified: label keys and values are not checked for syntax (the apiserver validates them).
import type { NodeSelectorRequirement, NodeSelectorTerm, Pod } from "../pod.ts";
import type { Node } from "../node.ts";

/** selection.Operator, as NodeSelectorOperator names map to it. */
const LABEL_OPERATORS = new Set(["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"]);

/** labels.NewRequirement's checks of the values for an operator; the error text, or null. */
function requirementError(r: NodeSelectorRequirement): string | null {
  const values = r.values ?? [];
  if (!LABEL_OPERATORS.has(r.operator)) return `Unsupported value: "${r.operator}"`;
  if ((r.operator === "In" || r.operator === "NotIn") && values.length === 0) return "for 'in', 'notin' operators, values set can't be empty";
  if ((r.operator === "Exists" || r.operator === "DoesNotExist") && values.length !== 0) return "values set must be empty for exists and does not exist";
  if (r.operator === "Gt" || r.operator === "Lt") {
    if (values.length !== 1) return "for 'Gt', 'Lt' operators, exactly one value is required";
    if (parseInt64(values[0]!) === null) return "for 'Gt', 'Lt' operators, the value must be an integer";
  }
  return null;
}

/** strconv.ParseInt(s, 10, 64), as far as a JavaScript number holds it. */
function parseInt64(s: string): number | null {
  return /^[+-]?\d+$/.test(s) ? Number(s) : null;
}

/** labels.Requirement.Matches against a label set. */
export function requirementMatches(r: NodeSelectorRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key]! : "";
  const values = r.values ?? [];
  switch (r.operator) {
    case "In":
      return has && values.includes(value);
    case "NotIn":
      return !has || !values.includes(value);
    case "Exists":
      return has;
    case "DoesNotExist":
      return !has;
    case "Gt":
    case "Lt": {
      if (!has) return false;
      const left = parseInt64(value);
      const right = parseInt64(values[0] ?? "");
      if (left === null || right === null) return false;
      return r.operator === "Gt" ? left > right : left < right;
    }
    default:
      return false;
  }
}

/** nodeSelectorRequirementsAsFieldSelector: only In and NotIn, each with exactly one value. */
function fieldRequirementError(r: NodeSelectorRequirement): string | null {
  if (r.operator !== "In" && r.operator !== "NotIn") return `Unsupported value: "${r.operator}"`;
  return (r.values ?? []).length === 1 ? null : "must have one element";
}

/** extractNodeFields: the only field a node selector can name is metadata.name. */
function nodeFields(node: Node): Record<string, string> {
  return node.name === "" ? {} : { "metadata.name": node.name };
}

function fieldMatches(r: NodeSelectorRequirement, fields: Readonly<Record<string, string>>): boolean {
  const want = r.values![0]!;
  // fields.OneTermEqualSelector / OneTermNotEqualSelector: an absent field reads as "".
  const have = fields[r.key] ?? "";
  return r.operator === "In" ? have === want : have !== want;
}

/** nodeSelectorTerm.match: false for a term with parse errors; expressions and fields ANDed. */
export function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fieldReqs = term.matchFields ?? [];
  if (exprs.length === 0 && fieldReqs.length === 0) return false;
  if (exprs.some((r) => requirementError(r) !== null) || fieldReqs.some((r) => fieldRequirementError(r) !== null)) return false;
  if (!exprs.every((r) => requirementMatches(r, node.labels))) return false;
  const fields = nodeFields(node);
  // "t.matchFields != nil && len(nodeFields) > 0 && !Matches": a node without a name passes.
  if (fieldReqs.length > 0 && Object.keys(fields).length > 0 && !fieldReqs.every((r) => fieldMatches(r, fields))) return false;
  return true;
}

/** The parse errors of a node selector's terms, for messages that want them (none stops a match elsewhere). */
export function nodeSelectorTermErrors(terms: readonly NodeSelectorTerm[]): string[] {
  return terms.flatMap((t) => [...(t.matchExpressions ?? []).map(requirementError), ...(t.matchFields ?? []).map(fieldRequirementError)]).filter((e): e is string => e !== null);
}

/**
 * GetRequiredNodeAffinity(pod).Match(node): the nodeSelector's labels all present with equal
 * values, and, when the pod has required node affinity, one of its terms matching.
 */
export function requiredNodeAffinityMatches(pod: Pod, node: Node): boolean {
  const selector = pod.spec.nodeSelector ?? {};
  for (const [k, v] of Object.entries(selector)) {
    if (!Object.hasOwn(node.labels, k) || node.labels[k] !== v) return false;
  }
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined) return true;
  return required.nodeSelectorTerms.some((t) => termMatches(t, node));
}
