// Models pkg/kubelet/config/common.go: the parts of applyDefaults and tryDecodeSinglePod that need
// no hashing. A static pod, once applyDefaults has named and bound it, must pass ValidatePodCreate
// with zero options, or the kubelet skips the file with "invalid pod: [...]" (the list printed
// with %v). Kept apart from common.ts (which hashes with node:crypto) so the scenario loader can
// check a static pod the way the kubelet will.
import type { Pod } from "../../k8s/pod.ts";
import { DEFAULT_NAMESPACE } from "../../k8s/defaults.ts";
import { canonicalJSON } from "../../k8s/json.ts";
import { ValidatePodCreate, ZERO_POD_OPTIONS, defaultedForValidation, errorListText, type FieldError } from "../../apiserver/validation/index.ts";
import { ConfigHashAnnotationKey } from "../types.ts";

/** generatePodName: a name unique among nodes, "<name>-<lowercased node name>". */
export function generatePodName(name: string, nodeName: string): string {
  return `${name}-${nodeName.toLowerCase()}`;
}

/**
 * The rest of applyDefaults, once the UID is set (mutates `pod`): the node-suffixed name, the
 * namespace, the node binding, config.hash, the NoExecute toleration and the Pending phase.
 * Without a UID it gives the pod the kubelet validates, as the scenario loader needs it.
 */
export function applyDefaultsAfterUID(pod: Pod, nodeName: string): void {
  pod.metadata.name = generatePodName(pod.metadata.name, nodeName);
  if (!pod.metadata.namespace) pod.metadata.namespace = DEFAULT_NAMESPACE;
  pod.spec.nodeName = nodeName;
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [ConfigHashAnnotationKey]: pod.metadata.uid ?? "" };
  addOrUpdateToleration(pod, { operator: "Exists", effect: "NoExecute" });
  pod.status = { ...(pod.status ?? {}), phase: "Pending" };
}

/** helper.AddOrUpdateTolerationInPod: add the toleration unless an equal one is there. */
function addOrUpdateToleration(pod: Pod, toleration: Record<string, string>): void {
  const spec = pod.spec as Pod["spec"] & { tolerations?: Record<string, unknown>[] };
  const list = spec.tolerations ?? [];
  if (!list.some((t) => canonicalJSON(t) === canonicalJSON(toleration))) list.push(toleration);
  spec.tolerations = list;
}

/** The field errors the kubelet finds in a static pod after applyDefaults; [] when it is valid. */
export function staticPodErrors(pod: Pod): FieldError[] {
  return ValidatePodCreate(defaultedForValidation(pod), ZERO_POD_OPTIONS);
}

/** tryDecodeSinglePod's error text for an invalid static pod, or null when the pod is valid. */
export function validateStaticPod(pod: Pod): string | null {
  const errs = staticPodErrors(pod);
  return errs.length === 0 ? null : `invalid pod: ${errorListText(errs)}`;
}
