// Models pkg/kubelet/lifecycle/predicate.go: the predicate admit handler (Admit, generalFilter,
// rejectPodAdmissionBasedOnOSSelector/OSField, removeMissingExtendedResources) as each release
// ran it. The checks themselves are the scheduler's filters (k8s/scheduling/), pure functions the
// scheduler stand-in reuses; this file decides which run, in which order, and what the pod's
// rejection says. Only the first failure is reported, as upstream.
//
// Gated by release: the OS checks from 1.23 (#105292); the NoExecute taint check, static pods
// exempt, from 1.24 (#101218); the predicate's description in the message from 1.31 (#125498:
// "Predicate NodeAffinity failed: node(s) didn't match ..." instead of "Predicate NodeAffinity
// failed"). Simplified: no admission failure handler (the critical-pod preemption of
// pkg/kubelet/preemption, which only ever helps pods of system-critical priority); the node never
// changes during a run, so the synchronous re-fetch of the node after a NodeAffinity failure
// (1.31) finds the same labels; device-plugin resources are admitted by the device manager's
// own handler (cm/devicemanager) and are not in the node's allocatable here.
import type { Pod } from "../../k8s/pod.ts";
import { LABEL_OS_STABLE, nodeOS, type Node } from "../../k8s/node.ts";
import { admissionCheck, TAINT_TOLERATION } from "../../k8s/scheduling/admission_check.ts";
import { removeMissingExtendedResources } from "../../k8s/scheduling/node_resources.ts";
import { findMatchingUntoleratedTaint } from "../../k8s/scheduling/taints.ts";
import { atLeast, type VersionLike } from "../version.ts";
import { IsStaticPod } from "../types.ts";

export { podRequests } from "../../k8s/scheduling/node_resources.ts";

export interface PodAdmitResult {
  Admit: boolean;
  Reason: string;
  Message: string;
}

/** What the handler needs besides the pods: the node, the kubelet's release and its sidecar gate. */
export interface AdmitContext {
  node: Node;
  version: VersionLike;
  /** SidecarContainers: a sidecar's requests add up with the regular containers'. */
  sidecars: boolean;
}

/** A predicate's failure (PredicateFailureError) or a resource's (InsufficientResourceError). */
type FailureReason =
  | { kind: "predicate"; predicateName: string; predicateDesc: string }
  | { kind: "resource"; resourceName: string; requested: number; used: number; capacity: number };

export const PodOSSelectorNodeLabelDoesNotMatch = "PodOSSelectorNodeLabelDoesNotMatch";
export const PodOSNotSupported = "PodOSNotSupported";

const admit = (): PodAdmitResult => ({ Admit: true, Reason: "", Message: "" });
const reject = (Reason: string, Message: string): PodAdmitResult => ({ Admit: false, Reason, Message });

/** predicateAdmitHandler.Admit, for `pod` against the node and the pods already admitted. */
export function canAdmitPod(ctx: AdmitContext, otherPods: readonly Pod[], pod: Pod): PodAdmitResult {
  if (atLeast(ctx.version, "1.23")) {
    // "perform the checks that preemption will not help first to avoid meaningless pod eviction"
    if (rejectPodAdmissionBasedOnOSSelector(pod, ctx.node)) {
      return reject(PodOSSelectorNodeLabelDoesNotMatch, "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label");
    }
    if (pod.spec.os !== undefined && pod.spec.os.name !== nodeOS(ctx.node)) {
      return reject(PodOSNotSupported, "Failed to admit pod as the OS field doesn't match node OS");
    }
  }
  const reasons = generalFilter(removeMissingExtendedResources(pod, ctx.node.allocatable), ctx, otherPods);
  if (reasons.length === 0) return admit();
  // "If there are failed predicates, we only return the first one as a reason."
  const r = reasons[0]!;
  if (r.kind === "resource") {
    return reject(`OutOf${r.resourceName}`, `Node didn't have enough resource: ${r.resourceName}, requested: ${r.requested}, used: ${r.used}, capacity: ${r.capacity}`);
  }
  const message = atLeast(ctx.version, "1.31") ? `Predicate ${r.predicateName} failed: ${r.predicateDesc}` : `Predicate ${r.predicateName} failed`;
  return reject(r.predicateName, message);
}

/**
 * rejectPodAdmissionBasedOnOSSelector: the pod's *label* kubernetes.io/os (upstream reads the
 * labels, not the nodeSelector) against the OS the kubelet runs on.
 */
function rejectPodAdmissionBasedOnOSSelector(pod: Pod, node: Node): boolean {
  const wanted = pod.metadata.labels?.[LABEL_OS_STABLE];
  return wanted !== undefined && wanted !== nodeOS(node);
}

/** generalFilter: AdmissionCheck with every failure, then (from 1.24) untolerated NoExecute taints. */
function generalFilter(pod: Pod, ctx: AdmitContext, otherPods: readonly Pod[]): FailureReason[] {
  const reasons: FailureReason[] = admissionCheck(pod, ctx.node, otherPods, true, { sidecars: ctx.sidecars }).map((r) =>
    "insufficientResource" in r
      ? { kind: "resource", ...r.insufficientResource }
      : { kind: "predicate", predicateName: r.name, predicateDesc: r.reason },
  );
  // "Check taint/toleration except for static pods"; "Kubelet is only interested in the NoExecute taint."
  if (atLeast(ctx.version, "1.24") && !IsStaticPod(pod)) {
    const untolerated = findMatchingUntoleratedTaint(ctx.node.taints, pod.spec.tolerations ?? [], (t) => t.effect === "NoExecute");
    if (untolerated !== null) reasons.push({ kind: "predicate", predicateName: TAINT_TOLERATION.name, predicateDesc: TAINT_TOLERATION.reason });
  }
  return reasons;
}
