// The state the kubelet's handlers share (the fields of upstream's Kubelet struct that the pod
// lifecycle touches), and the era switch between the v1.21 and the current kubelet.
import type { Sim } from "../sim/index.ts";
import type { Pod } from "../k8s/pod.ts";
import { PodManager } from "./pod_manager.ts";
import { WorkQueue } from "./util/queue.ts";
import { RuntimeCache } from "./container/runtime_cache.ts";
import type { KubeletConfig, KubeletDeps } from "./kubelet_deps.ts";
import { atLeast, type VersionLike } from "./version.ts";
import { fixedIn } from "./cherry_picks.ts";
import { canAdmitPod, type AdmitContext, type PodAdmitResult } from "./lifecycle/admission.ts";

/** #126343 (1.32.0), picked into 1.31.1, 1.30.5, 1.29.9 and 1.28.14 (#127207-#127210): race R14. */
export const SKIP_TERMINAL_ADMISSION_RELEASES = ["1.28.14", "1.29.9", "1.30.5", "1.31.1", "1.32.0"] as const;

/** True for kubelets before the v1.22 pod lifecycle rework (PR #102344: "1.21", "1.20", ...). */
export function isLegacyEra(version: VersionLike): boolean {
  return !atLeast(version, "1.22");
}

/** config.SourcesReady: housekeeping waits until every source has sent at least one update. */
export class SourcesReady {
  private readonly seen = new Set<string>();
  constructor(private readonly expected: readonly string[]) {}
  AddSource(source: string): void {
    this.seen.add(source);
  }
  AllReady(): boolean {
    return this.expected.every((s) => this.seen.has(s));
  }
}

export class KubeletCore {
  readonly podManager = new PodManager();
  readonly workQueue: WorkQueue;
  readonly runtimeCache: RuntimeCache;
  readonly sourcesReady: SourcesReady;

  constructor(
    readonly sim: Sim,
    readonly deps: KubeletDeps,
    readonly config: KubeletConfig,
    sources: readonly string[],
  ) {
    this.workQueue = new WorkQueue(sim);
    this.runtimeCache = new RuntimeCache(sim, deps.runtime);
    this.sourcesReady = new SourcesReady(sources);
  }

  get legacy(): boolean {
    return isLegacyEra(this.config.version);
  }

  /**
   * canAdmitPod: every admit handler in order, the first rejection wins. The resource allocation
   * handler (device manager) comes before the predicate admit handler (resource fit), as
   * NewMainKubelet registers them.
   */
  canAdmitPod(activePods: readonly Pod[], pod: Pod): PodAdmitResult {
    for (const h of this.deps.admitHandlers ?? []) {
      const r = h.Admit(pod);
      if (!r.Admit) return r;
    }
    return canAdmitPod(this.admitContext, activePods, pod);
  }

  /** What the predicate admit handler reads: the node, the release, the sidecar gate. */
  get admitContext(): AdmitContext {
    return { node: this.config.getNode?.() ?? this.config.node, version: this.config.version, sidecars: this.config.sidecarContainers };
  }

  /** HandlePodAdditions leaves pods already Succeeded or Failed out of admission ("Terminated pod should not be re-admitted"). */
  get skipsAdmissionOfTerminalPods(): boolean {
    return fixedIn(this.config.version, ...SKIP_TERMINAL_ADMISSION_RELEASES);
  }

  /**
   * getPodsToSync: the pods whose work-queue time has come, and those a PodSyncLoopHandler wants
   * synced (the active deadline), in pod manager order (a Go map range: a recorded choice). The
   * order is drawn only when some pod is to sync: an empty answer is the same in any order.
   */
  getPodsToSync(): Pod[] {
    const work = this.workQueue.GetWork();
    // Asked every second and mostly nothing is due: the sets are made only when something is.
    const due = work.length === 0 ? null : new Set(work);
    const handlers = this.deps.podSyncLoopHandlers ?? [];
    const pods = this.podManager.GetPods();
    let wanted: Set<Pod> | null = null;
    for (const p of pods) {
      if ((due !== null && due.has(p.metadata.uid!)) || handlers.some((h) => h.ShouldSync(p))) (wanted ??= new Set()).add(p);
    }
    if (wanted === null) return [];
    return this.sim.mapOrder(pods).filter((p) => wanted.has(p));
  }

  emit(kind: string, pod: Pod | undefined, fields?: Record<string, unknown>): void {
    if (!this.sim.traces(kind)) return;
    const ref = pod === undefined ? undefined : `${pod.metadata.namespace ?? "default"}/${pod.metadata.name}`;
    this.sim.emit("kubelet", kind, { pod: ref, uid: pod?.metadata.uid, ...fields });
  }
}

/** PodsByCreationTime, with the UID as the final tie-break so the order is total. */
export function sortByCreationTime(pods: readonly Pod[]): Pod[] {
  return [...pods].sort((a, b) => {
    const ta = a.metadata.creationTimestamp ?? "";
    const tb = b.metadata.creationTimestamp ?? "";
    if (ta !== tb) return ta < tb ? -1 : 1;
    const ua = a.metadata.uid ?? "";
    const ub = b.metadata.uid ?? "";
    return ua < ub ? -1 : ua > ub ? 1 : 0;
  });
}

/** podutil.IsPodPhaseTerminal */
export function isPodPhaseTerminal(phase: string | undefined): boolean {
  return phase === "Succeeded" || phase === "Failed";
}
