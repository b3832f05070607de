// Models k8s.io/api/core/v1 toleration.go (Toleration.ToleratesTaint) and
// staging/src/k8s.io/component-helpers/scheduling/corev1/helpers.go (FindMatchingUntoleratedTaint).
// Simplified: the Gt and Lt toleration operators (TaintTolerationComparisonOperators, alpha in
// 1.35 and off by default) are not modelled; an unknown operator tolerates nothing, as upstream.
import type { Taint, Toleration } from "../node.ts";

/** ToleratesTaint: effect (empty matches all), key (empty matches all), then the operator. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if ((t.effect ?? "") !== "" && t.effect !== taint.effect) return false;
  if ((t.key ?? "") !== "" && t.key !== taint.key) return false;
  switch (t.operator ?? "") {
    // An empty operator means Equal.
    case "":
    case "Equal":
      return (t.value ?? "") === (taint.value ?? "");
    case "Exists":
      return true;
    default:
      return false;
  }
}

/**
 * FindMatchingUntoleratedTaint: the first taint, in the node's order, that passes `inclusion` and
 * that no toleration tolerates; null when every such taint is tolerated.
 */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  inclusion: (t: Taint) => boolean,
): Taint | null {
  for (const taint of taints) {
    if (!inclusion(taint)) continue;
    if (!tolerations.some((t) => toleratesTaint(t, taint))) return taint;
  }
  return null;
}
