// The model switches a scenario may set under kubelet.variants: behaviours the kubelet version
// alone does not select (a planted historical bug, a proposed upstream fix). A name no model knows
// is refused before the run starts. docs/control-loops.md lists them.

export interface VariantInfo {
  name: string;
  /** What turning it on changes, and the upstream reference. */
  description: string;
}

export const VARIANTS: readonly VariantInfo[] = [
  {
    name: "plegSetCurrentKeepsMissingPods",
    description:
      "PLEG keeps the last record of a pod that vanished from the runtime listing, so a container that exits and is removed between two relists produces no event (the pre-v1.2.0 bug of race R08, PR #22155).",
  },
  {
    name: "cancelImagePullOnTermination",
    description:
      "1.22+: the pod worker's context reaches the image pulls of the runtime's SyncPod instead of context.WithoutCancel, so a termination request cancels an in-flight PullImage (Canceled) and the container is never created; a cancelled sync bypasses the reason cache. The proposed fix of race R01 (issue #125050, PR #131260; TODO #113606).",
  },
  {
    name: "proberReadsLatestPod",
    description:
      "1.21+: a liveness/startup worker's graceful-shutdown check reads the pod manager's current pod instead of the snapshot it was created with, so it sees the deletionTimestamp, sets Success and stops. The proposed fix of race R16 (issue #107473, PR #107514).",
  },
  {
    name: "statusPatchWithoutUIDPrecondition",
    description:
      "The pre-1.18 status manager: syncPod's PATCH of pods/status carries no UID precondition (and is sent even when the diff is empty), so a pod deleted and recreated under the same name between its GET and its PATCH gets the old pod's diff, and apiStatusVersions is keyed by the new UID. Race R15 (issue #82387, fixed by PR #86320).",
  },
  {
    name: "dockerFailedStartStaysCreated",
    description:
      "The runtime behaves as docker behind dockershim (≤1.23): a container whose start fails stays \"Created\" with exit code 128, so ListContainers (and PLEG's relist) still sees CONTAINER_CREATED, while ContainerStatus reports it EXITED 128 ContainerCannotRun. PLEG sees no change and the cache keeps an entry inspected before the failed start. Race R07 (issue #23636).",
  },
  {
    name: "terminatedUIDCannotReenter",
    description:
      "1.22+: the pod worker of 1.22.0-1.22.2: a create for a UID that is terminating is taken as one more update of the terminating pod (a kill), and once terminated the UID cannot reenter the pod worker until housekeeping purges it, which it never does while the pod is still desired; a static pod whose manifest is removed and put back (same UID) never runs again. Race R03 (issue #104648, fixed by PR #104847).",
  },
  {
    name: "killHonoursShortenedGrace",
    description:
      "1.22+: SyncTerminatingPod honours its context: a second delete that shortens the grace period cancels the kill in flight, and the next SyncTerminatingPod stops the containers again with the shorter grace, so the runtime kills them at the earlier deadline. The proposed fix of race R06 (issue #83916, PRs #113883 and #127580); upstream waits out the first grace period.",
  },
  {
    name: "startedInheritedOnlyForSameContainerID",
    description:
      "1.35+: convertToAPIContainerStatuses keeps a running container's Started from the old status only when that status is of the same container ID, so a container restarted by its liveness probe does not inherit Started=true and its liveness and readiness probes wait for its startup probe. The fix of race R17 (issue #141155, PR #141342; merged after 1.37, cherry-pick to 1.35 open).",
  },
  {
    name: "readinessInheritedOnlyForSameContainerID",
    description:
      "1.35+: a probe worker and setReadyStateOnKubeletRestart treat a container as one that survived a kubelet restart only when the API's pod status still names its container ID, so a replacement started while the kubelet could not reach the apiserver is not reported Ready before its readiness probe runs. The fix of race R18 (issue #141473, PR #141487; merged after 1.37, cherry-picks open).",
  },
  {
    name: "lostContainerReadsAPIStatus",
    description:
      "computePodActions no longer takes a container the runtime has no record of for one that never started when the pod's API status shows it terminated: the restart policy applies to that state, so a restartPolicy Never container whose exited record was garbage-collected is not run again. The fix issue #51142 asked for; no upstream PR proposed it and the issue was closed unfixed (race R22).",
  },
  {
    name: "shutdownNodeBeforeForceDelete",
    description:
      "Not a kubelet change: the user's side of a cluster. A forceDelete step first shuts down the node the pod is bound to (its kubelet stops and its containers die, and it is not brought back within the run), as the StatefulSet docs (\"Force Delete StatefulSet Pods\") and KEP-2268 (non-graceful node shutdown, the out-of-service taint) require before a pod of an unreachable node is force-deleted. The documented procedure of race R26.",
  },
  {
    name: "backOffFromFirstStart",
    description:
      "doBackOff records the crash-loop back-off entry also when it lets a container with no exited instance start, so the first crash waits the initial back-off (10s) instead of restarting at once. The fix PR #133577 proposed for issue #133472 (closed, not merged; the docs describe the immediate first restart). Race R25.",
  },
];

export class UnknownVariantError extends Error {
  override name = "UnknownVariantError";
}

/** Refuses variant names no model knows; the message lists the known ones. */
export function checkVariants(variants: Readonly<Record<string, boolean | undefined>>): void {
  const known = new Set(VARIANTS.map((v) => v.name));
  const unknown = Object.keys(variants).filter((n) => !known.has(n)).sort();
  if (unknown.length === 0) return;
  throw new UnknownVariantError(
    `unknown kubelet variant${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n}"`).join(", ")}; known: ${[...known].sort().join(", ")}`,
  );
}
