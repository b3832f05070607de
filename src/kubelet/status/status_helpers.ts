// Models pkg/kubelet/status/status_manager.go: its pure helpers (checkContainerStateTransition, normalizeStatus, mergePodStatus, ...).
//
// Also holds the few helpers of other packages these call: kubetypes.PodConditionByKubelet and
// the status sorters (pkg/kubelet/types/pod_status.go, types.go), podutil.UpdatePodCondition, and
// apimachinery's Semantic.DeepEqual (pkg/api/equality) for statuses.
// Functions that Go writes as mutations of a *v1.PodStatus mutate the object they are given;
// callers hand them a private copy, never a cached or API object.
import type { ContainerState, ContainerStatus, Pod, PodCondition, PodPhase, PodStatus, RestartPolicy } from "../../k8s/pod.ts";
import { metav1Now, rfc3339Copy } from "./metatime.ts";
import { isRestartableInitContainer } from "../../k8s/podutil.ts";
import { readyConditionForTerminalPhase } from "./generate.ts";
import type { StatusEra } from "./era.ts";
import { cloneJSON } from "../../k8s/json.ts";

/** kubecontainer.MaxPodTerminationMessageLogLength: 12 KiB shared by all of a pod's containers. */
export const MaxPodTerminationMessageLogLength = 1024 * 12;

/** The condition types whose LastTransitionTime updateStatusInternal maintains, in upstream order. */
export const TRANSITION_TIME_CONDITIONS = [
  "ContainersReady",
  "Ready",
  "Initialized",
  // Named PodHasNetwork in 1.25–1.27; updateLastTransitionTime does nothing for an absent condition.
  "PodReadyToStartContainers",
  "PodHasNetwork",
  "PodScheduled",
  "DisruptionTarget",
] as const;

/**
 * kubetypes.PodConditionByKubelet. PodReadyToStartContainers (PodHasNetwork before 1.28) counts
 * only when its gate is on upstream; a kubelet with the gate off never writes it, so it is listed
 * here unconditionally.
 */
export function PodConditionByKubelet(type: string): boolean {
  return (
    type === "PodScheduled" ||
    type === "Ready" ||
    type === "Initialized" ||
    type === "ContainersReady" ||
    type === "PodReadyToStartContainers" ||
    type === "PodHasNetwork"
  );
}

/** kubetypes.PodConditionSharedByKubelet: DisruptionTarget, once PodDisruptionConditions is on (era.ts). */
export function PodConditionSharedByKubelet(type: string, era: Pick<StatusEra, "disruptionTargetShared">): boolean {
  return era.disruptionTargetShared && type === "DisruptionTarget";
}

/** podutil.IsPodPhaseTerminal */
export function IsPodPhaseTerminal(phase: PodPhase | undefined): boolean {
  return phase === "Failed" || phase === "Succeeded";
}

/**
 * checkContainerStateTransition ensures that no container is trying to transition from a
 * terminated to non-terminated state, which is illegal and indicates a logical error in the
 * kubelet. Returns the Go error's text, or null.
 */
export function checkContainerStateTransition(
  oldStatuses: readonly ContainerStatus[] | undefined,
  newStatuses: readonly ContainerStatus[] | undefined,
  restartPolicy: RestartPolicy | undefined,
): string | null {
  // If we should always restart, containers are allowed to leave the terminated state.
  if (restartPolicy === "Always") return null;
  for (const oldStatus of oldStatuses ?? []) {
    // Skip any container that wasn't terminated.
    const terminated = oldStatus.state?.terminated;
    if (terminated === undefined) continue;
    // Skip any container that failed but is allowed to restart.
    if (terminated.exitCode !== 0 && restartPolicy === "OnFailure") continue;
    for (const newStatus of newStatuses ?? []) {
      if (oldStatus.name === newStatus.name && newStatus.state?.terminated === undefined) {
        return `terminated container ${newStatus.name} attempted illegal transition to non-terminated state`;
      }
    }
  }
  return null;
}

/**
 * The init-container half of checkContainerStateTransition from 1.30 (#123323): each old status is
 * matched to the spec by index (kubeutil.GetContainerByIndex), and restartable init containers
 * (sidecars) are skipped, as they are always allowed to restart.
 */
