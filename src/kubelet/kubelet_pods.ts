// Models pkg/kubelet/kubelet_pods.go (generateAPIPodStatus, getPhase, convertStatusToAPIStatus, convertToAPIContainerStatuses), 1.21–1.33 forms, with 1.35's Started kept over a kubelet restart.
//
// Pure functions: the kubelet's collaborators (status manager, probe manager, PodSyncHandlers) come
// in as hooks, the conditions from status/generate.ts, and nothing given is mutated. The release
// differences are KubeletPodsEra flags. Not modelled: resize conditions and the CRI's reported
// resources (InPlacePodVerticalScaling: a status's resources are the spec's), volume mount statuses
// (RecursiveReadOnlyMounts), the container user (the simulated CRI reports none), the allocated
// resources health status, ObservedGeneration. getPhase is in kubelet_pods_phase.ts; from 1.33.0
// (#128516) generateAPIPodStatus passes it podHasInitialized =
// kubecontainer.HasAnyActiveRegularContainerStarted(&pod.Spec, podStatus), as upstream
// kubelet_pods.go @001a80e975bb does (shipped in v1.33.0: CHANGELOG-1.33.md @2e94b405; no
// cherry-pick found).
import type { Container, ContainerStatus, Pod, PodCondition, PodPhase, PodStatus as APIPodStatus } from "../k8s/pod.ts";
import { HasAnyActiveRegularContainerStarted, ephemeralContainerCommon } from "./container/helpers.ts";
import { atLeast, checkedKubeletVersion, type KubeletVersion, type VersionLike } from "./version.ts";
import type { PodStatus } from "./container/runtime.ts";
import { convertToAPIContainerStatuses, type ContainerStatusesDeps } from "./kubelet_pods_container_statuses.ts";
import { PodSandboxChanged } from "./kuberuntime/util/util.ts";
import { statusEraOf } from "./status/era.ts";
import { GenerateContainersReadyCondition, GeneratePodInitializedCondition, GeneratePodReadyCondition } from "./status/generate.ts";
import { GetPodQOS } from "../k8s/qos.ts";
import { setHostIP, sortPodIPs } from "./kubelet_pods_ips.ts";
import { getPhase } from "./kubelet_pods_phase.ts";
import { ReplaceOrAppendPodCondition } from "./status/status_helpers.ts";
import { cloneJSON } from "../k8s/json.ts";

export { GetNodeHostIPs, sortPodIPs } from "./kubelet_pods_ips.ts";
export { getPhase, hasAnyRegularContainerStarted } from "./kubelet_pods_phase.ts";
export {
  ContainerCreating,
  ContainerReasonStatusUnknown,
  PodInitializing,
  convertToAPIContainerStatuses,
} from "./kubelet_pods_container_statuses.ts";

