// The races kubelet-sim reproduces: each a scenario under scenarios/races/, run once with the
// buggy kubelet and once with the fixed one, and an invariant that tells them apart. The teaching
// pages (docs/races/) and the tests read this table.
import { join, resolve } from "node:path";
import type { Scenario } from "../scenario/resolve.ts";
import { applyKubeletOverrides, loadScenarioWithOverrides, type KubeletOverrides } from "../scenario/overrides.ts";
import { readRawScenario, type RawScenario } from "../explore/raw.ts";

/** How one side of a race is run: a kubelet version, and scenario variants (model switches). */
export interface RaceSide {
  label: string;
  kubeletVersion?: string;
  variants?: Record<string, boolean>;
  featureGates?: Record<string, boolean>;
}

/**
 * A race's hunt form: a scenario in which fifo passes (the file as written, run as `kubelet-sim
 * run`), and the bug needs a particular interleaving or timing that exploration has to find: the
 * order of steps at one instant (the strategies) and the latencies and step times its `swarm`
 * ranges let each run draw.
 */
export interface HuntForm {
  /** The hunt scenario, relative to the repository root (scenarios/races/hunt/). */
  file: string;
  /** What a run must hit for the bug to show, in one sentence. */
  needs: string;
}

export interface RaceEntry {
  id: string;
  title: string;
  /** The scenario file (the deterministic demonstration), relative to the repository root. */
  file: string;
  hunt: HuntForm;
  /** The pod whose story the diagrams follow. */
  pod: string;
  /** The diagrams leave out what happens before this instant (the setup); from the start when unset. */
  diagramFromMs?: number;
  /**
   * The narrowed diagram draws the goroutines that wrote the records the violation's message names;
   * these (names or name prefixes) are drawn too, when the story needs an actor the message does not
   * name: the goroutine whose update was lost, the one that made a slow call, the outside world.
   */
  actors?: readonly string[];
  invariant: string;
  buggy: RaceSide;
  fixed: RaceSide;
}

