// Models pkg/kubelet/lifecycle/predicate.go (the predicate admit handler) reduced to what a single
// simulated node decides: the pod count against maxPods and cpu/memory requests against the node's
// allocatable. Reasons and messages follow upstream ("OutOfpods", "OutOfcpu", "OutOfmemory").
// Simplified: no taints, node affinity, host ports or extended resources (the scheduler's job).
import type { Pod, Container } from "../../k8s/pod.ts";

export interface NodeAllocatable {
  maxPods: number;
  /** millicores */
  cpuMilli: number;
  memoryBytes: number;
}

export interface PodAdmitResult {
  Admit: boolean;
  Reason: string;
  Message: string;
}

export function canAdmitPod(node: NodeAllocatable, otherPods: readonly Pod[], pod: Pod): PodAdmitResult {
  if (otherPods.length + 1 > node.maxPods) {
    return reject("pods", 1, otherPods.length, node.maxPods);
  }
  const cpuUsed = sum(otherPods, (p) => podRequest(p, "cpu"));
  const cpuWanted = podRequest(pod, "cpu");
  if (cpuWanted > 0 && cpuUsed + cpuWanted > node.cpuMilli) return reject("cpu", cpuWanted, cpuUsed, node.cpuMilli);
  const memUsed = sum(otherPods, (p) => podRequest(p, "memory"));
  const memWanted = podRequest(pod, "memory");
  if (memWanted > 0 && memUsed + memWanted > node.memoryBytes) return reject("memory", memWanted, memUsed, node.memoryBytes);
  return { Admit: true, Reason: "", Message: "" };
}

function reject(resource: string, requested: number, used: number, capacity: number): PodAdmitResult {
  // InsufficientResourceError.Error() and the "OutOf<resource>" reason of the predicate admit handler.
  return {
    Admit: false,
    Reason: `OutOf${resource}`,
    Message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  };
}

/**
 * The pod's effective request (resource helpers' PodRequests): the larger of the sum over regular
 * containers and the largest init container request. Sidecar accounting (restartable init
 * containers adding up) is simplified to the same rule.
 */
export function podRequest(pod: Pod, resource: "cpu" | "memory"): number {
  const containers = sum(pod.spec.containers, (c) => containerRequest(c, resource));
  let init = 0;
  for (const c of pod.spec.initContainers ?? []) init = Math.max(init, containerRequest(c, resource));
  return Math.max(containers, init);
}

function containerRequest(c: Container, resource: "cpu" | "memory"): number {
  const q = c.resources?.requests?.[resource];
  return q === undefined ? 0 : parseQuantity(q, resource);
}

/** resource.Quantity for cpu (in millicores) and memory (in bytes). */
export function parseQuantity(q: string | number, resource: "cpu" | "memory"): number {
  const text = String(q).trim();
  const m = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(text);
  if (!m) throw new Error(`bad ${resource} quantity "${text}"`);
  const n = Number(m[1]);
  const suffix = m[2] ?? "";
  const scale: Record<string, number> = {
    "": 1, m: 0.001, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4,
  };
  const value = n * scale[suffix]!;
  return resource === "cpu" ? Math.round(value * 1000) : Math.round(value);
}

function sum<T>(items: readonly T[], f: (t: T) => number): number {
  let s = 0;
  for (const it of items) s += f(it);
  return s;
}
