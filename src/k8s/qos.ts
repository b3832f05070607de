// Models pkg/apis/core/v1/helper/qos/qos.go (GetPodQOS, ComputePodQOS): the pod's QoS class, which
// the kubelet writes into status.qosClass. Simplified: pod-level resources (PodLevelResources,
// alpha, off by default) are not read.
import type { Pod, ResourceRequirements } from "./pod.ts";
import { parseQuantityMilli } from "./quantity.ts";

export type PodQOSClass = "Guaranteed" | "Burstable" | "BestEffort";

/** supportedQoSComputeResources: only cpu and memory decide the class. */
const SUPPORTED = new Set(["cpu", "memory"]);

/** GetPodQOS: the class persisted in status.qosClass, else ComputePodQOS (the 1.28+ form; the answer is the same). */
export function GetPodQOS(pod: Pod): PodQOSClass {
  const persisted = pod.status?.qosClass;
  if (persisted === "Guaranteed" || persisted === "Burstable" || persisted === "BestEffort") return persisted;
  return ComputePodQOS(pod);
}

/**
 * ComputePodQOS: BestEffort when no container requests or limits cpu or memory; Guaranteed when
 * every container limits both and the summed requests equal the summed limits; Burstable otherwise.
 */
export function ComputePodQOS(pod: Pod): PodQOSClass {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let isGuaranteed = true;
  for (const container of [...pod.spec.containers, ...(pod.spec.initContainers ?? [])]) {
    addPositive(requests, container.resources?.requests);
    const limitsFound = addPositive(limits, container.resources?.limits);
    if (!(limitsFound.has("memory") && limitsFound.has("cpu"))) isGuaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return "BestEffort";
  // Check if requests match limits for all resources.
  if (isGuaranteed) {
    for (const [name, req] of [...requests].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (limits.get(name) !== req) {
        isGuaranteed = false;
        break;
      }
    }
  }
  if (isGuaranteed && requests.size === limits.size) return "Guaranteed";
  return "Burstable";
}

/** Adds each supported quantity above zero into `sums`; returns the names it found. */
function addPositive(sums: Map<string, number>, list: ResourceRequirements["requests"]): Set<string> {
  const found = new Set<string>();
  for (const [name, q] of Object.entries(list ?? {})) {
    if (!SUPPORTED.has(name)) continue;
    const milli = parseQuantityMilli(String(q)) ?? 0;
    if (milli <= 0) continue;
    found.add(name);
    sums.set(name, (sums.get(name) ?? 0) + milli);
  }
  return found;
}
