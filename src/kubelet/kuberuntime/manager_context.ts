// What every part of the runtime manager process shares: the fields of upstream's
// kubeGenericRuntimeManager struct that SyncPod, startContainer and killContainer read
// (pkg/kubelet/kuberuntime/kuberuntime_manager.go), and the trace they write.
import type { Sim } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import { podKey } from "../../k8s/podutil.ts";
import type { ImageManagerService, RuntimeService } from "../../cri/services.ts";
import type { EventRecorder } from "./events.ts";
import type { ImageManager } from "./image_manager.ts";
import type { HandlerRunner } from "./lifecycle_handlers.ts";

export const TRACE_COMPONENT = "kuberuntime";

/** podStateProvider: what the pod workers know about a pod's termination. */
export interface PodStateProvider {
  IsPodTerminationRequested(uid: string): boolean;
}

export const noTerminationRequested: PodStateProvider = { IsPodTerminationRequested: () => false };

export interface ManagerContext {
  readonly sim: Sim;
  /** The ContainerID type ("containerd"). */
  readonly runtimeName: string;
  readonly runtimeService: RuntimeService;
  readonly imageService: ImageManagerService;
  readonly recorder: EventRecorder;
  readonly imagePuller: ImageManager;
  readonly runner: HandlerRunner;
  readonly podStateProvider: PodStateProvider;
  /** The process group of the goroutines the manager spawns (a kubelet restart kills them). */
  readonly group: string;
  /**
   * ≥1.24 (#107670, #108325): GetPodStatus skips a container or sandbox that vanished between
   * the listing and its status call (NotFound). Before, the NotFound failed GetPodStatus, so the
   * PLEG stored an error for the pod and held back its events (issue #107483).
   */
  readonly skipVanishedOnStatus: boolean;
  /**
   * ≥1.33.0 (#128516, no cherry-pick found): GetPodStatus fills PodStatus.ActiveContainerStatuses,
   * the containers of the newest sandbox while it is ready, for getPhase's podHasInitialized.
   */
  readonly activeContainerStatuses: boolean;
  /** The EventedPLEG feature gate: GetPodStatus takes the runtime's PodSandboxStatus timestamp. */
  readonly eventedPLEG: boolean;
  /** ≥1.32.0 (#127195): PodStatus.TimeStamp is time.Now() or the runtime's stamp read as ns. */
  readonly podStatusTimestampFixed: boolean;
}

/** One trace record of the runtime manager; `pod` first when the step is about a pod. */
export function trace(m: ManagerContext, kind: string, pod: Pod | null, fields: Record<string, unknown> = {}): void {
  // Object.assign copies the fields in their order, as a spread would, at less cost in V8.
  m.sim.emit(TRACE_COMPONENT, kind, pod === null ? fields : Object.assign({ pod: podKey(pod) }, fields));
}
