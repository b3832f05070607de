// Models plugin/pkg/admission/defaulttolerationseconds/admission.go: a pod created without a
// NoExecute toleration of node.kubernetes.io/not-ready (or of unreachable) gets one with
// tolerationSeconds 300 (--default-not-ready-toleration-seconds, --default-unreachable-toleration-seconds),
// so taint-based eviction waits five minutes before deleting it. A toleration with an empty key or
// effect counts as tolerating them. Applied at creation; only a cluster's apiserver runs it.
import type { Pod } from "../../k8s/pod.ts";
import type { Toleration } from "../../k8s/node.ts";
import { TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE } from "../../k8s/node_api.ts";

export const DEFAULT_NOT_READY_TOLERATION_SECONDS = 300;
export const DEFAULT_UNREACHABLE_TOLERATION_SECONDS = 300;

function tolerates(ts: readonly Toleration[], key: string): boolean {
  return ts.some((t) => (t.key === key || !t.key) && (t.effect === "NoExecute" || !t.effect));
}

/** Admit: the tolerations the pod lacks, appended (the pod itself when it lacks none). */
export function defaultTolerationSeconds(pod: Pod): Pod {
  const ts = (pod.spec.tolerations ?? []) as Toleration[];
  const add: Toleration[] = [];
  if (!tolerates(ts, TAINT_NODE_NOT_READY)) add.push({ key: TAINT_NODE_NOT_READY, operator: "Exists", effect: "NoExecute", tolerationSeconds: DEFAULT_NOT_READY_TOLERATION_SECONDS });
  if (!tolerates(ts, TAINT_NODE_UNREACHABLE)) add.push({ key: TAINT_NODE_UNREACHABLE, operator: "Exists", effect: "NoExecute", tolerationSeconds: DEFAULT_UNREACHABLE_TOLERATION_SECONDS });
  if (add.length === 0) return pod;
  return { ...pod, spec: { ...pod.spec, tolerations: [...(pod.spec.tolerations ?? []), ...add] as Pod["spec"]["tolerations"] } };
}