export function checkInitContainerStateTransition(
  oldStatuses: readonly ContainerStatus[] | undefined,
  newStatuses: readonly ContainerStatus[] | undefined,
  pod: Pod,
): string | null {
  const restartPolicy = pod.spec.restartPolicy;
  if (restartPolicy === "Always") return null;
  const initContainers = pod.spec.initContainers ?? [];
  const olds = oldStatuses ?? [];
  for (let i = 0; i < olds.length; i++) {
    const oldStatus = olds[i]!;
    const initContainer = i < initContainers.length && initContainers[i]!.name === oldStatus.name ? initContainers[i]! : undefined;
    if (initContainer === undefined) return `found mismatch between pod spec and status, container: ${oldStatus.name}`;
    // Skip any restartable init container as it always is allowed to restart.
    if (isRestartableInitContainer(initContainer)) continue;
    const terminated = oldStatus.state?.terminated;
    if (terminated === undefined) continue;
    if (terminated.exitCode !== 0 && restartPolicy === "OnFailure") continue;
    for (const newStatus of newStatuses ?? []) {
      if (oldStatus.name === newStatus.name && newStatus.state?.terminated === undefined) {
        return `terminated init container ${newStatus.name} attempted illegal transition to non-terminated state`;
      }
    }
  }
  return null;
}

/** updateLastTransitionTime: now if the condition's status changed (or it is new), else the old time. */
export function updateLastTransitionTime(status: PodStatus, oldStatus: PodStatus, conditionType: string, nowMs: number): void {
  const condition = status.conditions?.find((c) => c.type === conditionType);
  if (condition === undefined) return;
  let lastTransitionTime: string | null | undefined = metav1Now(nowMs);
  const oldCondition = oldStatus.conditions?.find((c) => c.type === conditionType);
  if (oldCondition !== undefined && condition.status === oldCondition.status) {
    lastTransitionTime = oldCondition.lastTransitionTime;
  }
  condition.lastTransitionTime = lastTransitionTime;
}

/**
 * normalizeStatus truncates timestamps to whole seconds (the apiserver's precision), trims
 * termination messages to the pod's share of MaxPodTerminationMessageLogLength, and sorts the
 * container statuses so that order never makes two statuses differ. Simplified: messages are cut
 * by UTF-16 units, Go cuts bytes.
 */
export function normalizeStatus(pod: Pod, status: PodStatus, ephemeral = false): PodStatus {
  const containers = pod.spec.containers.length + (pod.spec.initContainers?.length ?? 0) + (ephemeral ? (pod.spec.ephemeralContainers?.length ?? 0) : 0);
  const bytesPerStatus = containers > 0 ? Math.floor(MaxPodTerminationMessageLogLength / containers) : MaxPodTerminationMessageLogLength;
  const normalizeContainerState = (c: ContainerState | undefined): void => {
    if (c?.running !== undefined) setTime(c.running, "startedAt");
    if (c?.terminated !== undefined) {
      setTime(c.terminated, "startedAt");
      setTime(c.terminated, "finishedAt");
      const msg = c.terminated.message;
      if (msg !== undefined && msg.length > bytesPerStatus) c.terminated.message = msg.slice(0, bytesPerStatus);
    }
  };
  if (status.startTime != null) status.startTime = rfc3339Copy(status.startTime);
  for (const condition of status.conditions ?? []) {
    setTime(condition, "lastProbeTime");
    setTime(condition, "lastTransitionTime");
  }
  for (const s of status.containerStatuses ?? []) {
    normalizeContainerState(s.state);
    normalizeContainerState(s.lastState);
  }
  // Sort the container statuses, so that the order won't affect the result of comparison.
  status.containerStatuses?.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const s of status.initContainerStatuses ?? []) {
    normalizeContainerState(s.state);
    normalizeContainerState(s.lastState);
  }
  if (status.initContainerStatuses !== undefined) SortInitContainerStatuses(pod, status.initContainerStatuses);
  if (ephemeral) {
    for (const s of status.ephemeralContainerStatuses ?? []) {
      normalizeContainerState(s.state);
      normalizeContainerState(s.lastState);
    }
    status.ephemeralContainerStatuses?.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return status;
}

function setTime<K extends string>(obj: Partial<Record<K, string | null>>, key: K): void {
  const v = obj[key];
  if (v !== undefined && v !== null) obj[key] = rfc3339Copy(v) as string;
}

