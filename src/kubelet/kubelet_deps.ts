// What the kubelet's main loop needs from its components, as narrow interfaces. The composition
// root (src/node/) wires the real apiserver config source, PLEG, pod cache, probers, status manager
// and runtime manager behind them; tests can wire fakes.
import type { Chan, Proc } from "../sim/index.ts";
import type { Pod, PodStatus as APIPodStatus } from "../k8s/pod.ts";
import type { PodStatus } from "./container/runtime.ts";
import type { GoError, RunningPod } from "./types.ts";
import type { EventRecorder, PodCacheReader } from "./pod_workers_types.ts";
import type { PodSyncResult } from "./kuberuntime/sync_result.ts";
import type { MirrorClient } from "./mirror_client.ts";
import type { CallContext } from "../cri/services.ts";
import type { PodAdmitResult } from "./lifecycle/admission.ts";
import type { Node } from "../k8s/node.ts";

/** kubetypes.PodUpdate as the config source delivers it. */
export interface PodUpdate {
  Pods: Pod[];
  Op: "ADD" | "UPDATE" | "DELETE" | "REMOVE" | "RECONCILE" | "SET" | "RESTORE";
  Source: string;
}

/** pleg.PodLifecycleEvent */
export interface PodLifecycleEvent {
  ID: string;
  Type: "ContainerStarted" | "ContainerDied" | "ContainerRemoved" | "PodSync" | "ContainerChanged";
  Data: unknown;
}

/** proberesults.Update */
export interface ProbeResultUpdate {
  ContainerID: string;
  Result: "Success" | "Failure" | "Unknown";
  PodUID: string;
}

export interface ProbeResultsManager {
  Updates(): Chan<ProbeResultUpdate>;
}

export interface ProbeManager {
  AddPod(pod: Pod): void;
  RemovePod(pod: Pod): void;
  StopLivenessAndStartup(pod: Pod): void;
  /** Returns how many workers it stopped. */
  CleanupPods(desiredPodUIDs: ReadonlySet<string>): number;
  /** A change count of the workers and results (housekeeping_reuse.ts); absent: never reuse. */
  readonly generation?: number;
}

export interface StatusManager {
  SetPodStatus(pod: Pod, status: APIPodStatus): void;
  GetPodStatus(uid: string): APIPodStatus | undefined;
  TerminatePod(pod: Pod): void;
  SetContainerReadiness(podUID: string, containerID: string, ready: boolean): void;
  SetContainerStartup(podUID: string, containerID: string, started: boolean): void;
  RemoveOrphanedStatuses(podUIDs: ReadonlySet<string>): void;
  /** A change count of the status cache (housekeeping_reuse.ts); absent: never reuse. */
  readonly generation?: number;
}

/** kubecontainer.Runtime as the kubelet calls it: (value, err) pairs as in Go. */
export interface ContainerRuntime {
  /** ctx: what of the pod worker's context reaches the runtime (null: nothing, context.WithoutCancel). */
  SyncPod(pod: Pod, podStatus: PodStatus, ctx?: CallContext | null): Proc<PodSyncResult>;
  /** pod is null for an orphan: the runtime manager restores grace and hooks from container labels. */
  KillPod(pod: Pod | null, runningPod: RunningPod, gracePeriodOverride: number | undefined): Proc<GoError>;
  GetPodStatus(uid: string, name: string, namespace: string): Proc<[PodStatus | null, GoError]>;
  /** GetPods(all=false): the pods with running containers or ready sandboxes. */
  GetPods(all: boolean): Proc<[RunningPod[], GoError]>;
  /** DeleteContainer, for the pod container deletor. */
  RemoveContainer(containerID: string): Proc<GoError>;
}

export interface PodStatusGenerator {
  /** generateAPIPodStatus(pod, podStatus, podIsTerminal). */
  generateAPIPodStatus(pod: Pod, podStatus: PodStatus, podIsTerminal: boolean): APIPodStatus;
  /**
   * Not upstream: a change count of everything generateAPIPodStatus and the status manager's
   * SetPodStatus read besides their arguments (kubelet/status_reuse.ts says what); undefined when
   * the pod's status depends on the time, or absent (fakes): the status is generated every time.
   */
  generation?(pod: Pod): number | undefined;
}

export interface ReasonCacheWriter {
  Update(uid: string, result: PodSyncResult): void;
}

export interface PLEGWatcher {
  Watch(): Chan<PodLifecycleEvent>;
}

/** KubeletConfiguration fields the loops use, in virtual ms where they are durations. */
export interface KubeletConfig {
  /** "1.21" behaves like the pre-rewrite kubelet; anything later like the current one. */
  version: string;
  syncFrequencyMs: number;
  housekeepingPeriodMs: number;
  /** The kubelet's own Node (labels, taints, allocatable with maxPods as its pod count): what admission checks against. */
  node: Node;
  /**
   * getNodeAnyWay, when the kubelet has a Node object to read (a cluster): the node as its node
   * informer last saw it, `node` when it has none. Without it admission reads `node` alone.
   */
  getNode?: () => Node;
  /** SidecarContainers: admission adds a sidecar's requests to the pod's. */
  sidecarContainers: boolean;
  /** Network plugin readiness (runtimeState.networkErrors). */
  networkReady: () => boolean;
  /** runtimeState.runtimeErrors: syncLoop skips pod synchronization, backing off, while it is not null. */
  runtimeErrors: () => GoError;
  /** Virtual time that volume setup and cgroup creation take in SyncPod (steps not otherwise modelled). */
  volumeSetupMs: number;
  cgroupSetupMs: number;
}

export interface KubeletDeps {
  configUpdates: Chan<PodUpdate>;
  pleg: PLEGWatcher;
  podCache: PodCacheReader;
  runtime: ContainerRuntime;
  statusManager: StatusManager;
  statusGenerator: PodStatusGenerator;
  reasonCache: ReasonCacheWriter;
  probeManager: ProbeManager;
  livenessManager: ProbeResultsManager;
  readinessManager: ProbeResultsManager;
  startupManager: ProbeResultsManager;
  recorder: EventRecorder;
  /** The container back-off's GC (flowcontrol.Backoff.GC), run by housekeeping. */
  backOffGC: () => void;
  /** Creates and replaces the mirror pods of static pods in the apiserver. */
  mirrorClient: MirrorClient;
  /** The pod container deletor, fed by syncLoop on ContainerDied. */
  containerDeletor: { deleteContainersInPod(filterContainerID: string, podStatus: PodStatus, removeAll: boolean): void };
  /** kl.admitHandlers before the predicate admit handler (the device manager's allocation); none when unset. */
  admitHandlers?: readonly { Admit(pod: Pod): PodAdmitResult }[];
  /** kl.PodSyncLoopHandlers: pods a handler wants synced now (the active deadline handler); none when unset. */
  podSyncLoopHandlers?: readonly { ShouldSync(pod: Pod): boolean }[];
}