export const RACES: readonly RaceEntry[] = [
  {
    id: "R01",
    title: "A pod deleted during its image pull still starts its container",
    file: "scenarios/races/r01-pw-start-after-delete-during-pull.yaml",
    hunt: { file: "scenarios/races/hunt/r01-hunt.yaml", needs: "a pull still running when the delete lands (pull latency and delete time drawn per run)" },
    pod: "default/web",
    actors: ["imagePuller"],
    invariant: "start-after-termination-requested",
    buggy: { label: "kubelet 1.30", kubeletVersion: "1.30" },
    fixed: { label: "kubelet 1.30 + cancelImagePullOnTermination (PR #131260)", kubeletVersion: "1.30", variants: { cancelImagePullOnTermination: true } },
  },
  {
    id: "R16",
    title: "Liveness probes keep running and failing after the pod is deleted",
    file: "scenarios/races/r16-probes-during-termination.yaml",
    hunt: { file: "scenarios/races/hunt/r16-hunt.yaml", needs: "a liveness tick between the kubelet seeing the deletion and learning of the container's exit (delete time drawn per run)" },
    pod: "default/web",
    invariant: "probe-after-termination-requested",
    buggy: { label: "kubelet 1.21", kubeletVersion: "1.21" },
    fixed: { label: "kubelet 1.21 + proberReadsLatestPod (PR #107514)", kubeletVersion: "1.21", variants: { proberReadsLatestPod: true } },
  },
  {
    id: "R02",
    title: "Before 1.22, cleanup loops took \"not started yet\" for \"terminated\"",
    file: "scenarios/races/r02-pw-not-started-treated-as-terminated.yaml",
    hunt: { file: "scenarios/races/hunt/r02-hunt.yaml", needs: "a delete that lands while the sandbox is still being created (sandbox latency and delete time drawn per run)" },
    pod: "default/web",
    invariant: "container-start-after-pod-deleted",
    buggy: { label: "kubelet 1.21", kubeletVersion: "1.21" },
    fixed: { label: "kubelet 1.22", kubeletVersion: "1.22" },
  },
  {
    id: "R15",
    title: "A kubelet status patch lands on a new pod with the same name",
    file: "scenarios/races/r15-status-write-to-recreated-pod.yaml",
    hunt: { file: "scenarios/races/hunt/r15-hunt.yaml", needs: "the delete and the create between one status sync's GET and its PATCH (step times drawn per run)" },
    pod: "default/web-0",
    diagramFromMs: 4_900,
    invariant: "kubelet-write-to-other-uid",
    buggy: { label: "kubelet 1.22 + statusPatchWithoutUIDPrecondition (pre-1.18)", variants: { statusPatchWithoutUIDPrecondition: true } },
    fixed: { label: "kubelet 1.22 (PR #86320)", variants: { statusPatchWithoutUIDPrecondition: false } },
  },
  {
    id: "R07",
    title: "A stale cached status makes the kubelet create a second container for a Never pod",
    file: "scenarios/races/r07-pleg-stale-cache-duplicate-container.yaml",
    hunt: { file: "scenarios/races/hunt/r07-hunt.yaml", needs: "a relist that inspects the container between its create and its failed start (pull and start latencies drawn per run)" },
    pod: "default/blarg",
    diagramFromMs: 2_900,
    invariant: "never-policy-created-twice",
    buggy: { label: "kubelet 1.24, docker (dockerFailedStartStaysCreated)", variants: { dockerFailedStartStaysCreated: true } },
    fixed: { label: "kubelet 1.24, containerd", variants: { dockerFailedStartStaysCreated: false } },
  },
  {
    id: "R03",
    title: "A static pod removed and re-added with the same UID never runs again",
    file: "scenarios/races/r03-static-pod-uid-reuse.yaml",
    hunt: { file: "scenarios/races/hunt/r03-hunt.yaml", needs: "the manifest back before housekeeping purged the terminated UID (step times drawn per run)" },
    pod: "default/web-node-1",
    diagramFromMs: 9_900,
    invariant: "readded-pod-restarted",
    buggy: { label: "kubelet 1.22.0 (terminatedUIDCannotReenter)", kubeletVersion: "1.22.0", variants: { terminatedUIDCannotReenter: true } },
    fixed: { label: "kubelet 1.22.3 (PR #104847)", kubeletVersion: "1.22.3", variants: { terminatedUIDCannotReenter: false } },
  },
  {
    id: "R04",
    title: "An updated static pod starts while the old one is still stopping",
    file: "scenarios/races/r04-static-pod-fullname-overlap.yaml",
    hunt: { file: "scenarios/races/hunt/r04-hunt.yaml", needs: "the new pod set up faster than the old one stops (sandbox and pull latencies drawn per run)" },
    pod: "kube-system/etcd-node-1",
    diagramFromMs: 4_900,
    invariant: "one-static-pod-per-full-name",
    buggy: { label: "kubelet 1.22.4", kubeletVersion: "1.22.4" },
    fixed: { label: "kubelet 1.22.5 (PR #104743 via #106394)", kubeletVersion: "1.22.5" },
  },
  {
    id: "R06",
    title: "A second delete with a shorter grace period is not honoured",
    file: "scenarios/races/r06-grace-period-shorten-ignored.yaml",
    hunt: { file: "scenarios/races/hunt/r06-hunt.yaml", needs: "the second delete early enough that its deadline passes while the app still stops (delete times drawn per run)" },
    pod: "default/web",
    diagramFromMs: 4_900,
    invariant: "shortened-grace-period-honoured",
    buggy: { label: "kubelet 1.30 (every release)", kubeletVersion: "1.30" },
    fixed: { label: "kubelet 1.30 + killHonoursShortenedGrace (proposed: PRs #113883, #127580)", kubeletVersion: "1.30", variants: { killHonoursShortenedGrace: true } },
  },
  {
    id: "R05",
    title: "A pending kill pinned the pod worker's parked update, so later updates were dropped",
    file: "scenarios/races/r05-pw-kill-pinning.yaml",
    hunt: { file: "scenarios/races/hunt/r05-hunt.yaml", needs: "the eviction parked behind the delete's kill before the PLEG reports b's exit (step times drawn per run)" },
    pod: "default/web",
    diagramFromMs: 4_900,
    actors: ["kubelet/evict/"],
    invariant: "lost-wakeup",
    buggy: { label: "kubelet 1.20 (dispatchWork before PR #98742)", kubeletVersion: "1.20" },
    fixed: { label: "kubelet 1.22 (PR #102344)", kubeletVersion: "1.22" },
  },
  {
    id: "R08",
    title: "A container that exits and is removed between two relists produces no PLEG event",
    file: "scenarios/races/r08-pleg-missed-exit-and-remove.yaml",
    hunt: { file: "scenarios/races/hunt/r08-hunt.yaml", needs: "the exit and the removal inside one relist period (step times drawn per run)" },
    pod: "default/web",
    diagramFromMs: 8_900,
    actors: ["scenario/timeline"],
    invariant: "pleg-missed-container-change",
    buggy: { label: "kubelet 1.21 + plegSetCurrentKeepsMissingPods (pre-v1.2.0)", kubeletVersion: "1.21", variants: { plegSetCurrentKeepsMissingPods: true } },
    fixed: { label: "kubelet 1.21 (PR #22155)", kubeletVersion: "1.21", variants: { plegSetCurrentKeepsMissingPods: false } },
  },
  {
    id: "R21",
    title: "Garbage collection of an exited init container makes the kubelet run init again",
    file: "scenarios/races/r21-init-rerun-while-app-running.yaml",
    hunt: { file: "scenarios/races/hunt/r21-hunt.yaml", needs: "init's record collected after the app started (pull latency and removal time drawn per run)" },
    pod: "default/web",
    diagramFromMs: 59_000,
    invariant: "init-rerun-after-app-started",
    buggy: { label: "kubelet 1.20", kubeletVersion: "1.20" },
    fixed: { label: "kubelet 1.21.0 (PR #96572)", kubeletVersion: "1.21" },
  },
  {
    id: "R09",
    title: "With Evented PLEG, GetNewerThan stopped waiting, so a second container started",
    file: "scenarios/races/r09-evented-pleg-duplicate-containers.yaml",
    hunt: { file: "scenarios/races/hunt/r09-hunt.yaml", needs: "the CREATED event delivered after the label change and before the STARTED event (event delays and step time drawn per run)" },
    pod: "default/web",
    diagramFromMs: 1_600,
    invariant: "at-most-one-running-container",
    buggy: { label: "kubelet 1.26.7, EventedPLEG on", kubeletVersion: "1.26.7", featureGates: { EventedPLEG: true } },
    fixed: { label: "kubelet 1.32, EventedPLEG on (PR #124297)", kubeletVersion: "1.32", featureGates: { EventedPLEG: true } },
  },
  {
    id: "R10",
    title: "One slow status call stalls relist, every other pod's worker and node readiness",
    file: "scenarios/races/r10-pleg-relist-stall.yaml",
    hunt: { file: "scenarios/races/hunt/r10-hunt.yaml", needs: "a deletion whose pod worker still needs a fresh status after the relist stalled (step time drawn per run)" },
    pod: "default/fast",
    diagramFromMs: 99_000,
    invariant: "pleg-stall-delays-other-pods",
    buggy: { label: "kubelet 1.32, generic PLEG (every release)", kubeletVersion: "1.32" },
    fixed: { label: "kubelet 1.32 + EventedPLEG (proposed: KEP-3386)", kubeletVersion: "1.32", featureGates: { EventedPLEG: true } },
  },
  {
    id: "R11",
    title: "The API shows a pod Succeeded before its worker terminated it, and the next pod is rejected OutOfcpu",
    file: "scenarios/races/r11-terminal-phase-before-containers-stopped.yaml",
    hunt: { file: "scenarios/races/hunt/r11-hunt.yaml", needs: "the scheduler binding the next pod before the first one's worker has terminated it (binding and StopPodSandbox latencies drawn per run)" },
    pod: "default/second",
    diagramFromMs: 6_900,
    invariant: "rejected-for-resources-of-terminal-pod",
    buggy: { label: "kubelet 1.22.8", kubeletVersion: "1.22.8" },
    fixed: { label: "kubelet 1.22.9 (PR #108366 via #108749)", kubeletVersion: "1.22.9" },
  },
  {
    id: "R12",
    title: "An evicted pod is reported Failed and Ready at once",
    file: "scenarios/races/r12-ready-with-terminal-phase.yaml",
    hunt: { file: "scenarios/races/hunt/r12-hunt.yaml", needs: "an eviction that finds the container Ready after its warm-up (eviction time drawn per run)" },
    pod: "default/web",
    diagramFromMs: 9_900,
    invariant: "ready-with-terminal-phase",
    buggy: { label: "kubelet 1.23.5", kubeletVersion: "1.23.5" },
    fixed: { label: "kubelet 1.23.8 (PR #110256 via #110480)", kubeletVersion: "1.23.8" },
  },
  {
    id: "R13",
    title: "A running container whose record vanished sends the pod back to Pending",
    file: "scenarios/races/r13-phase-regression.yaml",
    hunt: { file: "scenarios/races/hunt/r13-hunt.yaml", needs: "a garbage collection that finds the container still running (pull latency drawn per run)" },
    pod: "default/job",
    diagramFromMs: 9_900,
    invariant: "phase-regressed-to-pending",
    buggy: { label: "kubelet 1.19", kubeletVersion: "1.19" },
    fixed: { label: "kubelet 1.20 (PRs #95561, #95364)", kubeletVersion: "1.20" },
  },
  {
    id: "R14",
    title: "After a kubelet restart, a pod that had succeeded is re-admitted and marked Failed",
    file: "scenarios/races/r14-readmit-terminal-after-restart.yaml",
    hunt: { file: "scenarios/races/hunt/r14-hunt.yaml", needs: "the restarted kubelet listing its pods before the device plugin registers again (apiserver latency drawn per run)" },
    pod: "default/train",
    diagramFromMs: 29_900,
    invariant: "terminal-phase-never-changes",
    buggy: { label: "kubelet 1.31.0", kubeletVersion: "1.31.0" },
    fixed: { label: "kubelet 1.31.1 (PR #126343 via #127207)", kubeletVersion: "1.31.1" },
  },
  {
    id: "R17",
    title: "After a liveness restart the new container inherits Started=true, so liveness runs before startup",
    file: "scenarios/races/r17-startup-gate-bypass-on-container-restart.yaml",
    hunt: { file: "scenarios/races/hunt/r17-hunt.yaml", needs: "the liveness worker ticking before the startup worker after the restart (each worker's first-probe sleep drawn per run)" },
    pod: "default/web",
    diagramFromMs: 59_000,
    invariant: "probe-before-startup-success",
    buggy: { label: "kubelet 1.35", kubeletVersion: "1.35" },
    fixed: { label: "kubelet 1.35 + startedInheritedOnlyForSameContainerID (PR #141342; cherry-pick #142043 open)", kubeletVersion: "1.35", variants: { startedInheritedOnlyForSameContainerID: true } },
  },
  {
    id: "R18",
    title: "After a kubelet restart a replacement container is reported Ready before its readiness probe ran",
    file: "scenarios/races/r18-stale-readiness-after-kubelet-restart.yaml",
    hunt: { file: "scenarios/races/hunt/r18-hunt.yaml", needs: "the kubelet restart more than 10s after the replacement started, while the apiserver is out of reach (step times drawn per run)" },
    pod: "default/web",
    diagramFromMs: 99_000,
    invariant: "ready-before-readiness-success",
    buggy: { label: "kubelet 1.35", kubeletVersion: "1.35" },
    fixed: { label: "kubelet 1.35 + readinessInheritedOnlyForSameContainerID (PR #141487; cherry-pick #142255 open)", kubeletVersion: "1.35", variants: { readinessInheritedOnlyForSameContainerID: true } },
  },
  {
    id: "R19",
    title: "After a kubelet restart a crashed app next to a sidecar with a startup probe is never restarted",
    file: "scenarios/races/r19-sidecar-startup-unseeded-after-kubelet-restart.yaml",
    hunt: { file: "scenarios/races/hunt/r19-hunt.yaml", needs: "the kubelet restart after the sidecar's Started=true reached the status (step times drawn per run)" },
    pod: "default/web",
    diagramFromMs: 29_000,
    invariant: "exited-container-not-restarted",
    buggy: { label: "kubelet 1.35.3", kubeletVersion: "1.35.3" },
    fixed: { label: "kubelet 1.35.4 (PR #137146, cherry-pick #137885)", kubeletVersion: "1.35.4" },
  },
  {
    id: "R20",
    title: "After a node reboot the app starts before the init containers ran in the new sandbox",
    file: "scenarios/races/r20-init-order-vs-stale-sandbox-statuses.yaml",
    hunt: { file: "scenarios/races/hunt/r20-hunt.yaml", needs: "the reboot after the app was created in the old sandbox (reboot time drawn per run)" },
    pod: "default/web",
    diagramFromMs: 29_000,
    invariant: "init-containers-out-of-order",
    buggy: { label: "kubelet 1.28.1", kubeletVersion: "1.28.1" },
    fixed: { label: "kubelet 1.28.2 (PR #120281, cherry-pick #120440)", kubeletVersion: "1.28.2" },
  },
  {
    id: "R22",
    title: "A restartPolicy Never container runs again after its exited record is garbage-collected",
    file: "scenarios/races/r22-never-policy-reexecution.yaml",
    hunt: { file: "scenarios/races/hunt/r22-hunt.yaml", needs: "the record's removal and a periodic resync before the pod's last container exits (step times drawn per run)" },
    pod: "default/web",
    diagramFromMs: 29_000,
    invariant: "never-policy-runs-twice",
    buggy: { label: "kubelet 1.35 (every release)", kubeletVersion: "1.35" },
    fixed: { label: "proposed: kubelet 1.35 + lostContainerReadsAPIStatus (the fix issue #51142 asked for; no upstream PR)", kubeletVersion: "1.35", variants: { lostContainerReadsAPIStatus: true } },
  },
  {
    id: "R23",
    title: "A sidecar waits for a later sidecar that never started, and the pod hangs until its grace period ends",
    file: "scenarios/races/r23-sidecar-termination-ordering.yaml",
    hunt: { file: "scenarios/races/hunt/r23-hunt.yaml", needs: "the deletion before the later sidecar started (the startup worker's first-probe sleep drawn per run)" },
    pod: "default/web",
    diagramFromMs: 29_000,
    invariant: "sidecar-termination-stalled",
    buggy: { label: "kubelet 1.30.3", kubeletVersion: "1.30.3" },
    fixed: { label: "kubelet 1.30.4 (PR #125935, cherry-pick #126331)", kubeletVersion: "1.30.4" },
  },
  {
    id: "R24",
    title: "A CRI error while a force-deleted pod terminates leaves it terminating until the kubelet restarts",
    file: "scenarios/races/r24-force-deleted-stuck-terminating.yaml",
    hunt: { file: "scenarios/races/hunt/r24-hunt.yaml", needs: "the terminating sync in the runtime's bad moment (delete time drawn per run)" },
    pod: "default/web",
    diagramFromMs: 9_000,
    invariant: "terminating-sync-not-retried",
    buggy: { label: "kubelet 1.26", kubeletVersion: "1.26" },
    fixed: { label: "kubelet 1.27.0 (PR #113145)", kubeletVersion: "1.27" },
  },
  {
    id: "R25",
    title: "A container's first crash is restarted with no back-off",
    file: "scenarios/races/r25-crashloop-backoff-accounting.yaml",
    hunt: { file: "scenarios/races/hunt/r25-hunt.yaml", needs: "the first instance crashing before its liveness probe gets it killed (the liveness worker's first-probe sleep drawn per run)" },
    pod: "default/web",
    invariant: "crash-restart-before-backoff",
    buggy: { label: "kubelet 1.35 (every release)", kubeletVersion: "1.35" },
    fixed: { label: "proposed: kubelet 1.35 + backOffFromFirstStart (PR #133577, closed)", kubeletVersion: "1.35", variants: { backOffFromFirstStart: true } },
  },
  {
    id: "R26",
    title: "A StatefulSet identity runs on two nodes at once after a force delete during a partition",
    file: "scenarios/races/r26-statefulset-identity-twice.yaml",
    hunt: { file: "scenarios/races/hunt/r26-hunt.yaml", needs: "the node's partition beginning before the user's force delete reaches its kubelet (step times drawn per run)" },
    pod: "default/db-0",
    diagramFromMs: 29_000,
    actors: ["scenario", "statefulset/worker"],
    invariant: "statefulset-identity-at-most-once",
    buggy: { label: "force delete during the partition (every release)", kubeletVersion: "1.30" },
    fixed: { label: "documented: shut the node down before the force delete (StatefulSet docs, KEP-2268)", kubeletVersion: "1.30", variants: { shutdownNodeBeforeForceDelete: true } },
  },
  {
    id: "R27",
    title: "A Job runs more pods than its parallelism while a deleted pod is still terminating",
    file: "scenarios/races/r27-job-replacement-while-terminating.yaml",
    hunt: { file: "scenarios/races/hunt/r27-hunt.yaml", needs: "the replacement's image pull quicker than the old worker's checkpoint after SIGTERM (pull latency and delete time drawn per run)" },
    pod: "default/train-7fkf9",
    diagramFromMs: 29_000,
    actors: ["scenario"],
    invariant: "job-running-at-most-parallelism",
    buggy: { label: "control plane 1.28 (podReplacementPolicy dropped: JobPodReplacementPolicy alpha, off)", kubeletVersion: "1.28" },
    fixed: { label: "control plane 1.29 (podReplacementPolicy: Failed honoured, KEP-3939 beta; PR #117015)", kubeletVersion: "1.29" },
  },
];
const ROOT = join(import.meta.dirname, "..", "..");

