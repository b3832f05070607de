// Models pkg/kubelet/events/event.go (the event reasons, v1.29) and the record.EventRecorder the
// runtime manager writes to; this recorder writes each event into the trace.
//
// Simplified: no event aggregation or spam filtering (client-go's EventCorrelator); every Eventf
// is one trace record.
import type { Sim } from "../../sim/index.ts";
import type { Container, Pod } from "../../k8s/pod.ts";
import { findContainerByName, podKey } from "../../k8s/podutil.ts";

// Container event reason list
export const CreatedContainer = "Created";
export const StartedContainer = "Started";
export const FailedToCreateContainer = "Failed";
export const FailedToStartContainer = "Failed";
export const KillingContainer = "Killing";
export const PreemptContainer = "Preempting";
export const BackOffStartContainer = "BackOff";
/** Recorded by pod_workers.go's killPodNow when the runtime did not kill the pod in time, not by kuberuntime. */
export const ExceededGracePeriod = "ExceededGracePeriod";

// Pod event reason list
export const FailedToKillPod = "FailedKillPod";
export const FailedToCreatePodContainer = "FailedCreatePodContainer";
export const NetworkNotReady = "NetworkNotReady";

// Image event reason list
export const PullingImage = "Pulling";
export const PulledImage = "Pulled";
export const FailedToPullImage = "Failed";
export const FailedToInspectImage = "InspectFailed";
export const ErrImageNeverPullPolicy = "ErrImageNeverPull";
export const BackOffPullImage = "BackOff";

// Lifecycle hooks
export const FailedPostStartHook = "FailedPostStartHook";
export const FailedPreStopHook = "FailedPreStopHook";

// Sandbox event reason list
export const SandboxChanged = "SandboxChanged";
export const FailedCreatePodSandBox = "FailedCreatePodSandBox";
export const FailedStatusPodSandBox = "FailedPodSandBoxStatus";
export const FailedMountOnFilesystemMismatch = "FailedMountOnFilesystemMismatch";

export type EventType = "Normal" | "Warning";

/**
 * record.EventRecorder's Eventf, reduced: the involved object is the pod, and for container
 * events the fieldPath of kubecontainer.GenerateContainerRef ("spec.containers{app}").
 */
export interface EventRecorder {
  Eventf(pod: Pod, type: EventType, reason: string, message: string, fieldPath?: string): void;
}

/** An EventRecorder that writes each event as a trace record of kind "Event". */
export class TraceEventRecorder implements EventRecorder {
  constructor(
    private readonly sim: Sim,
    private readonly component = "kuberuntime",
  ) {}

  Eventf(pod: Pod, type: EventType, reason: string, message: string, fieldPath = ""): void {
    this.sim.emit(this.component, "Event", {
      pod: podKey(pod),
      ...(fieldPath === "" ? {} : { object: fieldPath }),
      type,
      reason,
      message,
    });
  }
}

/**
 * kubecontainer.GenerateContainerRef's fieldPath (pkg/kubelet/container/ref.go): where the
 * container sits in the pod spec, "spec.containers{app}", "spec.initContainers{init}", ...
 */
export function containerFieldPath(pod: Pod, container: Container): string {
  const found = findContainerByName(pod, container.name);
  return `spec.${found?.kind ?? "containers"}{${container.name}}`;
}
