// Models pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff), v1.29 line.
//
// The restart-backoff decision SyncPod's start() makes before starting any container. It lives
// here, not in util/backoff.ts, because it is kuberuntime code built on getStableKey.
import type { Container, Pod } from "../../k8s/pod.ts";
import { formatDuration } from "../../sim/duration.ts";
import { formatPod } from "../container/helpers.ts";
import { ContainerStateExited, GO_ZERO_TIME_MS, type PodStatus } from "../container/runtime.ts";
import type { Backoff } from "../util/backoff.ts";
import { getStableKey } from "./helpers.ts";

/** kubecontainer.ErrCrashLoopBackOff */
export const ErrCrashLoopBackOff = "CrashLoopBackOff";

export interface BackOffDecision {
  isInBackOff: boolean;
  /** "back-off 20s restarting failed container=app pod=web_default(uid)"; "" when not in backoff. */
  message: string;
  err: typeof ErrCrashLoopBackOff | null;
  /** The BackOff event's message, recorded on the container when in backoff. */
  eventMessage: string;
  key: string;
}

/**
 * doBackOff: if the container last exited less than the current backoff ago, do not start it;
 * otherwise advance the backoff (Next) and start it. Mutates the backoff, as upstream does. A
 * container with no exited instance returns early without an entry, so its first crash finds
 * none and restarts at once (race R25, issue #133472, the same in every release).
 * `fromFirstStart` is variant backOffFromFirstStart, the fix PR #133577 proposed (closed, not
 * merged): the first start records the entry too, so the first crash waits the initial back-off.
 */
export function doBackOff(pod: Pod, container: Container, podStatus: PodStatus, backOff: Backoff, fromFirstStart = false): BackOffDecision {
  const key = getStableKey(pod, container);
  const cStatus = podStatus.containerStatuses.find((c) => c.name === container.name && c.state === ContainerStateExited);
  if (cStatus === undefined) {
    if (fromFirstStart) backOff.Next(key, backOff.clock.nowMs());
    return { isInBackOff: false, message: "", err: null, eventMessage: "", key };
  }
  // Use the finished time of the latest exited container as the start point of the backoff.
  const ts = cStatus.finishedAtMs ?? GO_ZERO_TIME_MS;
  if (backOff.IsInBackOffSince(key, ts)) {
    const pod_ = formatPod(pod);
    return {
      isInBackOff: true,
      message: `back-off ${formatDuration(backOff.Get(key))} restarting failed container=${container.name} pod=${pod_}`,
      err: ErrCrashLoopBackOff,
      eventMessage: `Back-off restarting failed container ${container.name} in pod ${pod_}`,
      key,
    };
  }
  backOff.Next(key, ts);
  return { isInBackOff: false, message: "", err: null, eventMessage: "", key };
}
