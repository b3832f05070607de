// Models pkg/kubelet/kubelet_pods.go getPhase (1.21–1.35 forms), kept apart from generateAPIPodStatus
// so each file stays small. The release differences are KubeletPodsEra flags.
//
// From 1.33.0 (#128516) getPhase takes (logger, pod, info, podIsTerminal, podHasInitialized) and the
// restartable-init guard reads !podHasInitialized in place of !HasAnyRegularContainerStarted(spec,
// info). Read in upstream kubernetes/kubernetes pkg/kubelet/kubelet_pods.go @001a80e975bb (the newer
// line, 5 arguments) against @df5f02437d38 and @aba588cd14e0 (3 arguments, 1.31 and early 1.33
// development); shipped in v1.33.0 (CHANGELOG-1.33.md @2e94b405, no cherry-pick found). Not
// modelled: the ContainerRestartRules / RestartAllContainersOnContainerExits branches of the newer
// line (alpha gates, off by default).
import type { ContainerStatus, Pod, PodPhase } from "../k8s/pod.ts";
import { isRestartableInitContainer, podRestartPolicy } from "../k8s/podutil.ts";
import type { KubeletPodsEra } from "./kubelet_pods.ts";
import { IsStaticPod } from "./types.ts";

/**
 * getPhase returns the phase of a pod given its container info. podHasInitialized is the 1.33+
 * argument (#128516), which generateAPIPodStatus reads from the runtime (the era is the model's own
 * last argument, so the new one comes after it); earlier releases take no such argument and ignore it.
 */
export function getPhase(pod: Pod, info: readonly ContainerStatus[], podIsTerminal: boolean, era: KubeletPodsEra, podHasInitialized?: boolean): PodPhase {
  const spec = pod.spec;
  const restartPolicy = podRestartPolicy(pod);
  const sidecars = era.restartableInitContainers;
  const n = { pendingRegularInit: 0, pendingRestartableInit: 0, failedInitialization: 0, unknown: 0, running: 0, waiting: 0, stopped: 0, succeeded: 0 };
  for (const container of spec.initContainers ?? []) {
    if (sidecars && isRestartableInitContainer(container)) continue; // Handled with the regular containers below.
    countRegularInit(n, getContainerStatus(info, container.name));
  }
  for (const container of sidecars ? (spec.initContainers ?? []).filter(isRestartableInitContainer) : []) {
    countRestartableInit(n, getContainerStatus(info, container.name));
  }
  for (const container of spec.containers) countRegular(n, getContainerStatus(info, container.name));
  if (n.failedInitialization > 0 && restartPolicy === "Never") return "Failed";
  // ≥1.28: a pod whose regular containers have run is not put back to Pending by a restarting
  // sidecar; before 1.32 the same excuse covered regular init containers too (#126653). ≥1.33
  // (#128516): only a regular container of the active sandbox counts (the caller's
  // podHasInitialized), so after a sandbox re-creation the old sandbox's app no longer does.
  const excused = sidecars && (era.podHasInitializedArg ? givenPodHasInitialized(podHasInitialized) : hasAnyRegularContainerStarted(pod, info));
  const pendingInit = era.splitPendingInit
    ? n.pendingRegularInit > 0 || (n.pendingRestartableInit > 0 && !excused)
    : n.pendingRegularInit + n.pendingRestartableInit > 0 && !excused;
  if (pendingInit || n.waiting > 0) return "Pending";
  if (n.running > 0 && n.unknown === 0) return "Running"; // All started, at least one running.
  if (n.running === 0 && n.stopped > 0 && n.unknown === 0) {
    // The pod is terminal so its containers won't be restarted regardless of the restart policy.
    if (era.podIsTerminal && podIsTerminal && !IsStaticPod(pod)) return n.stopped === n.succeeded ? "Succeeded" : "Failed";
    if (restartPolicy === "Always") return "Running"; // All containers are in the process of restarting.
    if (n.stopped === n.succeeded) return "Succeeded";
    if (restartPolicy === "Never") return "Failed";
    return "Running"; // OnFailure, at least one in failure and in the process of restarting.
  }
  return "Pending";
}

/** The 1.33+ getPhase has no default for podHasInitialized: a caller that forgets it is a bug. */
function givenPodHasInitialized(podHasInitialized: boolean | undefined): boolean {
  if (podHasInitialized === undefined) throw new Error("getPhase: from 1.33 (#128516) the caller passes podHasInitialized");
  return podHasInitialized;
}

interface PhaseCounters {
  pendingRegularInit: number;
  pendingRestartableInit: number;
  failedInitialization: number;
  unknown: number;
  running: number;
  waiting: number;
  stopped: number;
  succeeded: number;
}

/** A regular init container: running or not yet run is pending; a non-zero exit (now or last) failed. */
function countRegularInit(n: PhaseCounters, cs: ContainerStatus | undefined): void {
  const st = cs?.state ?? {};
  if (cs === undefined || st.running) n.pendingRegularInit++;
  else if (st.terminated) n.failedInitialization += st.terminated.exitCode !== 0 ? 1 : 0;
  else if (st.waiting && cs.lastState?.terminated) n.failedInitialization += cs.lastState.terminated.exitCode !== 0 ? 1 : 0;
  else n.pendingRegularInit++;
}

/** A restartable init container (sidecar): pending until started; terminated ones do not count. */
function countRestartableInit(n: PhaseCounters, cs: ContainerStatus | undefined): void {
  const st = cs?.state ?? {};
  if (cs === undefined) n.unknown++;
  else if (st.running) {
    if (cs.started !== true) n.pendingRestartableInit++;
    n.running++;
  } else if (st.terminated || (st.waiting && cs.lastState?.terminated)) {
    // Terminated restartable init containers are not taken into account for the pod phase.
  } else if (st.waiting) {
    n.pendingRestartableInit++;
    n.waiting++;
  } else {
    n.pendingRestartableInit++;
    n.unknown++;
  }
}

/** A regular container: a waiting one with a last termination is stopped, never succeeded. */
function countRegular(n: PhaseCounters, cs: ContainerStatus | undefined): void {
  const st = cs?.state ?? {};
  if (cs === undefined) n.unknown++;
  else if (st.running) n.running++;
  else if (st.terminated) {
    n.stopped++;
    if (st.terminated.exitCode === 0) n.succeeded++;
  } else if (st.waiting) cs.lastState?.terminated ? n.stopped++ : n.waiting++;
  else n.unknown++;
}

/** podutil.GetContainerStatus: the first status with that name. */
function getContainerStatus(info: readonly ContainerStatus[], name: string): ContainerStatus | undefined {
  return info.find((s) => s.name === name);
}

/**
 * kubecontainer.HasAnyRegularContainerStarted (container/helpers.go, ≥1.28; 1.28–1.32 getPhase's
 * guard). Deprecated upstream by #128516: "not accurate when its pod sandbox is recreated".
 */
export function hasAnyRegularContainerStarted(pod: Pod, statuses: readonly ContainerStatus[]): boolean {
  const names = new Set(pod.spec.containers.map((c) => c.name));
  return statuses.some((s) => names.has(s.name) && (s.state?.running !== undefined || s.state?.terminated !== undefined));
}