/** Which form of this file a kubelet minor runs ("≈": inferred from PR dates, not read in a release). */
export interface KubeletPodsEra {
  minor: number;
  version: KubeletVersion;
  /** ≥1.22 (#102344): the status manager's status is the basis; phase reason/message are kept; eviction no longer returns early. */
  statusManagerBasis: boolean;
  /** ≥1.23 ≈ (#105462): a terminal phase in the status manager or the API is kept (three-way merge). */
  terminalPhaseMerge: boolean;
  /** ≥1.24 (#107845): a created-but-not-started container is Waiting; before, Terminated with its exit code. */
  createdIsWaiting: boolean;
  /**
   * ≥1.20 ≈ (#95561 and #95364, merged after 1.19.0, release note NONE): a container that was running
   * and is now unknown or gone from the runtime is reported as terminated (ContainerStatusUnknown,
   * 137); before, it fell back to the default Waiting state and the pod went back to Pending (race R13).
   */
  missingStatusesInferred: boolean;
  /** ≥1.27 (#115331): podIsTerminal makes all-stopped containers Succeeded/Failed whatever the restart policy. */
  podIsTerminal: boolean;
  /** ≥1.28 (KEP-753): restartable init containers (sidecars) count apart, with HasAnyRegularContainerStarted. */
  restartableInitContainers: boolean;
  /**
   * ≥1.32 (#126653, merged for 1.32, no cherry-pick found): getPhase counts pending regular and
   * restartable init containers apart, and only the restartable ones are excused once a regular
   * container has started; a running regular init container keeps the pod Pending (#126650).
   */
  splitPendingInit: boolean;
  /**
   * ≥1.29 (PodHostIPs beta, on by default; GA 1.30): status.hostIPs beside status.hostIP, and a
   * host-network pod's IPs are immutable once set, except that a missing second family is added
   * (#105320). Before, both node IPs were given at once, and only while the pod had no IP. ≈: the two
   * forms differ only on a dual-stack node, which no scenario declares.
   */
  hostIPsField: boolean;
  /** ≥1.26 (PodDisruptionConditions beta, on by default): DisruptionTarget is copied from the status manager's status. */
  copyDisruptionTarget: boolean;
  /** ≥1.33 (InPlacePodVerticalScaling beta, on by default): a container seen in the runtime reports resources. */
  containerStatusResources: boolean;
  /**
   * ≥1.33.0 (#128516, in the v1.33.0 release notes; no cherry-pick found): getPhase takes
   * podHasInitialized, which generateAPIPodStatus reads from the runtime's ActiveContainerStatuses
   * (HasAnyActiveRegularContainerStarted) in place of HasAnyRegularContainerStarted over the API
   * statuses. After a sandbox re-creation (a node reboot) the old sandbox's exited app no longer
   * keeps a pod with a restarting sidecar Running: it is Pending until an app container of the new
   * sandbox exists (#127793).
   */
  podHasInitializedArg: boolean;
  /** ≥1.35 (KEP-4781, ChangeContainerStatusOnKubeletRestart off by default): a running container takes Started from the old status of its name. */
  startedInheritedByName: boolean;
}

export function kubeletPodsEra(release: VersionLike): KubeletPodsEra {
  const v = checkedKubeletVersion(release, "kubeletPodsEra");
  return {
    minor: v.minor,
    version: v,
    statusManagerBasis: atLeast(v, "1.22"),
    terminalPhaseMerge: atLeast(v, "1.23"),
    createdIsWaiting: atLeast(v, "1.24"),
    missingStatusesInferred: atLeast(v, "1.20"),
    podIsTerminal: atLeast(v, "1.27"),
    restartableInitContainers: atLeast(v, "1.28"),
    splitPendingInit: atLeast(v, "1.32"),
    hostIPsField: atLeast(v, "1.29"),
    copyDisruptionTarget: atLeast(v, "1.26"),
    containerStatusResources: atLeast(v, "1.33"),
    podHasInitializedArg: atLeast(v, "1.33"),
    startedInheritedByName: atLeast(v, "1.35"),
  };
}

/** What generateAPIPodStatus reads from the rest of the kubelet. */
export interface GenerateAPIPodStatusDeps extends ContainerStatusesDeps {
  era: KubeletPodsEra;
  /** kl.statusManager.GetPodStatus(uid): the last status the kubelet computed, if any. */
  statusManagerPodStatus(uid: string): APIPodStatus | undefined;
  /** kl.probeManager.UpdatePodStatus: sets ready/started on the statuses of `s` in place. */
  probeManagerUpdatePodStatus?(pod: Pod, s: APIPodStatus): void;
  /** Overrides the kubelet-owned conditions, which by default come from status/generate.ts as upstream calls them. */
  generateKubeletConditions?(pod: Pod, podStatus: PodStatus, s: APIPodStatus): PodCondition[];
  /** The SidecarContainers feature gate, as status/generate.ts reads it. */
  sidecarContainers?: boolean;
  /** kl.PodSyncHandlers: the first ShouldEvict that says evict (active deadline), or null. */
  shouldEvict?(pod: Pod): { reason: string; message: string } | null;
  /** The node's IPs when the kubelet has an API client (getHostIPsAnyWay, at most one per family); unset leaves hostIP alone. */
  hostIPs?: readonly string[];
  /** kl.nodeIPs (--node-ip): the first one's family comes first in status.podIPs; none means IPv4. */
  nodeIPs?: readonly string[];
  /** PodReadyToStartContainersCondition gate: that condition type is then kubelet-owned too. */
  readyToStartContainersCondition?: boolean;
}