/** The race whose scenario is this file (however the path is written), if any. */
export function raceOfFile(path: string): RaceEntry | undefined {
  const abs = resolve(path);
  return RACES.find((r) => join(ROOT, r.file) === abs);
}

/** Which of a race's scenarios: the deterministic demonstration or the hunt form. */
export type RaceForm = "demo" | "hunt";

const formFile = (race: RaceEntry, form: RaceForm) => (form === "demo" ? race.file : race.hunt.file);

/** The race's scenario as one side runs it: what `--kubelet-version` and `--variant` would run. */
export function raceScenario(race: RaceEntry, side: "buggy" | "fixed", form: RaceForm = "demo"): Scenario {
  return loadScenarioWithOverrides(join(ROOT, formFile(race, form)), sideOverrides(race[side])).scenario;
}

/** The side as the flags that select it. */
export function sideOverrides(s: RaceSide): KubeletOverrides {
  return {
    ...(s.kubeletVersion === undefined ? {} : { version: s.kubeletVersion }),
    ...(s.variants === undefined ? {} : { variants: s.variants }),
    ...(s.featureGates === undefined ? {} : { featureGates: s.featureGates }),
  };
}

/**
 * The race's scenario as one side runs it, as the raw YAML value (what `explore` takes, so its repro
 * files carry the side): the file's with `kubelet.version` and `kubelet.variants` set for the side.
 */
export function raceRawScenario(race: RaceEntry, side: "buggy" | "fixed", form: RaceForm = "demo"): RawScenario {
  const { raw } = readRawScenario(join(ROOT, formFile(race, form)));
  return { ...applyKubeletOverrides(raw, sideOverrides(race[side])), name: `${String(raw.name)}-${side}` };
}
