// Models the release history of pkg/kubelet/status/status_manager.go: which behaviour each kubelet minor has.
//
// A minor without a patch number is its .0 release; a gate names a patch release (atLeast(v,
// "1.23.6")) where a fix was cherry-picked. Releases marked "≈" were inferred from the merge date of the PR.
import { atLeast, checkedKubeletVersion, formatKubeletVersion, type KubeletVersion, type VersionLike } from "../version.ts";
import { fixedIn } from "../cherry_picks.ts";
import { perKey } from "../../k8s/memo.ts";

/** #108366 (1.24.0), picked into 1.23.6 (#108723) and 1.22.9 (#108749): race R11. */
export const DELAY_TERMINAL_PHASE_RELEASES = ["1.22.9", "1.23.6", "1.24.0"] as const;
/** #110256 (1.25.0), picked into 1.24.2 (#110479), 1.23.8 (#110480) and 1.22.11 (#110481): race R12. */
export const TERMINAL_PHASE_NOT_READY_RELEASES = ["1.22.11", "1.23.8", "1.24.2", "1.25.0"] as const;

export interface StatusEra {
  minor: number;
  version: KubeletVersion;
  /**
   * ≥1.27 (#115331, which took in the closed #116615 "Remove status manager channel"): podStatusChannel becomes a
   * `chan struct{}` of capacity 1, Start runs syncBatch(false) on a signal and syncBatch(true) on
   * the ticker, versionedPodStatus carries podIsFinished, and canBeDeleted asks for a terminal
   * API phase plus podIsFinished instead of podDeletionSafety.PodResourcesAreReclaimed.
   * Before: a channel of podStatusSyncRequest with capacity 1000 feeding syncPod one by one.
   */
  batchChannel: boolean;
  /** ≤1.21: TerminatePod leaves Waiting containers alone (the 1.22 pod lifecycle rewrite, #102344, dropped that). */
  terminatePodSkipsWaiting: boolean;
  /** #108366 (1.24.0, 1.23.6, 1.22.9): TerminatePod defaults only containers that could have started (hasPodInitialized). */
  terminatePodInitAware: boolean;
  /** ≥1.27 (#115331): TerminatePod moves a non-terminal phase of a non-static pod to Failed and marks podIsFinished. */
  terminatePodSetsTerminalPhase: boolean;
  /** #108366 (1.24.0, 1.23.6, 1.22.9): mergePodStatus keeps the old phase while the pod could have running containers. */
  delayTerminalPhase: boolean;
  /** #110256 (1.25.0, 1.24.2, 1.23.8, 1.22.11; issue #108594): a terminal phase forces Ready and ContainersReady to False. */
  terminalPhaseNotReady: boolean;
  /**
   * ≥1.28 (#116429, KEP-753): GeneratePodInitializedCondition returns True once any regular
   * container has started ("the pod has been initialized before"), whatever the SidecarContainers
   * gate says: the check is not gated upstream.
   */
  initializedOnceRegularStarted: boolean;
  /**
   * ≥1.30 (#123323): checkContainerStateTransition checks init containers on their own, matched to
   * the spec by index ("found mismatch between pod spec and status"), skips restartable init
   * containers (sidecars may always restart) and says "terminated init container". Before, the
   * same check ran over init statuses too, so a restarted sidecar of a Never/OnFailure pod froze
   * the pod's status.
   */
  initTransitionSkipsSidecars: boolean;
  /**
   * ≥1.28 ≈ (#116429, KEP-753): SetContainerReadiness recomputes Ready and ContainersReady over the
   * init and regular statuses together (a sidecar's readiness counts; before, a pod with sidecars
   * read every sidecar as "unknown status"), and hasPodInitialized takes a last init container that
   * is a running, started sidecar as initialized.
   */
  sidecarAwareReadiness: boolean;
  /**
   * ≈1.32 (#124901): normalizeStatus counts ephemeral containers in the termination-message budget
   * and normalizes and sorts their statuses too.
   */
  normalizeEphemeral: boolean;
  /**
   * ≥1.26 (PodDisruptionConditions beta, on by default; GA 1.31): DisruptionTarget is a condition
   * "shared by kubelet" (kubetypes.PodConditionSharedByKubelet). mergePodStatus sends the kubelet's
   * own DisruptionTarget only on the actual terminal transition with no container left running, and
   * isPodStatusByKubeletEqual compares it like an owned condition.
   */
  disruptionTargetShared: boolean;
}

export function statusEra(release: VersionLike): StatusEra {
  const v = checkedKubeletVersion(release, "statusEra");
  return {
    minor: v.minor,
    version: v,
    batchChannel: atLeast(v, "1.27"),
    terminatePodSkipsWaiting: !atLeast(v, "1.22"),
    terminatePodInitAware: fixedIn(v, ...DELAY_TERMINAL_PHASE_RELEASES),
    terminatePodSetsTerminalPhase: atLeast(v, "1.27"),
    delayTerminalPhase: fixedIn(v, ...DELAY_TERMINAL_PHASE_RELEASES),
    terminalPhaseNotReady: fixedIn(v, ...TERMINAL_PHASE_NOT_READY_RELEASES),
    initializedOnceRegularStarted: atLeast(v, "1.28"),
    initTransitionSkipsSidecars: atLeast(v, "1.30"),
    sidecarAwareReadiness: atLeast(v, "1.28"),
    normalizeEphemeral: atLeast(v, "1.32"),
    disruptionTargetShared: atLeast(v, "1.26"),
  };
}

/**
 * statusEra, kept per release: a pure function of the version, which the status generation asks
 * for on every sync. The object is shared, so callers only read it.
 */
export function statusEraOf(version: KubeletVersion): StatusEra {
  return statusEras(formatKubeletVersion(version));
}

const statusEras = perKey((release: string): StatusEra => Object.freeze(statusEra(release)), 256);
