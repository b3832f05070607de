// Models pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer, executePreStopHook,
// restoreSpecsFromContainerLabels, killContainersWithSyncResult, pruneInitContainersBeforeStart,
// purgeInitContainers, removeContainer), v1.29 line (sidecar termination ordering per release), as processes.
//
// The grace arithmetic is kill_container.ts's pure killContainerGrace; this file does the waiting,
// including the sidecar termination ordering (kuberuntime_termination_order.ts) when the
// SidecarContainers gate is on, from 1.29. Container log files do not exist, so
// removeContainer is the CRI RemoveContainer alone.
import { replaceContainerID } from "./helpers.ts";
import { recvCase, select, wait, type Proc } from "../../sim/index.ts";
import type { Container, Pod } from "../../k8s/pod.ts";
import { CriError, isNotFound } from "../../cri/errors.ts";
import { GetContainerSpec, formatPod } from "../container/helpers.ts";
import { containerIDString, type ContainerID, type PodStatus } from "../container/runtime.ts";
import { FailedPreStopHook, KillingContainer, containerFieldPath } from "./events.ts";
import { killContainerGrace, killContainerMessage } from "./kill_container.ts";
import { getContainerInfoFromAnnotations, getContainerInfoFromLabels } from "./labels.ts";
import { trace, type ManagerContext } from "./manager_context.ts";
import { newTerminationOrdering, type TerminationOrdering, type TerminationOrderingEra } from "./kuberuntime_termination_order.ts";
import { reasonUnknown, type ContainerKillReason } from "./pod_actions.ts";
import type { RuntimePod } from "./running_pod.ts";
import { ErrKillContainer, NewSyncResult, type SyncResult } from "./sync_result.ts";

/**
 * executePreStopHook runs the pre-stop lifecycle hook in its own goroutine and waits for it at
 * most gracePeriod seconds; returns the time it waited in milliseconds (the caller truncates to
 * seconds, as upstream's int64(Seconds())). A hook that outlives the wait keeps running.
 */
export function* executePreStopHook(m: ManagerContext, pod: Pod, containerID: ContainerID, containerSpec: Container, gracePeriodSeconds: number): Proc<number> {
  const startMs = m.sim.nowMs;
  const done = m.sim.chan<void>(`preStop done ${containerID.id}`, 0);
  const handler = containerSpec.lifecycle!.preStop!;
  m.sim.go(
    `preStop/${pod.metadata.name}/${containerSpec.name}`,
    function* () {
      const { err } = yield* m.runner.Run(containerID, pod, containerSpec, handler, "preStop");
      // Do not record the message in the event so that secrets won't leak from the server.
      if (err !== null) m.recorder.Eventf(pod, "Warning", FailedPreStopHook, "PreStopHook failed", containerFieldPath(pod, containerSpec));
      done.close();
    },
    { group: m.group },
  );
  const timer = m.sim.newTimer(`preStop grace ${containerID.id}`, gracePeriodSeconds * 1000);
  const fired = yield* select([recvCase(timer.C), recvCase(done)]);
  timer.stop();
  const elapsedMs = m.sim.nowMs - startMs;
  trace(m, "executePreStopHook", pod, { container: containerSpec.name, completed: fired.index === 1, elapsedMs });
  return elapsedMs;
}

/**
 * restoreSpecsFromContainerLabels restores what killing a container needs when the pod is gone
 * (e.g. deleted during a kubelet restart): identity and grace periods from labels and annotations.
 */
