// Expectations as the parsed scenario carries them (schema/expect.ts parses them).
import type { PodPhase } from "../../k8s/pod.ts";
import type { CountRange } from "./common.ts";

export const POD_CONDITION_TYPES = [
  "PodScheduled",
  "PodReadyToStartContainers",
  "Initialized",
  "ContainersReady",
  "Ready",
  "DisruptionTarget",
] as const;
export type PodConditionType = (typeof POD_CONDITION_TYPES)[number];

export type ConditionStatus = "True" | "False" | "Unknown";

/** Checks on one container's status. */
export interface ContainerCheck {
  name: string;
  state?: "waiting" | "running" | "terminated" | undefined;
  reason?: string | undefined;
  exitCode?: number | undefined;
  restartCount?: CountRange | undefined;
  ready?: boolean | undefined;
  started?: boolean | undefined;
}

/** An event recorded for the pod. */
export interface EventCheck {
  reason: string;
  message?: string | undefined;
  type?: "Normal" | "Warning" | undefined;
  count?: CountRange | undefined;
}

/** What is checked: pod fields, or a named invariant violation. */
export interface Condition {
  invariant?: string | undefined;
  pod?: string | undefined;
  phase?: PodPhase | undefined;
  gone?: boolean | undefined;
  conditions?: Partial<Record<PodConditionType, ConditionStatus>> | undefined;
  container?: ContainerCheck | undefined;
  event?: EventCheck | undefined;
}

export type Expectation =
  | { kind: "eventually"; condition: Condition; byMs: number | null }
  | { kind: "never"; condition: Condition }
  | { kind: "at"; atMs: number; condition: Condition };
