// Says what the kubelet will do for one pod snapshot, and why, one line per action (the `actions` command).
//
// The decision is computePodActions'; this only words it, in SyncPod's order: kill the pod or
// single containers, create the sandbox, start ephemeral, init, then regular containers.
import type { Container, Pod } from "../k8s/pod.ts";
import { isRestartableInitContainer } from "../k8s/podutil.ts";
import { FindContainerStatusByName, type PodStatus, type Status } from "../kubelet/container/runtime.ts";
import { isInitContainerFailed } from "../kubelet/kuberuntime/helpers.ts";
import { computePodActions } from "../kubelet/kuberuntime/kuberuntime_manager.ts";
import type { PodActions } from "../kubelet/kuberuntime/pod_actions.ts";
import { PodSandboxChanged } from "../kubelet/kuberuntime/util/util.ts";
import type { PodActionsSnapshot } from "./pod_actions_vectors.ts";

export interface Explanation {
  actions: PodActions;
  lines: string[];
}

export function explainSnapshot(snap: PodActionsSnapshot): Explanation {
  const actions = computePodActions(snap.pod, snap.podStatus, snap.deps);
  return { actions, lines: explainPodActions(snap.pod, snap.podStatus, actions) };
}

export function explainPodActions(pod: Pod, podStatus: PodStatus, a: PodActions): string[] {
  const lines: string[] = [];
  if (a.KillPod) {
    const sandbox = a.SandboxID === "" ? "" : ` ${a.SandboxID}`;
    lines.push(`kill pod (every container and sandbox${sandbox}): ${killPodWhy(pod, podStatus, a)}`);
  } else {
    for (const k of a.ContainersToKill.values()) {
      lines.push(`kill container ${k.name} (id ${k.containerID.id}): ${k.message}`);
    }
  }
  if (a.CreateSandbox) {
    const why = PodSandboxChanged(pod, podStatus).why;
    const purge = a.KillPod && podStatus.sandboxStatuses.length > 0 ? "; init containers are purged and run again" : "";
    lines.push(`create sandbox (attempt ${a.Attempt}): ${why}${purge}`);
  }
  for (const i of a.EphemeralContainersToStart ?? []) {
    lines.push(`start ephemeral container ${pod.spec.ephemeralContainers![i]!.name}: not started yet (ephemeral containers never restart)`);
  }
  const inits = pod.spec.initContainers ?? [];
  if (a.NextInitContainerToStart !== null) lines.push(startLine("init container", a.NextInitContainerToStart, pod, podStatus, a));
  for (const i of a.InitContainersToStart ?? []) lines.push(startLine("init container", inits[i]!, pod, podStatus, a));
  for (const i of a.ContainersToStart) lines.push(startLine("container", pod.spec.containers[i]!, pod, podStatus, a));
  if (lines.length === 0) lines.push("nothing to do: the pod runs as specified");
  return lines;
}

function killPodWhy(pod: Pod, podStatus: PodStatus, a: PodActions): string {
  const sandbox = PodSandboxChanged(pod, podStatus);
  if (sandbox.changed) {
    if (a.CreateSandbox) return `${sandbox.why}; everything is recreated`;
    return `${sandbox.why}, but nothing is left to run, so no new sandbox is created`;
  }
  const failedInit = (pod.spec.initContainers ?? []).find((c) => {
    const s = FindContainerStatusByName(podStatus, c.name);
    return s !== undefined && isInitContainerFailed(s);
  });
  if (failedInit !== undefined && pod.spec.restartPolicy === "Never") {
    return `init container ${failedInit.name} failed and restartPolicy is Never`;
  }
  return "no container is running and none is to be started";
}

function startLine(kind: string, c: Container, pod: Pod, podStatus: PodStatus, a: PodActions): string {
  const status = FindContainerStatusByName(podStatus, c.name);
  const killed = status !== undefined && [...a.ContainersToKill.values()].some((k) => k.containerID.id === status.id.id);
  return `start ${kind} ${c.name}: ${startWhy(status, c, pod, a, killed)}`;
}

function startWhy(status: Status | undefined, c: Container, pod: Pod, a: PodActions, killed: boolean): string {
  if (a.CreateSandbox) return "the new sandbox starts from the beginning";
  if (killed) return "replaces the container killed above";
  if (status === undefined) return "not started yet";
  const policy = isRestartableInitContainer(c) ? "Always (sidecar)" : (pod.spec.restartPolicy ?? "Always (unset)");
  switch (status.state) {
    case "exited":
      return `exited with code ${status.exitCode}${status.reason ? ` (${status.reason})` : ""}; restartPolicy ${policy}`;
    case "created":
      return "created but never started; created containers are always restarted";
    case "unknown":
      return "state unknown; killed first, then restarted";
    default:
      return `last status ${status.state}`;
  }
}