export function* restoreSpecsFromContainerLabels(m: ManagerContext, containerID: ContainerID): Proc<{ pod: Pod; container: Container } | CriError> {
  const s = yield* m.runtimeService.ContainerStatus(containerID.id);
  if (s instanceof CriError) return s;
  const l = getContainerInfoFromLabels(s.labels);
  const a = getContainerInfoFromAnnotations(s.annotations);
  // Notice that the followings are not full spec. The container killing code should not use un-restored fields.
  const pod: Pod = {
    metadata: { uid: l.PodUID, name: l.PodName, namespace: l.PodNamespace, deletionGracePeriodSeconds: a.PodDeletionGracePeriod },
    spec: { containers: [{ name: l.ContainerName }], terminationGracePeriodSeconds: a.PodTerminationGracePeriod },
  };
  const container: Container = { name: l.ContainerName, terminationMessagePath: a.TerminationMessagePath };
  if (a.PreStopHandler !== null) container.lifecycle = { preStop: a.PreStopHandler };
  return { pod, container };
}

/**
 * killContainer kills a container through the following steps: the Killing event, the pre-stop
 * hook (if applicable, consuming grace), the wait for its turn when a termination ordering
 * applies (consuming grace too), then StopContainer with what is left, at least 2 s.
 * Returns the error text, or null. A StopContainer that fails leaves the container running, and
 * its turn never comes: the containers waiting on it wait out their grace, as upstream.
 */
export function* killContainer(
  m: ManagerContext,
  podIn: Pod | null,
  containerID: ContainerID,
  containerName: string,
  messageIn: string,
  reason: ContainerKillReason,
  gracePeriodOverride: number | null,
  ordering: TerminationOrdering | null = null,
): Proc<string | null> {
  let pod = podIn;
  let containerSpec: Container | undefined;
  if (pod !== null) {
    containerSpec = GetContainerSpec(pod, containerName);
    if (containerSpec === undefined) {
      return `failed to get containerSpec ${JSON.stringify(containerName)} (id=${JSON.stringify(containerIDString(containerID))}) in pod ${JSON.stringify(formatPod(pod))} when killing container for reason ${JSON.stringify(messageIn)}`;
    }
  } else {
    const restored = yield* restoreSpecsFromContainerLabels(m, containerID);
    if (restored instanceof CriError) return restored.message;
    ({ pod, container: containerSpec } = restored);
  }
  const startMs = m.sim.nowMs;
  const message = killContainerMessage(containerSpec, messageIn);
  const text = replaceContainerID(message, containerID.id, containerSpec.name);
  m.recorder.Eventf(pod, "Normal", KillingContainer, text, containerFieldPath(pod, containerSpec));
  const before = killContainerGrace({ pod, containerSpec, reason, gracePeriodOverride });
  let preStopElapsedMs = 0;
  if (before.runPreStop) preStopElapsedMs = yield* executePreStopHook(m, pod, containerID, containerSpec, before.gracePeriodSeconds);
  const afterPreStop = killContainerGrace({ pod, containerSpec, reason, gracePeriodOverride, preStopElapsedMs });
  // If we care about termination ordering, wait for this container's turn to exit if there is time
  // remaining; grace is only in seconds, so the time waited gets truncated downward.
  let orderingWaitMs: number | undefined;
  if (ordering !== null && afterPreStop.graceAfterPreStopSeconds > 0) {
    const waitedSeconds = yield* ordering.waitForTurn(containerName, afterPreStop.graceAfterPreStopSeconds);
    orderingWaitMs = Math.round(waitedSeconds * 1000);
  }
  const { stopGracePeriodSeconds } = killContainerGrace({ pod, containerSpec, reason, gracePeriodOverride, preStopElapsedMs, ...(orderingWaitMs === undefined ? {} : { orderingWaitMs }) });
  const err = yield* m.runtimeService.StopContainer(containerID.id, stopGracePeriodSeconds);
  const failed = err instanceof CriError && !isNotFound(err) ? err.message : null;
  trace(m, "KillContainer", pod, {
    container: containerSpec.name,
    id: containerID.id,
    reason,
    gracePeriodSeconds: stopGracePeriodSeconds,
    ...(orderingWaitMs === undefined || orderingWaitMs === 0 ? {} : { orderingWaitMs }),
    sinceMs: startMs,
    ...(failed === null ? {} : { error: failed }),
  });
  if (failed !== null) return failed;
  ordering?.containerTerminated(containerName);
  return null;
}