/** kubetypes.SortInitContainerStatuses: spec order, by the same swap walk as upstream. */
export function SortInitContainerStatuses(pod: Pod, statuses: ContainerStatus[]): void {
  let current = 0;
  for (const container of pod.spec.initContainers ?? []) {
    for (let j = current; j < statuses.length; j++) {
      if (container.name === statuses[j]!.name) {
        const tmp = statuses[current]!;
        statuses[current] = statuses[j]!;
        statuses[j] = tmp;
        current++;
        break;
      }
    }
  }
}

/**
 * isPodStatusByKubeletEqual: equal when the kubelet-owned (and, from 1.26, shared) conditions agree
 * on status, reason and message, and everything else is semantically equal; transition times of
 * conditions are ignored.
 */
export function isPodStatusByKubeletEqual(oldStatus: PodStatus, status: PodStatus, era: Pick<StatusEra, "disruptionTargetShared">): boolean {
  for (const c of status.conditions ?? []) {
    // Both owned and shared conditions are used for kubelet status equality.
    if (!PodConditionByKubelet(c.type) && !PodConditionSharedByKubelet(c.type, era)) continue;
    const oc = oldStatus.conditions?.find((x) => x.type === c.type);
    if (oc === undefined || oc.status !== c.status || (oc.message ?? "") !== (c.message ?? "") || (oc.reason ?? "") !== (c.reason ?? "")) {
      return false;
    }
  }
  return semanticDeepEqual({ ...oldStatus, conditions: status.conditions }, status);
}

/**
 * mergePodStatus keeps the conditions the kubelet does not own from the API's status. From 1.24 it
 * also holds back a terminal phase while the pod could still have running containers, and from
 * 1.25 a terminal phase never goes out with Ready or ContainersReady True. Returns a new status.
 */
export function mergePodStatus(
  oldPodStatus: PodStatus,
  newPodStatus: PodStatus,
  couldHaveRunningContainers: boolean,
  era: StatusEra,
  nowMs: number,
): PodStatus {
  // Upstream deep-copies newPodStatus. What this function changes is the top level and the
  // conditions (updateLastTransitionTime sets a field of one), so those are copied; the rest is
  // shared with newPodStatus, the status manager's cached status, which is deep-frozen.
  const merged: PodStatus = Object.isFrozen(newPodStatus) ? copyTopAndConditions(newPodStatus) : cloneJSON(newPodStatus);
  const podConditions: PodCondition[] = (oldPodStatus.conditions ?? []).filter((c) => !PodConditionByKubelet(c.type)).map((c) => ({ ...c }));
  const transitioningToTerminalPhase = !IsPodPhaseTerminal(oldPodStatus.phase) && IsPodPhaseTerminal(merged.phase);
  for (const c of merged.conditions ?? []) {
    if (PodConditionByKubelet(c.type)) podConditions.push(c);
    else if (PodConditionSharedByKubelet(c.type, era) && transitioningToTerminalPhase && !couldHaveRunningContainers) {
      // DisruptionTarget goes out only once every container has terminated and the phase is
      // terminal, with a fresh transition time: the one set in updateStatusInternal is stale.
      updateLastTransitionTime(merged, oldPodStatus, c.type, nowMs);
      ReplaceOrAppendPodCondition(podConditions, c);
    }
  }
  merged.conditions = podConditions;
  // The kubelet never reports a terminal phase for a pod that could still use exclusive resources.
  if (era.delayTerminalPhase && transitioningToTerminalPhase && couldHaveRunningContainers) {
    setOrDelete(merged, "phase", oldPodStatus.phase);
    setOrDelete(merged, "reason", oldPodStatus.reason);
    setOrDelete(merged, "message", oldPodStatus.message);
  }
  // A terminal phase with Ready=True is never written (#108594).
  if (era.terminalPhaseNotReady && merged.phase !== undefined && IsPodPhaseTerminal(merged.phase)) {
    if (isConditionTrue(merged, "Ready") || isConditionTrue(merged, "ContainersReady")) {
      UpdatePodCondition(merged, readyConditionForTerminalPhase("ContainersReady", merged.phase), nowMs);
      UpdatePodCondition(merged, readyConditionForTerminalPhase("Ready", merged.phase), nowMs);
    }
  }
  return merged;
}

function copyTopAndConditions(s: PodStatus): PodStatus {
  const out: PodStatus = { ...s };
  if (Array.isArray(s.conditions)) out.conditions = s.conditions.map((c) => ({ ...c }));
  return out;
}

