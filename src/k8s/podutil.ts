// Models pkg/api/v1/pod/util.go and pkg/kubelet/container/helpers.go naming helpers (a small subset).
import type { Container, EphemeralContainer, Pod } from "./pod.ts";

/** kubecontainer.GetPodFullName: "name_namespace", the kubelet's key in logs and backoff keys. */
export function getPodFullName(pod: Pod): string {
  return `${pod.metadata.name}_${pod.metadata.namespace ?? ""}`;
}

/** cache.MetaNamespaceKeyFunc: "namespace/name", the key the apiserver and informers use. */
export function podKey(pod: Pod): string {
  const ns = pod.metadata.namespace ?? "";
  return ns === "" ? pod.metadata.name : `${ns}/${pod.metadata.name}`;
}

/** podutil.IsRestartableInitContainer: an init container with restartPolicy Always is a sidecar. */
export function isRestartableInitContainer(c: Container | undefined): boolean {
  return c?.restartPolicy === "Always";
}

/** Whether the pod has any restartable (sidecar) init container. */
export function hasRestartableInitContainer(pod: Pod): boolean {
  return (pod.spec.initContainers ?? []).some(isRestartableInitContainer);
}

/** Which list of the pod spec a container comes from (podutil.ContainerType, as names). */
export type ContainerKind = "containers" | "initContainers" | "ephemeralContainers";

export interface ContainerRef {
  kind: ContainerKind;
  index: number;
  container: Container | EphemeralContainer;
}

/**
 * podutil.VisitContainers order: init containers, then regular, then ephemeral. The first match wins,
 * since names are unique across the three lists in a valid pod.
 */
export function findContainerByName(pod: Pod, name: string): ContainerRef | undefined {
  const lists: [ContainerKind, readonly (Container | EphemeralContainer)[]][] = [
    ["initContainers", pod.spec.initContainers ?? []],
    ["containers", pod.spec.containers],
    ["ephemeralContainers", pod.spec.ephemeralContainers ?? []],
  ];
  for (const [kind, list] of lists) {
    const index = list.findIndex((c) => c.name === name);
    if (index >= 0) return { kind, index, container: list[index]! };
  }
  return undefined;
}

/** Whether the named container is one of the pod's init containers. */
export function isInitContainerName(pod: Pod, name: string): boolean {
  return (pod.spec.initContainers ?? []).some((c) => c.name === name);
}

/** The pod's restart policy as the kubelet reads it: unset behaves like Always. */
export function podRestartPolicy(pod: Pod): "Always" | "OnFailure" | "Never" {
  return pod.spec.restartPolicy ?? "Always";
}

/** Whether the pod has been marked for graceful deletion. */
export function isPodDeleted(pod: Pod): boolean {
  return pod.metadata.deletionTimestamp != null;
}
