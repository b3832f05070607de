// Models pkg/kubelet/kuberuntime/kuberuntime_sandbox.go (createPodSandbox, generatePodSandboxConfig,
// getKubeletSandboxes, determinePodSandboxIPs, getSandboxIDByPodUID), v1.29 line.
//
// Simplified: the sandbox config carries metadata, labels, annotations, hostname, log directory and
// the namespace options; DNS, port mappings, cgroups, sysctls and runtime classes are left out.
import type { Proc } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { PodSandbox, PodSandboxConfig, PodSandboxStatus as CriSandboxStatus, PodSandboxState } from "../../cri/api.ts";
import { CriError } from "../../cri/errors.ts";
import { formatPod } from "../container/helpers.ts";
import { IpcNamespaceForPod, NetworkNamespaceForPod, PidNamespaceForPod } from "./util/util.ts";
import { KubernetesPodUIDLabel, newPodAnnotations, newPodLabels } from "./labels.ts";
import type { ManagerContext } from "./manager_context.ts";

/** generatePodSandboxConfig generates pod sandbox config from v1.Pod. */
export function generatePodSandboxConfig(pod: Pod, attempt: number): PodSandboxConfig {
  const { name, namespace = "", uid = "" } = pod.metadata;
  return {
    metadata: { name, namespace, uid, attempt },
    hostname: name,
    logDirectory: `/var/log/pods/${namespace}_${name}_${uid}`,
    labels: newPodLabels(pod),
    annotations: newPodAnnotations(pod),
    linux: {
      securityContext: {
        namespaceOptions: { network: NetworkNamespaceForPod(pod), pid: PidNamespaceForPod(pod), ipc: IpcNamespaceForPod(pod) },
      },
    },
  };
}

/** createPodSandbox creates a pod sandbox and returns (podSandBoxID, message, error). */
export function* createPodSandbox(m: ManagerContext, pod: Pod, attempt: number): Proc<{ id: string; msg: string; err: CriError | null }> {
  const podSandboxConfig = generatePodSandboxConfig(pod, attempt);
  // Simplified: no runtime classes, so the runtime handler is always the default "".
  const id = yield* m.runtimeService.RunPodSandbox(podSandboxConfig, "");
  if (id instanceof CriError) {
    return { id: "", msg: `Failed to create sandbox for pod ${JSON.stringify(formatPod(pod))}: ${id.message}`, err: id };
  }
  return { id, msg: "", err: null };
}

/** getKubeletSandboxes lists all (or just the running) sandboxes. */
export function* getKubeletSandboxes(m: ManagerContext, all: boolean): Proc<PodSandbox[] | CriError> {
  const filter = all ? null : { state: "SANDBOX_READY" as PodSandboxState };
  return yield* m.runtimeService.ListPodSandbox(filter);
}

/** determinePodSandboxIPs determines the IP addresses of the given pod sandbox. */
export function determinePodSandboxIPs(podSandbox: CriSandboxStatus): string[] {
  const podIPs: string[] = [];
  if (podSandbox.network === undefined) return podIPs;
  // ip could be an empty string if runtime is not responsible for the IP (e.g., host networking).
  if (podSandbox.network.ip.length !== 0) podIPs.push(podSandbox.network.ip);
  for (const extra of podSandbox.network.additionalIps) podIPs.push(extra.ip);
  return podIPs;
}

/** getSandboxIDByPodUID gets the sandbox IDs of a pod, newest first (podSandboxByCreated). */
export function* getSandboxIDByPodUID(m: ManagerContext, podUID: string, state: PodSandboxState | null): Proc<string[] | CriError> {
  const filter = { labelSelector: { [KubernetesPodUIDLabel]: podUID }, ...(state === null ? {} : { state }) };
  const sandboxes = yield* m.runtimeService.ListPodSandbox(filter);
  if (sandboxes instanceof CriError) return sandboxes;
  // Sort with newest first; a stable sort keeps the runtime's order among equal creation times.
  return [...sandboxes].sort((a, b) => b.createdAtMs - a.createdAtMs).map((s) => s.id);
}