function setOrDelete<K extends "phase" | "reason" | "message">(s: PodStatus, key: K, value: PodStatus[K]): void {
  if (value === undefined) delete s[key];
  else s[key] = value;
}

function isConditionTrue(s: PodStatus, type: string): boolean {
  return s.conditions?.find((c) => c.type === type)?.status === "True";
}

/** statusutil.ReplaceOrAppendPodCondition: the condition of the same type is replaced, or it is appended. */
export function ReplaceOrAppendPodCondition(conditions: PodCondition[], condition: PodCondition): void {
  const i = conditions.findIndex((c) => c.type === condition.type);
  if (i >= 0) conditions[i] = condition;
  else conditions.push(condition);
}

/** podutil.UpdatePodCondition: replaces or appends, keeping the transition time when status is unchanged. */
export function UpdatePodCondition(status: PodStatus, condition: PodCondition, nowMs: number): boolean {
  const next: PodCondition = { ...condition, lastTransitionTime: metav1Now(nowMs) };
  const conditions = (status.conditions ??= []);
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i < 0) {
    conditions.push(next);
    return true;
  }
  const old = conditions[i]!;
  if (next.status === old.status) next.lastTransitionTime = old.lastTransitionTime;
  conditions[i] = next;
  return !semanticDeepEqual(old, next);
}

/** findContainerStatus: by container ID, in regular statuses first, then init statuses. */
export function findContainerStatus(status: PodStatus, containerID: string): ContainerStatus | undefined {
  // Find the container to update (two ranges, as upstream's: no closure per call on the probe path).
  for (const c of status.containerStatuses ?? []) if (c.containerID === containerID) return c;
  for (const c of status.initContainerStatuses ?? []) if (c.containerID === containerID) return c;
  return undefined;
}

// ---- apimachinery equality.Semantic.DeepEqual, for v1.PodStatus values as JSON-shaped objects ----
//
// Go compares typed structs; here a status is a plain object where an absent field, null and the
// Go zero value must all read alike. The forked reflect.DeepEqual apimachinery uses also treats a
// nil slice or map as equal to an empty one. What cannot be read off the value is which fields
// are pointers in Go: a nil pointer differs from a pointer to a zero value. In v1.PodStatus those
// are `started` (*bool) and the container state arms (`waiting`, `running`, `terminated`), whose
// presence is the state itself. Everything else is a value, a slice or a map.

/** Scalar fields that are pointers in Go: false/0 there is a set value, not an unset one. */
const POINTER_SCALARS: ReadonlySet<string> = new Set(["started"]);
/** Struct fields that are pointers in Go: an empty object there is a set value. */
const POINTER_STRUCTS: ReadonlySet<string> = new Set(["waiting", "running", "terminated"]);

/**
 * Semantic.DeepEqual(a, b) for statuses, conditions and container statuses: equal once everything
 * Go would call zero or nil is dropped, compared in place (identical references are equal at once).
 */
export function semanticDeepEqual(a: unknown, b: unknown): boolean {
  return semanticEqual(a, b, "");
}

function semanticEqual(a: unknown, b: unknown, key: string): boolean {
  if (a === b) return true;
  const zeroA = isGoZero(a, key);
  if (zeroA || isGoZero(b, key)) return zeroA && isGoZero(b, key);
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!semanticEqual(x[i], y[i], "")) return false;
    return true;
  }
  const objectA = typeof a === "object";
  if (objectA !== (typeof b === "object")) return false;
  if (!objectA) return a === b;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k in x) if (Object.hasOwn(x, k) && !semanticEqual(x[k], y[k], k)) return false;
  for (const k in y) if (Object.hasOwn(y, k) && !Object.hasOwn(x, k) && !isGoZero(y[k], k)) return false;
  return true;
}

/** Whether Go would read the value under this field name as zero or nil (absent, in JSON terms). */
function isGoZero(value: unknown, key: string): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") {
    if (POINTER_STRUCTS.has(key)) return false;
    const o = value as Record<string, unknown>;
    for (const k in o) if (Object.hasOwn(o, k) && !isGoZero(o[k], k)) return false;
    return true;
  }
  if (POINTER_SCALARS.has(key)) return false;
  return value === "" || value === 0 || value === false;
}
