// Models pkg/kubelet/pleg/pleg.go (PodLifeCycleEventType, PodLifecycleEvent, RelistDuration, PodLifecycleEventGenerator).
import type { Chan } from "../../sim/index.ts";
import type { GoError } from "../types.ts";

/** PodLifeCycleEventType: the event types, spelled as upstream's string constants. */
export type PodLifeCycleEventType = "ContainerStarted" | "ContainerDied" | "ContainerRemoved" | "PodSync" | "ContainerChanged";

/** ContainerStarted - event type when the new state of container is running. */
export const ContainerStarted: PodLifeCycleEventType = "ContainerStarted";
/** ContainerDied - event type when the new state of container is exited. */
export const ContainerDied: PodLifeCycleEventType = "ContainerDied";
/** ContainerRemoved - event type when the old state of container is exited. */
export const ContainerRemoved: PodLifeCycleEventType = "ContainerRemoved";
/**
 * PodSync is used to trigger syncing of a pod when the observed change of the state of the pod
 * cannot be captured by any single event above. The generic PLEG never emits it.
 */
export const PodSync: PodLifeCycleEventType = "PodSync";
/** ContainerChanged - event type when the new state of container is unknown. */
export const ContainerChanged: PodLifeCycleEventType = "ContainerChanged";

/**
 * PodLifecycleEvent is an event that reflects the change of the pod state. Field names are
 * upstream's, so the kubelet's syncLoopIteration reads `e.ID`, `e.Type`, `e.Data` as in Go.
 */
export interface PodLifecycleEvent {
  /** The pod UID. */
  readonly ID: string;
  readonly Type: PodLifeCycleEventType;
  /** For container events, the runtime's container ID (ContainerID.ID, without the type prefix). */
  readonly Data: unknown;
}

/**
 * RelistDuration (≥1.26 ≈, with Evented PLEG #111384; before it the same two values were a period argument
 * and the relistThreshold constant of generic.go). The threshold needs to be greater than the
 * relisting period + the relisting time, which can vary significantly.
 */
export interface RelistDuration {
  relistPeriodMs: number;
  relistThresholdMs: number;
}

/** kubelet.go plegChannelCapacity: "a bit arbitrary and may be adjusted in the future". */
export const plegChannelCapacity = 1000;
/** kubelet.go plegRelistPeriod (genericPlegRelistPeriod from ≈1.26). */
export const plegRelistPeriodMs = 1000;
/** generic.go relistThreshold (genericPlegRelistThreshold from ≈1.26). */
export const relistThresholdMs = 3 * 60 * 1000;

/** Healthy()'s (bool, error). */
export interface HealthResult {
  ok: boolean;
  err: GoError;
}

/** PodLifecycleEventGenerator contains functions for generating pod life cycle events. */
export interface PodLifecycleEventGenerator {
  Start(): void;
  Stop(): void;
  Watch(): Chan<PodLifecycleEvent>;
  Healthy(): HealthResult;
}