/**
 * killContainersWithSyncResult kills all pod's containers, one goroutine each, and collects their
 * results in completion order. With the SidecarContainers gate on (from 1.29), a termination
 * ordering over the running containers makes each sidecar wait for the regular containers and
 * later sidecars (see terminationOrderingEra for the releases).
 */
export function* killContainersWithSyncResult(
  m: ManagerContext,
  pod: Pod | null,
  runningPod: RuntimePod,
  gracePeriodOverride: number | null,
  ordering: TerminationOrderingEra = "none",
): Proc<SyncResult[]> {
  const n = runningPod.containers.length;
  const containerResults = m.sim.chan<SyncResult>(`containerResults ${runningPod.name}`, Math.max(n, 1));
  const wg = m.sim.waitGroup(`killContainers ${runningPod.name}`);
  wg.add(n);
  // We only care about container termination ordering if the sidecars feature is enabled. From
  // 1.22 upstream never gets here with a nil pod (an orphaned runtime pod comes as ToAPIPod());
  // the model's callers may pass null, and then there is no spec to order by.
  let termOrdering: TerminationOrdering | null = null;
  if (ordering !== "none" && pod !== null) {
    termOrdering = newTerminationOrdering(m.sim, pod, runningPod.containers.map((c) => c.name), ordering === "ignoresNotStarted");
  }
  for (const container of runningPod.containers) {
    m.sim.go(
      `killContainer/${runningPod.name}/${container.name}`,
      function* () {
        const killContainerResult = NewSyncResult("KillContainer", container.name);
        const err = yield* killContainer(m, pod, container.id, container.name, "", reasonUnknown, gracePeriodOverride, termOrdering);
        if (err !== null) killContainerResult.Fail(ErrKillContainer, err);
        containerResults.trySend(killContainerResult);
        wg.done();
      },
      { group: m.group },
    );
  }
  yield* wait(wg);
  containerResults.close();
  const syncResults: SyncResult[] = [];
  for (let r = containerResults.tryRecv(); r !== undefined && r.ok; r = containerResults.tryRecv()) syncResults.push(r.value!);
  return syncResults;
}

/** removeContainer removes the container (the container log is not modelled). */
export function* removeContainer(m: ManagerContext, containerID: string): Proc<CriError | null> {
  return yield* m.runtimeService.RemoveContainer(containerID);
}

/**
 * pruneInitContainersBeforeStart keeps only the most recent exited (or unknown) instance of each
 * init container, removing the rest, to spare the garbage collector.
 */
export function* pruneInitContainersBeforeStart(m: ManagerContext, pod: Pod, podStatus: PodStatus): Proc<void> {
  yield* removeInitContainers(m, pod, podStatus, true);
}

/** purgeInitContainers removes all init containers, assuming they have all been stopped. */
export function* purgeInitContainers(m: ManagerContext, pod: Pod, podStatus: PodStatus): Proc<void> {
  yield* removeInitContainers(m, pod, podStatus, false);
}

function* removeInitContainers(m: ManagerContext, pod: Pod, podStatus: PodStatus, keepLatest: boolean): Proc<void> {
  // A Go set iterated in map order; names are unique, so the order only changes which removal comes first.
  const names = m.sim.mapOrder([...new Set((pod.spec.initContainers ?? []).map((c) => c.name))].sort());
  for (const name of names) {
    let count = 0;
    for (const status of podStatus.containerStatuses) {
      if (status.name !== name) continue;
      if (keepLatest && status.state !== "exited" && status.state !== "unknown") continue;
      count++;
      // Keep the first (newest) init container for this name when pruning.
      if (keepLatest && count === 1) continue;
      const err = yield* removeContainer(m, status.id.id);
      trace(m, "RemoveInitContainer", pod, { container: name, id: status.id.id, ...(err === null ? {} : { error: err.message }) });
    }
  }
}
