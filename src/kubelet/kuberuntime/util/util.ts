// Models pkg/kubelet/kuberuntime/util/util.go (PodSandboxChanged and the namespace-mode helpers), v1.29 line.
import type { Pod } from "../../../k8s/pod.ts";
import { IsHostNetworkPod } from "../../container/helpers.ts";
import { sandboxNetworkMode, type NamespaceMode, type PodStatus } from "../../container/runtime.ts";

export interface SandboxChange {
  /** Whether a new sandbox must be created (the old one, if any, is killed first). */
  changed: boolean;
  /** The attempt number for the new sandbox (or the current one when unchanged). */
  attempt: number;
  /** The ID of the existing sandbox, or "" when there is none or it must not be reused. */
  sandboxID: string;
  /** Why, in the words of upstream's log line; "" when unchanged. */
  why: string;
}

/**
 * PodSandboxChanged checks whether the spec of the pod is changed and returns
 * (changed, new attempt, original sandboxID if exist). Sandbox statuses are newest first.
 */
export function PodSandboxChanged(pod: Pod, podStatus: PodStatus): SandboxChange {
  if (podStatus.sandboxStatuses.length === 0) {
    return { changed: true, attempt: 0, sandboxID: "", why: "No sandbox for pod can be found. Need to start a new one" };
  }
  let readySandboxCount = 0;
  let maxAttempt = 0;
  for (const s of podStatus.sandboxStatuses) {
    if (s.state === "SANDBOX_READY") readySandboxCount++;
    if (s.metadata.attempt > maxAttempt) maxAttempt = s.metadata.attempt;
  }
  // Needs to create a new sandbox when readySandboxCount > 1 or the ready sandbox is not the latest one.
  const sandboxStatus = podStatus.sandboxStatuses[0]!;
  const next = (why: string, sandboxID = sandboxStatus.id): SandboxChange => ({
    changed: true,
    attempt: maxAttempt + 1,
    sandboxID,
    why,
  });
  if (readySandboxCount > 1) return next("Multiple sandboxes are ready for Pod. Need to reconcile them");
  if (sandboxStatus.state !== "SANDBOX_READY") return next("No ready sandbox for pod can be found. Need to start a new one");
  // Needs to create a new sandbox when network namespace changed; the old sandbox ID is not reused.
  if (sandboxNetworkMode(sandboxStatus) !== NetworkNamespaceForPod(pod)) {
    return next("Sandbox for pod has changed. Need to start a new one", "");
  }
  // Needs to create a new sandbox when the sandbox does not have an IP address.
  if (!IsHostNetworkPod(pod) && sandboxStatus.network !== undefined && sandboxStatus.network.ip === "") {
    return next("Sandbox for pod has no IP address. Need to start a new one");
  }
  return { changed: false, attempt: maxAttempt, sandboxID: sandboxStatus.id, why: "" };
}

/** NetworkNamespaceForPod: NODE for host-network pods, POD otherwise. */
export function NetworkNamespaceForPod(pod: Pod | undefined): NamespaceMode {
  return pod?.spec.hostNetwork ? "NODE" : "POD";
}

/** IpcNamespaceForPod */
export function IpcNamespaceForPod(pod: Pod | undefined): NamespaceMode {
  return pod?.spec.hostIPC ? "NODE" : "POD";
}

/** PidNamespaceForPod; PID does not default to POD: CONTAINER unless shared or host. */
export function PidNamespaceForPod(pod: Pod | undefined): NamespaceMode {
  if (pod?.spec.hostPID) return "NODE";
  if (pod && (pod.spec as { shareProcessNamespace?: unknown }).shareProcessNamespace === true) return "POD";
  return "CONTAINER";
}
