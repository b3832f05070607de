// Models pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer's grace arithmetic, setTerminationGracePeriod), v1.29 line.
//
// killContainer itself waits (preStop hook, termination ordering, StopContainer) and belongs to the
// SyncPod process; this is the arithmetic it does around the waits, with the waited times as inputs.
import type { Container, Pod } from "../../k8s/pod.ts";
import { reasonLivenessProbe, reasonStartupProbe, type ContainerKillReason } from "./pod_actions.ts";

/** A minimal shutdown window for avoiding unnecessary SIGKILLs. */
export const minimumGracePeriodInSeconds = 2;

/**
 * setTerminationGracePeriod determines the grace period to use when killing a container: the
 * pod's deletion grace period if it is being deleted, else a probe-level grace period for a
 * liveness/startup kill, else the pod's terminationGracePeriodSeconds.
 */
export function setTerminationGracePeriod(pod: Pod, containerSpec: Container, reason: ContainerKillReason): number {
  if (pod.metadata.deletionGracePeriodSeconds != null) return pod.metadata.deletionGracePeriodSeconds;
  if (pod.spec.terminationGracePeriodSeconds != null) {
    // A probe-level value may exceed the pod-level one; upstream only logs that.
    const probeGrace =
      reason === reasonStartupProbe
        ? containerSpec.startupProbe?.terminationGracePeriodSeconds
        : reason === reasonLivenessProbe
          ? containerSpec.livenessProbe?.terminationGracePeriodSeconds
          : undefined;
    if (probeGrace != null) return probeGrace;
    return pod.spec.terminationGracePeriodSeconds;
  }
  return minimumGracePeriodInSeconds;
}

export interface KillGraceInputs {
  pod: Pod;
  containerSpec: Container;
  reason: ContainerKillReason;
  /** Only hard-kill paths (eviction) pass one. */
  gracePeriodOverride?: number | null;
  /** How long the preStop hook ran; upstream truncates it to whole seconds. */
  preStopElapsedMs?: number;
  /** How long the sidecar termination ordering made this container wait, if ordering applies. */
  orderingWaitMs?: number;
}

export interface KillGrace {
  /** The grace period before the preStop hook (after any override). */
  gracePeriodSeconds: number;
  /** Whether the preStop hook runs: there is one and there is time for it. */
  runPreStop: boolean;
  /** executePreStopHook waits at most the whole grace period for the hook. */
  preStopTimeoutMs: number;
  /** What is left after the hook, before the minimum: the termination ordering waits at most this long, and only if it is > 0. */
  graceAfterPreStopSeconds: number;
  /** What StopContainer gets: the rest after the hook and ordering, at least 2 s. */
  stopGracePeriodSeconds: number;
}

/** The grace arithmetic of killContainer, without the waiting: the hook and ordering times come in. */
export function killContainerGrace(inputs: KillGraceInputs): KillGrace {
  const { pod, containerSpec, reason } = inputs;
  let gracePeriod = setTerminationGracePeriod(pod, containerSpec, reason);
  if (inputs.gracePeriodOverride != null) gracePeriod = inputs.gracePeriodOverride;
  const initial = gracePeriod;
  // Run the pre-stop lifecycle hook if applicable and if there is enough time to run it.
  const runPreStop = containerSpec.lifecycle?.preStop != null && gracePeriod > 0;
  if (runPreStop) gracePeriod -= Math.trunc((inputs.preStopElapsedMs ?? 0) / 1000);
  const graceAfterPreStopSeconds = gracePeriod;
  // If termination ordering applies, wait for this container's turn if there is time remaining;
  // the time waited is truncated downward to whole seconds.
  if (inputs.orderingWaitMs !== undefined && gracePeriod > 0) gracePeriod -= Math.trunc(inputs.orderingWaitMs / 1000);
  // Always give containers a minimal shutdown window to avoid unnecessary SIGKILLs.
  if (gracePeriod < minimumGracePeriodInSeconds) gracePeriod = minimumGracePeriodInSeconds;
  return {
    gracePeriodSeconds: initial,
    runPreStop,
    preStopTimeoutMs: Math.max(initial, 0) * 1000,
    graceAfterPreStopSeconds,
    stopGracePeriodSeconds: gracePeriod,
  };
}

/** killContainer's default message when the caller gives none. */
export function killContainerMessage(containerSpec: Container, message: string): string {
  return message.length === 0 ? `Stopping container ${containerSpec.name}` : message;
}
