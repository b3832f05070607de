// Models pkg/api/v1/pod/util.go and pkg/kubelet/container/helpers.go naming helpers (a small subset).
import type { Container, EphemeralContainer, ObjectMeta, Pod } from "./pod.ts";
import { perFrozenObject } from "./memo.ts";

/** kubecontainer.GetPodFullName: "name_namespace", the kubelet's key in logs and backoff keys. */
export function getPodFullName(pod: Pod): string {
  return fullNameOf(pod.metadata);
}

/** cache.MetaNamespaceKeyFunc: "namespace/name", the key the apiserver and informers use. */
export function podKey(pod: Pod): string {
  return keyOf(pod.metadata);
}

/**
 * Both keys once per frozen metadata object (its name and namespace cannot change): the config
 * source files every pod of the node under them at each SET, and the trace names each; the same
 * string object comes back, its hash kept, where a new string is joined and hashed at every use.
 */
const fullNameOf = perFrozenObject((m: ObjectMeta): string => `${m.name}_${m.namespace ?? ""}`);
const keyOf = perFrozenObject((m: ObjectMeta): string => {
  const ns = m.namespace ?? "";
  return ns === "" ? m.name : `${ns}/${m.name}`;
});

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
