// Each race's level goal: the situation the learner has to bring about, in words a learner can act
// on (what they will see go wrong), not the invariant's id. The page prefixes the way to get there
// (choose who runs; set the timing; step through), so the goal reads as one sentence.
const SITUATIONS: Readonly<Record<string, string>> = {
  R01: "the pod worker starts the container after the kubelet has seen the pod's deletion",
  R02: "the kubelet starts a container of a pod that was deleted while its sandbox was being created",
  R03: "the static pod, removed and added back with the same UID, is never started again",
  R04: "the updated static pod starts while the old one is still stopping",
  R05: "the eviction's kill is parked in the pod worker before the PLEG's update arrives, so that update is dropped",
  R06: "the second delete's shorter grace period is not honoured",
  R07: "the kubelet creates a second container for the restartPolicy Never pod",
  R08: "the container exits and is removed between two relists, so the PLEG reports nothing",
  R09: "a second container starts while the first one still runs",
  R10: "one pod's slow status call holds up another pod's worker",
  R11: "the next pod is rejected for the resources of a pod that already Succeeded",
  R12: "the evicted pod is reported Failed and Ready at once",
  R13: "the pod of a running container goes back to Pending",
  R14: "the restarted kubelet marks the Succeeded pod Failed",
  R15: "the kubelet's status patch lands on the new pod of the same name",
  R16: "a liveness probe runs after the pod's deletion was requested",
  R17: "the liveness probe runs before the startup probe succeeded on the new container",
  R18: "the replacement container is reported Ready before its readiness probe ran",
  R19: "the crashed app next to the sidecar is never restarted",
  R20: "the app starts before the init containers ran in the new sandbox",
  R21: "the init container runs again after the app started",
  R22: "the restartPolicy Never container runs a second time",
  R23: "the sidecar waits for a later sidecar that never started, and the pod hangs",
  R24: "the terminating sync fails in the runtime's bad moment and is never retried",
  R25: "the container's first crash is restarted with no back-off",
};

const WAY: Readonly<Record<"order" | "timing" | "demo", string>> = {
  order: "Choose which goroutine runs so that",
  timing: "Set the timing and choose who runs so that",
  demo: "Step through and watch how",
};

/** The level's goal in one sentence, e.g. "Choose which goroutine runs so that ... (lost-wakeup)." */
export function levelGoal(raceId: string, mode: "order" | "timing" | "demo", invariant: string): string {
  const situation = SITUATIONS[raceId] ?? `the invariant ${invariant} breaks`;
  return `${WAY[mode]} ${situation} (the invariant ${invariant} breaks).`;
}

/**
 * What the written timing shows that is not the race, where a level cannot avoid it: said on the
 * page, so that an end without a win is not read as the harm the level asks for.
 */
const CAVEATS: Readonly<Record<string, string>> = {
  R05:
    "In kubelet 1.20 an evicted pod that is also being deleted ends Evicted and is never deleted whether or not the update is dropped: the kill's status is written from the pod's stale API status, and 1.20 stops syncing a Failed pod. The race is the dropped update itself: watch the pod worker's slot, not the pod's end.",
  R10: "The slow pod's status call hangs in every run, so under the generic PLEG the slow pod's own status stays stale (Running) while the evented PLEG's reports its crash loop: that stall is the setting, not the race. The race is what the stalled relist does to the other pod, fast, whose deletion waits for a fresh status.",
  R07: "The runtime here is docker, which names a failed start ContainerCannotRun where containerd says StartError: the pod fails to start either way; the race is a second container.",
};

export function levelCaveat(raceId: string): string | null {
  return CAVEATS[raceId] ?? null;
}
