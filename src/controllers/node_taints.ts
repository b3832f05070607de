// Models pkg/controller/controller_utils.go AddOrUpdateTaintOnNode / RemoveTaintOffNode as
// SwapNodeControllerTaint uses them: GET the node, change its taints, PUT it back, again on a
// conflict (UpdateTaintBackoff: 5 tries); no request when the taints would not change.
import type { Proc } from "../sim/index.ts";
import type { NodesClient } from "../apiserver/nodes_client.ts";
import type { NodeTaint } from "../k8s/node_api.ts";
import { swapTaints } from "./node_health.ts";

/** retry.DefaultBackoff's steps, as UpdateTaintBackoff. */
export const UPDATE_TAINT_TRIES = 5;

/** SwapNodeControllerTaint: whether the node ends with `add` and without `remove`. */
export function* swapNodeControllerTaint(client: NodesClient, nodeName: string, add: readonly NodeTaint[], remove: readonly NodeTaint[], nowMs: () => number): Proc<boolean> {
  for (let i = 0; i < UPDATE_TAINT_TRIES; i++) {
    const got = yield* client.getNode(nodeName);
    if (got.err !== null) return false;
    const before = got.value.spec.taints ?? [];
    const after = swapTaints(before, add, remove, nowMs());
    const same = after.length === before.length && after.every((t, k) => t.key === before[k]!.key && t.effect === before[k]!.effect);
    if (same) return true;
    const r = yield* client.updateNode({ ...got.value, spec: { ...got.value.spec, taints: after } });
    if (r.err === null) return true;
    if (r.err.reason !== "Conflict") return false;
  }
  return false;
}
