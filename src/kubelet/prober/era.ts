// Models the release history of pkg/kubelet/prober (prober_manager.go, worker.go): which behaviour each kubelet minor has.
//
// A minor without a patch number is its .0 release. Releases marked "≈" were inferred from PR merge dates.
import { atLeast, checkedKubeletVersion, type KubeletVersion, type VersionLike } from "../version.ts";
import { fixedIn } from "../cherry_picks.ts";

export interface ProberEra {
  minor: number;
  version: KubeletVersion;
  /**
   * ≥1.21 (#98376 "Make all health checks probing consistent"): readiness and startup results go
   * to the kubelet's syncLoop through their managers' Updates() channels, and the readiness worker
   * gets manualTriggerCh. Before,
   * the prober manager's Start() ran updateReadiness/updateStartup goroutines that called the
   * status manager directly; only liveness results reached the syncLoop.
   */
  resultsToSyncLoop: boolean;
  /** ≥1.21 ≈: the random first sleep only when the kubelet started less than one period ago. */
  jitterOnlyAfterKubeletStart: boolean;
  /** ≥1.21 (#98571): a liveness/startup worker whose pod object has a deletionTimestamp sets Success and stops. */
  stopOnPodDeletion: boolean;
  /** ≥1.32 ≈ (#121206): a startup worker also holds (stops probing) after reaching Success. */
  startupHoldsOnSuccess: boolean;
  /**
   * ≥1.28 (KEP-753 alpha, #116429 and #119168): restartable init containers (sidecars) get probe
   * workers (AddPod, RemovePod), and UpdatePodStatus takes the pod and sets Started (and, for
   * sidecars, Ready) on the init container statuses.
   */
  restartableInitContainers: boolean;
  /** ≥1.33 ≈ (#125901): a probe error's Unhealthy event says the state it resulted in ("... errored and resulted in unknown state: ..."). */
  probeErrorEventNamesResult: boolean;
  /**
   * ≥1.20 (ExecProbeTimeout, #94115): an exec probe that times out is a Failure. Before, the runtime
   * returned the gRPC deadline error and the probe errored: retried, and its result discarded.
   */
  execTimeoutIsFailure: boolean;
  /**
   * ≥1.35 (#133072, in 1.33/1.34 only as patch releases): a worker keeps probing a terminated
   * restartable init container of a restartPolicy Never pod. The .0 releases modelled here stop it,
   * as for any container that will not be restarted (issue #132826).
   */
  sidecarProbedAfterExit: boolean;
  /**
   * ≥1.35 (KEP-4781, PR #133676: the ChangeContainerStatusOnKubeletRestart gate, deprecated and off
   * by default from 1.35): a kubelet restart keeps containers' Started and Ready. A worker seeing a
   * container that started more than 10 s before the kubelet (kubeletRestartGracePeriod) sets no
   * initial result for it; isContainerStarted trusts a Started=true status when the startup manager
   * has no result; UpdatePodStatus keeps a probed container Ready through setReadyStateOnKubeletRestart.
   */
  preserveStatusOnKubeletRestart: boolean;
  /**
   * 1.35.4 (PR #137146, cherry-pick #137885): on first sight after a kubelet restart a sidecar's
   * startup worker seeds Success when its status says Started=true; before, computeInitContainerActions
   * waited for a startup result that could never come, and a crashed app was never restarted (race R19).
   */
  seedsStartedSidecarOnRestart: boolean;
}

export function proberEra(release: VersionLike): ProberEra {
  const v = checkedKubeletVersion(release, "proberEra");
  return {
    minor: v.minor,
    version: v,
    resultsToSyncLoop: atLeast(v, "1.21"),
    jitterOnlyAfterKubeletStart: atLeast(v, "1.21"),
    stopOnPodDeletion: atLeast(v, "1.21"),
    startupHoldsOnSuccess: atLeast(v, "1.32"),
    restartableInitContainers: atLeast(v, "1.28"),
    probeErrorEventNamesResult: atLeast(v, "1.33"),
    execTimeoutIsFailure: atLeast(v, "1.20"),
    sidecarProbedAfterExit: atLeast(v, "1.35"),
    preserveStatusOnKubeletRestart: atLeast(v, "1.35"),
    seedsStartedSidecarOnRestart: fixedIn(v, "1.35.4"),
  };
}
