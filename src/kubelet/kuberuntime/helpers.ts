// Models pkg/kubelet/kuberuntime/helpers.go (isInitContainerFailed, getStableKey), v1.29 line.
import type { Container, Pod } from "../../k8s/pod.ts";
import { HashContainer } from "../container/helpers.ts";
import { ContainerStateExited, ContainerStateUnknown, type Status } from "../container/runtime.ts";

/**
 * isInitContainerFailed returns true when the container has exited with a non-zero code, is in
 * unknown state, or was OOMKilled. The OOMKilled rule is the v1.29 one; v1.21 lacked it.
 */
export function isInitContainerFailed(status: Status): boolean {
  // When oomkilled occurs, init container should be considered as a failure.
  if (status.reason === "OOMKilled") return true;
  if (status.state === ContainerStateExited && status.exitCode !== 0) return true;
  if (status.state === ContainerStateUnknown) return true;
  return false;
}

/**
 * getStableKey identifies a (pod, container) tuple for the restart backoff. It includes the
 * container's hash, so any change to the spec yields a new key and therefore a fresh backoff.
 */
export function getStableKey(pod: Pod, container: Container): string {
  const hash = HashContainer(container).toString(16);
  const { name, namespace, uid } = pod.metadata;
  return `${name}_${namespace ?? ""}_${uid ?? ""}_${container.name}_${hash}`;
}

/**
 * strings.Replace(message, containerID, containerName, -1), as recordContainerEvent and
 * killContainer write event messages, but only where the ID stands alone. Upstream's IDs are 64
 * hex digits and never occur inside a name; the simulated runtime's are short ("c-1"), so a plain
 * replace turned a container named "sc-1" into "ssc-1" and "c-10" into the name plus "0".
 */
export function replaceContainerID(message: string, containerID: string, name: string): string {
  // Most messages do not name the container at all: no pattern to build then.
  if (containerID === "" || !message.includes(containerID)) return message;
  const escaped = containerID.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return message.replace(new RegExp(`(?<![\\w.-])${escaped}(?![\\w.-])`, "g"), () => name);
}