const isTerminal = (p: PodPhase | undefined): boolean => p === "Failed" || p === "Succeeded";

/** generateAPIPodStatus creates the final API pod status for a pod, given the internal pod status. */
export function generateAPIPodStatus(pod: Pod, podStatus: PodStatus, podIsTerminal: boolean, deps: GenerateAPIPodStatusDeps): APIPodStatus {
  const era = deps.era;
  // Use the previous pod status, or the api status, as the basis for this pod.
  const oldPodStatus = deps.statusManagerPodStatus(pod.metadata.uid ?? "") ?? pod.status ?? {};
  const apiPhase = pod.status?.phase;
  const s = convertStatusToAPIStatus(pod, podStatus, oldPodStatus, deps);
  const evict = deps.shouldEvict?.(pod) ?? null;
  if (!era.statusManagerBasis && evict !== null) {
    // ≤1.21: an eviction returns at once, without conditions or host IP.
    return { ...s, phase: "Failed", reason: evict.reason, message: evict.message };
  }
  // Calculate the next phase and preserve reason; ≥1.33 getPhase also learns whether a regular
  // container of the active sandbox exists.
  const allStatus = [...(s.containerStatuses ?? []), ...(s.initContainerStatuses ?? [])];
  const podHasInitialized = era.podHasInitializedArg ? HasAnyActiveRegularContainerStarted(pod.spec, podStatus) : undefined;
  s.phase = getPhase(pod, allStatus, podIsTerminal, era, podHasInitialized);
  if (era.terminalPhaseMerge && !isTerminal(s.phase)) {
    // Perform a three-way merge between the statuses from the status manager, runtime, and generated status.
    if (isTerminal(oldPodStatus.phase)) s.phase = oldPodStatus.phase;
    else if (isTerminal(apiPhase)) s.phase = apiPhase;
  }
  if (era.statusManagerBasis && s.phase === oldPodStatus.phase) {
    // Preserve the reason and message which is associated with the phase.
    setOrDelete(s, "reason", oldPodStatus.reason || pod.status?.reason);
    setOrDelete(s, "message", oldPodStatus.message || pod.status?.message);
  }
  if (evict !== null) Object.assign(s, { phase: "Failed", reason: evict.reason, message: evict.message });
  // Pods are not allowed to transition out of terminal phases: force back to the API server's phase.
  if (isTerminal(apiPhase) && s.phase !== apiPhase) s.phase = apiPhase;
  deps.probeManagerUpdatePodStatus?.(pod, s);
  // Copy over the pod disruption conditions from state which is already updated during the eviction
  // (not re-generated from container statuses: they are added on one-time events).
  const disruption = oldPodStatus.conditions?.find((c) => c.type === "DisruptionTarget");
  if (era.copyDisruptionTarget && disruption !== undefined) {
    s.conditions ??= [];
    ReplaceOrAppendPodCondition(s.conditions, cloneJSON(disruption));
  }
  // Set all Kubelet-owned conditions; when the kubelet sees the pod, PodScheduled must be true.
  const owned = deps.generateKubeletConditions?.(pod, podStatus, s) ?? kubeletConditions(pod, podStatus, s, deps);
  s.conditions = [...(s.conditions ?? []), ...owned, { type: "PodScheduled", status: "True" }];
  setHostIP(pod, s, deps.hostIPs, era.hostIPsField);
  return s;
}

/**
 * The status package's generators in upstream's order. Before 1.28 Initialized reads the init
 * container statuses and the readiness conditions the regular ones; from 1.28 all read both.
 */
