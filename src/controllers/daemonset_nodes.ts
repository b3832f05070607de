// Models pkg/controller/daemon/daemon_controller.go podsShouldBeOnNode (without surge: this
// DaemonSet has no rolling update, so util.AllowsSurge is false) as a plain function: what one
// node needs of one DaemonSet, given the node predicates' two answers and the daemon pods the
// controller owns there.
//
// A failed daemon pod is deleted (and made again once it is gone), but through failedPodsBackoff:
// the controller manager builds it as flowcontrol.NewBackOff(1s, 15min)
// (cmd/kube-controller-manager/app/apps.go startDaemonSetController), keyed per DaemonSet UID,
// generation and node (failedPodsBackoffKey), so a kubelet that keeps rejecting the pod is not
// fought in a hot loop: within the backoff window the pod is left alone and the DaemonSet
// re-enqueued after the current delay (enqueueDaemonSetAfter). A succeeded daemon pod is deleted
// with no backoff since kubernetes/kubernetes#117073 (v1.27.0, picked into v1.26.5 as #117496);
// before, it counted as a running daemon pod and was never replaced.
import type { Pod } from "../k8s/pod.ts";
import type { Backoff } from "../kubelet/util/backoff.ts";
import { fixedIn } from "../kubelet/cherry_picks.ts";
import type { VersionLike } from "../kubelet/version.ts";

/** The controller manager's failedPodsBackoff: NewBackOff(1*time.Second, 15*time.Minute). */
export const FAILED_PODS_BACKOFF_INITIAL_MS = 1_000;
export const FAILED_PODS_BACKOFF_MAX_MS = 15 * 60_000;

/** Whether the control plane deletes (and so replaces) a succeeded daemon pod: #117073 and its pick. */
export function deletesSucceededDaemonPods(v: VersionLike): boolean {
  return fixedIn(v, "1.26.5", "1.27.0");
}

/**
 * failedPodsBackoffKey: "<ds UID>/<status.observedGeneration>/<node>". The DaemonSet here has no
 * object and is never updated, so its observed generation is always 1.
 */
export function failedPodsBackoffKey(dsUID: string, nodeName: string): string {
  return `${dsUID}/1/${nodeName}`;
}

/** An event podsShouldBeOnNode records on the DaemonSet (FailedDaemonPod, SucceededDaemonPod). */
export interface DaemonPodEvent {
  readonly pod: Pod;
  readonly type: "Warning" | "Normal";
  readonly reason: "FailedDaemonPod" | "SucceededDaemonPod";
  readonly message: string;
}

export interface NodeDecision {
  /** nodesNeedingDaemonPods: this node gets a new daemon pod. */
  create: boolean;
  /** podsToDelete on this node. */
  remove: Pod[];
  /** enqueueDaemonSetAfter's delay when a failed pod's deletion waits for its backoff; else undefined. */
  requeueAfterMs?: number;
  events: DaemonPodEvent[];
}

export interface NodeInput {
  readonly nodeName: string;
  readonly shouldRun: boolean;
  readonly shouldContinueRunning: boolean;
  /** Every daemon pod of this DaemonSet on the node (nodeToDaemonPods[node]), terminating ones included. */
  readonly daemonPods: readonly Pod[];
  readonly dsUID: string;
}

/** podsShouldBeOnNode for one node; `backoff` is the controller's failedPodsBackoff (Next is called on it). */
export function podsShouldBeOnNode(input: NodeInput, backoff: Backoff, nowMs: number, release: VersionLike): NodeDecision {
  const { nodeName, shouldRun, shouldContinueRunning, daemonPods } = input;
  const out: NodeDecision = { create: false, remove: [], events: [] };
  const exists = daemonPods.length > 0;
  if (shouldRun && !exists) {
    out.create = true;
    return out;
  }
  if (!shouldContinueRunning) {
    // The daemon pod isn't supposed to run on the node, but it is: delete every one.
    if (exists) out.remove.push(...daemonPods.filter((p) => !p.metadata.deletionTimestamp));
    return out;
  }
  const running: Pod[] = [];
  const deletesSucceeded = deletesSucceededDaemonPods(release);
  for (const pod of daemonPods) {
    if (pod.metadata.deletionTimestamp) continue;
    const phase = pod.status?.phase;
    if (phase === "Failed") {
      const key = failedPodsBackoffKey(input.dsUID, nodeName);
      if (backoff.IsInBackOffSinceUpdate(key, nowMs)) {
        out.requeueAfterMs = backoff.Get(key);
        continue;
      }
      backoff.Next(key, nowMs);
      out.events.push(event(pod, "Warning", "FailedDaemonPod", `Found failed daemon pod ${podRef(pod)} on node ${nodeName}, will try to kill it`));
      out.remove.push(pod);
    } else if (phase === "Succeeded" && deletesSucceeded) {
      out.events.push(event(pod, "Normal", "SucceededDaemonPod", `Found succeeded daemon pod ${podRef(pod)} on node ${nodeName}, will try to delete it`));
      out.remove.push(pod);
    } else running.push(pod);
  }
  // More than one running daemon pod on the node: delete all but the oldest.
  if (running.length > 1) out.remove.push(...[...running].sort(byCreationTimestampAndPhase).slice(1));
  return out;
}

function event(pod: Pod, type: DaemonPodEvent["type"], reason: DaemonPodEvent["reason"], message: string): DaemonPodEvent {
  return { pod, type, reason, message };
}

function podRef(pod: Pod): string {
  return `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`;
}

/**
 * podByCreationTimestampAndPhase's Less: a scheduled pod first, then the oldest, then by name
 * (creation timestamps are whole-second RFC 3339 texts here, so they compare as text).
 */
export function byCreationTimestampAndPhase(a: Pod, b: Pod): number {
  const [sa, sb] = [Boolean(a.spec.nodeName), Boolean(b.spec.nodeName)];
  if (sa !== sb) return sa ? -1 : 1;
  const [ta, tb] = [a.metadata.creationTimestamp ?? "", b.metadata.creationTimestamp ?? ""];
  if (ta === tb) return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
  return ta < tb ? -1 : 1;
}
