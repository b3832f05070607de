// Models pkg/kubelet/kuberuntime/labels.go (the labels and annotations the kubelet puts on sandboxes
// and containers, and reads back), v1.29 line.
//
// The runtime keeps them opaque; GetPodStatus reads the hash and restart count back from them, and
// killContainer restores a pod's grace periods and preStop hook from them when the pod is gone.
import { freeze } from "immer";
import { perFrozenObject } from "../../k8s/memo.ts";
import type { Container, LifecycleHandler, Pod } from "../../k8s/pod.ts";
import { HashContainer } from "../container/helpers.ts";

// pkg/kubelet/types/labels.go
export const KubernetesPodNameLabel = "io.kubernetes.pod.name";
export const KubernetesPodNamespaceLabel = "io.kubernetes.pod.namespace";
export const KubernetesPodUIDLabel = "io.kubernetes.pod.uid";
export const KubernetesContainerNameLabel = "io.kubernetes.container.name";

export const podDeletionGracePeriodLabel = "io.kubernetes.pod.deletionGracePeriod";
export const podTerminationGracePeriodLabel = "io.kubernetes.pod.terminationGracePeriod";
export const containerHashLabel = "io.kubernetes.container.hash";
export const containerRestartCountLabel = "io.kubernetes.container.restartCount";
export const containerTerminationMessagePathLabel = "io.kubernetes.container.terminationMessagePath";
export const containerTerminationMessagePolicyLabel = "io.kubernetes.container.terminationMessagePolicy";
export const containerPreStopHandlerLabel = "io.kubernetes.container.preStopHandler";
export const containerPortsLabel = "io.kubernetes.container.ports";

type Labels = Record<string, string>;

/** newPodLabels: the pod's labels plus the kubelet's pod identity labels. */
export function newPodLabels(pod: Pod): Labels {
  return {
    ...(pod.metadata.labels ?? {}),
    [KubernetesPodNameLabel]: pod.metadata.name,
    [KubernetesPodNamespaceLabel]: pod.metadata.namespace ?? "",
    [KubernetesPodUIDLabel]: pod.metadata.uid ?? "",
  };
}

/** newPodAnnotations: the pod's annotations. */
export function newPodAnnotations(pod: Pod): Labels {
  return { ...(pod.metadata.annotations ?? {}) };
}

/** newContainerLabels: the pod identity and the container name. */
export function newContainerLabels(container: Container, pod: Pod): Labels {
  return {
    [KubernetesPodNameLabel]: pod.metadata.name,
    [KubernetesPodNamespaceLabel]: pod.metadata.namespace ?? "",
    [KubernetesPodUIDLabel]: pod.metadata.uid ?? "",
    [KubernetesContainerNameLabel]: container.name,
  };
}

/** newContainerAnnotations: hash (hex), restart count, grace periods and the preStop hook as JSON. */
export function newContainerAnnotations(container: Container, pod: Pod, restartCount: number): Labels {
  const a: Labels = {
    [containerHashLabel]: HashContainer(container).toString(16),
    [containerRestartCountLabel]: String(restartCount),
    [containerTerminationMessagePathLabel]: container.terminationMessagePath ?? "",
    [containerTerminationMessagePolicyLabel]: container.terminationMessagePolicy ?? "",
  };
  if (pod.metadata.deletionGracePeriodSeconds != null) a[podDeletionGracePeriodLabel] = String(pod.metadata.deletionGracePeriodSeconds);
  if (pod.spec.terminationGracePeriodSeconds != null) a[podTerminationGracePeriodLabel] = String(pod.spec.terminationGracePeriodSeconds);
  // JSON, so that the PreStop handler object is readable after writing it as a label.
  if (container.lifecycle?.preStop != null) a[containerPreStopHandlerLabel] = JSON.stringify(container.lifecycle.preStop);
  if (container.ports !== undefined && container.ports.length > 0) a[containerPortsLabel] = JSON.stringify(container.ports);
  return a;
}

/** labeledContainerInfo */
export interface LabeledContainerInfo {
  ContainerName: string;
  PodName: string;
  PodNamespace: string;
  PodUID: string;
}

export function getContainerInfoFromLabels(labels: Readonly<Labels>): LabeledContainerInfo {
  return {
    PodName: labels[KubernetesPodNameLabel] ?? "",
    PodNamespace: labels[KubernetesPodNamespaceLabel] ?? "",
    PodUID: labels[KubernetesPodUIDLabel] ?? "",
    ContainerName: labels[KubernetesContainerNameLabel] ?? "",
  };
}

/** annotatedContainerInfo */
export interface AnnotatedContainerInfo {
  Hash: number;
  RestartCount: number;
  PodDeletionGracePeriod: number | null;
  PodTerminationGracePeriod: number | null;
  TerminationMessagePath: string;
  PreStopHandler: LifecycleHandler | null;
}

/** getContainerInfoFromAnnotations: unparsable values read as zero/nil, as upstream logs and goes on. */
export function getContainerInfoFromAnnotations(annotations: Readonly<Labels>): AnnotatedContainerInfo {
  return annotatedInfoOf(annotations);
}

// The runtime hands out a container's annotations as one frozen object for its whole life, and
// PLEG and the runtime cache read them every second: parse each such object once (the result is
// shared, so it is frozen too).
const annotatedInfoOf = perFrozenObject((annotations: Readonly<Labels>) => freeze(parseContainerAnnotations(annotations), true));

function parseContainerAnnotations(annotations: Readonly<Labels>): AnnotatedContainerInfo {
  const int = (key: string): number | null => {
    const v = annotations[key];
    if (v === undefined || !/^-?\d+$/.test(v)) return null;
    return Number(v);
  };
  const hashText = annotations[containerHashLabel] ?? "";
  let preStop: LifecycleHandler | null = null;
  const rawPreStop = annotations[containerPreStopHandlerLabel];
  if (rawPreStop !== undefined) {
    try {
      preStop = JSON.parse(rawPreStop) as LifecycleHandler;
    } catch {
      preStop = null;
    }
  }
  return {
    Hash: /^[0-9a-f]+$/.test(hashText) ? Number.parseInt(hashText, 16) : 0,
    RestartCount: int(containerRestartCountLabel) ?? 0,
    PodDeletionGracePeriod: int(podDeletionGracePeriodLabel),
    PodTerminationGracePeriod: int(podTerminationGracePeriodLabel),
    TerminationMessagePath: annotations[containerTerminationMessagePathLabel] ?? "",
    PreStopHandler: preStop,
  };
}
