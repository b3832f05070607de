// Models pkg/scheduler/framework/plugins/noderesources/fit.go (Fits, fitsRequest,
// computePodResourceRequest), the resource accounting of framework.NodeInfo, and
// staging/src/k8s.io/component-helpers/resource/helpers.go (PodRequests): what a pod asks for is
// the larger of its containers' sum and its largest init container; with sidecars (restartable
// init containers, SidecarContainers) those run beside the rest and add up.
// Simplified: pod overhead (set by RuntimeClass admission) and pod-level resources are not read;
// quantities are the common suffixes k8s/quantity.ts parses, rounded up like MilliValue/Value.
import type { Container, Pod } from "../pod.ts";
import type { NodeResources } from "../node.ts";
import { parseQuantityMilli } from "../quantity.ts";

/** A pod's requests as fitsRequest compares them. */
export interface ResourceRequest {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  scalarResources: Record<string, number>;
}

/** noderesources.InsufficientResource: the resource, its reason, and the numbers of the message. */
export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
}

export interface ResourceOptions {
  /** SidecarContainers: restartable init containers' requests add to the pod's. */
  sidecars: boolean;
}

/** v1helper.IsExtendedResourceName: a domain-qualified name outside kubernetes.io. */
export function isExtendedResourceName(name: string): boolean {
  return name.includes("/") && !name.includes("kubernetes.io/") && !name.startsWith("requests.");
}

/** schedutil.IsScalarResourceName: extended, hugepages, prefixed native or attachable volumes. */
export function isScalarResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith("hugepages-") || name.includes("kubernetes.io/") || name.startsWith("attachable-volumes-");
}

const emptyRequest = (): ResourceRequest => ({ milliCPU: 0, memory: 0, ephemeralStorage: 0, scalarResources: {} });

/** Resource.Add for one container's requests (cpu in milli-cores, the rest in whole units). */
function containerRequest(c: Container): ResourceRequest {
  const r = emptyRequest();
  for (const [name, q] of Object.entries(c.resources?.requests ?? {})) {
    const milli = parseQuantityMilli(String(q)) ?? 0;
    if (name === "cpu") r.milliCPU += Math.ceil(milli);
    else if (name === "memory") r.memory += Math.ceil(milli / 1000);
    else if (name === "ephemeral-storage") r.ephemeralStorage += Math.ceil(milli / 1000);
    else if (isScalarResourceName(name)) r.scalarResources[name] = (r.scalarResources[name] ?? 0) + Math.ceil(milli / 1000);
  }
  return r;
}

function add(a: ResourceRequest, b: ResourceRequest): ResourceRequest {
  const scalar = { ...a.scalarResources };
  for (const [k, v] of Object.entries(b.scalarResources)) scalar[k] = (scalar[k] ?? 0) + v;
  return { milliCPU: a.milliCPU + b.milliCPU, memory: a.memory + b.memory, ephemeralStorage: a.ephemeralStorage + b.ephemeralStorage, scalarResources: scalar };
}

/** maxResourceList: each resource's larger value. */
function max(a: ResourceRequest, b: ResourceRequest): ResourceRequest {
  const scalar = { ...a.scalarResources };
  for (const [k, v] of Object.entries(b.scalarResources)) scalar[k] = Math.max(scalar[k] ?? 0, v);
  return { milliCPU: Math.max(a.milliCPU, b.milliCPU), memory: Math.max(a.memory, b.memory), ephemeralStorage: Math.max(a.ephemeralStorage, b.ephemeralStorage), scalarResources: scalar };
}

/** resourcehelper.PodRequests, in its order of accumulation. */
export function podRequests(pod: Pod, opts: ResourceOptions): ResourceRequest {
  let reqs = emptyRequest();
  for (const c of pod.spec.containers) reqs = add(reqs, containerRequest(c));
  let restartable = emptyRequest();
  let initReqs = emptyRequest();
  for (const c of pod.spec.initContainers ?? []) {
    let containerReqs = containerRequest(c);
    if (opts.sidecars && c.restartPolicy === "Always") {
      // A sidecar runs beside the regular containers, and beside the init containers after it.
      reqs = add(reqs, containerReqs);
      restartable = add(restartable, containerReqs);
      containerReqs = restartable;
    } else {
      containerReqs = add(containerReqs, restartable);
    }
    initReqs = max(initReqs, containerReqs);
  }
  return max(reqs, initReqs);
}

/** NodeInfo.Requested: the sum of the other pods' requests. */
export function requestedBy(pods: readonly Pod[], opts: ResourceOptions): ResourceRequest {
  return pods.reduce((sum, p) => add(sum, podRequests(p, opts)), emptyRequest());
}

/**
 * noderesources.Fits: the pod count first, then cpu, memory and ephemeral-storage, then each
 * scalar resource (in name order: upstream ranges over a Go map, and only the first reason is
 * ever reported). A pod that asks for nothing is checked only against the pod count. `want` is the
 * pod's requests when the caller has them (the Fit plugin's PreFilter computes them once a cycle).
 */
export function fits(pod: Pod, otherPods: readonly Pod[], allocatable: NodeResources, opts: ResourceOptions, want: ResourceRequest = podRequests(pod, opts)): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  if (otherPods.length + 1 > allocatable.allowedPodNumber) {
    out.push({ resourceName: "pods", reason: "Too many pods", requested: 1, used: otherPods.length, capacity: allocatable.allowedPodNumber });
  }
  if (want.milliCPU === 0 && want.memory === 0 && want.ephemeralStorage === 0 && Object.keys(want.scalarResources).length === 0) return out;
  const used = requestedBy(otherPods, opts);
  const check = (name: string, requested: number, inUse: number, capacity: number) => {
    if (capacity < requested + inUse) out.push({ resourceName: name, reason: `Insufficient ${name}`, requested, used: inUse, capacity });
  };
  check("cpu", want.milliCPU, used.milliCPU, allocatable.milliCPU);
  check("memory", want.memory, used.memory, allocatable.memory);
  check("ephemeral-storage", want.ephemeralStorage, used.ephemeralStorage, allocatable.ephemeralStorage);
  for (const name of Object.keys(want.scalarResources).sort()) {
    check(name, want.scalarResources[name]!, used.scalarResources[name] ?? 0, allocatable.scalarResources[name] ?? 0);
  }
  return out;
}

/**
 * predicate.go removeMissingExtendedResources: requests for extended resources the node does not
 * list are dropped (cluster-level resources the node knows nothing of), from every container.
 */
export function removeMissingExtendedResources(pod: Pod, allocatable: NodeResources): Pod {
  const filter = (c: Container): Container => {
    const requests = c.resources?.requests;
    if (requests === undefined) return c;
    const kept = Object.fromEntries(Object.entries(requests).filter(([name]) => !isExtendedResourceName(name) || Object.hasOwn(allocatable.scalarResources, name)));
    return { ...c, resources: { ...c.resources, requests: kept } };
  };
  return {
    ...pod,
    spec: {
      ...pod.spec,
      containers: pod.spec.containers.map(filter),
      ...(pod.spec.initContainers === undefined ? {} : { initContainers: pod.spec.initContainers.map(filter) }),
    },
  };
}