function kubeletConditions(pod: Pod, podStatus: PodStatus, s: APIPodStatus, deps: GenerateAPIPodStatusDeps): PodCondition[] {
  const era = statusEraOf(deps.era.version);
  const opts = { sidecarContainers: deps.sidecarContainers === true, terminalPhaseNotReady: era.terminalPhaseNotReady, initializedOnceRegularStarted: era.initializedOnceRegularStarted };
  const all = [...(s.initContainerStatuses ?? []), ...(s.containerStatuses ?? [])];
  const forInit = deps.era.restartableInitContainers ? all : s.initContainerStatuses;
  const forReady = deps.era.restartableInitContainers ? all : s.containerStatuses;
  const out: PodCondition[] = [];
  if (deps.readyToStartContainersCondition === true) out.push(GeneratePodReadyToStartContainersCondition(pod, podStatus));
  out.push(GeneratePodInitializedCondition(pod, forInit, s.phase, opts));
  out.push(GeneratePodReadyCondition(pod, [...(s.conditions ?? []), ...out], forReady, s.phase, opts));
  out.push(GenerateContainersReadyCondition(pod, forReady, s.phase, opts));
  return out;
}

/**
 * status.GeneratePodReadyToStartContainersCondition (generate.go), kept with the pod status
 * generation because it reads the runtime's sandboxes: True unless a new sandbox is needed.
 */
export function GeneratePodReadyToStartContainersCondition(pod: Pod, podStatus: PodStatus): PodCondition {
  return { type: "PodReadyToStartContainers", status: PodSandboxChanged(pod, podStatus).changed ? "False" : "True" };
}

function setOrDelete(s: APIPodStatus, key: "reason" | "message", value: string | undefined): void {
  if (value) s[key] = value;
  else delete s[key];
}

/** The condition types the kubelet owns (read only: one set for every call, not one a call). */
const KUBELET_CONDITIONS: ReadonlySet<string> = new Set(["PodScheduled", "Ready", "Initialized", "ContainersReady"]);
/** With the PodReadyToStartContainersCondition gate. */
const KUBELET_CONDITIONS_WITH_READY_TO_START: ReadonlySet<string> = new Set([...KUBELET_CONDITIONS, "PodReadyToStartContainers"]);

/** convertStatusToAPIStatus initializes an API PodStatus from the internal pod status and the previous status. */
export function convertStatusToAPIStatus(pod: Pod, podStatus: PodStatus, oldPodStatus: APIPodStatus, deps: GenerateAPIPodStatusDeps): APIPodStatus {
  const s: APIPodStatus = {};
  // Make podIPs order match node IP family preference (#97979).
  const podIPs = sortPodIPs(podStatus.ips, deps.nodeIPs);
  if (podIPs.length > 0) {
    s.podIPs = podIPs.map((ip) => ({ ip }));
    s.podIP = podIPs[0]!;
  }
  // Set status for Pods created on versions of kube older than 1.6.
  s.qosClass = GetPodQOS(pod);
  const hasInit = (pod.spec.initContainers ?? []).length > 0;
  const convert = (prev: ContainerStatus[] | undefined, cs: Container[], isInit: boolean) =>
    convertToAPIContainerStatuses(pod, podStatus, prev ?? [], cs, hasInit, isInit, deps);
  s.containerStatuses = convert(oldPodStatus.containerStatuses, pod.spec.containers, false);
  // Empty lists are left out, as `omitempty` leaves them out of the API object.
  const init = convert(oldPodStatus.initContainerStatuses, pod.spec.initContainers ?? [], true);
  if (init.length > 0) s.initContainerStatuses = init;
  const ecSpecs = (pod.spec.ephemeralContainers ?? []).map(ephemeralContainerCommon);
  const ephemeral = convert(oldPodStatus.ephemeralContainerStatuses, ecSpecs, false);
  if (ephemeral.length > 0) s.ephemeralContainerStatuses = ephemeral;
  // Preserve conditions not owned by the kubelet (in convertStatusToAPIStatus ≤1.21, generateAPIPodStatus after).
  const byKubelet = deps.readyToStartContainersCondition === true ? KUBELET_CONDITIONS_WITH_READY_TO_START : KUBELET_CONDITIONS;
  s.conditions = (pod.status?.conditions ?? []).filter((c) => !byKubelet.has(c.type)).map((c) => cloneJSON(c));
  return s;
}
