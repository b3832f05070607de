// Not a model: a host-side cache beside kubelet.go's SyncPod (kubelet_sync.ts), which on every sync
// of a pod generates its API status (generateAPIPodStatus) and hands it to the status manager
// (SetPodStatus). A running pod is synced again every resync period (about a minute) with nothing
// changed, and then the status it generates is the last one and SetPodStatus finds it equal to the
// cached one and does nothing. This cache skips both then, which is safe when:
//
// - the arguments are the same: the same pod object (frozen, from the pod manager), the same
//   runtime status object (the pod cache's) with the same pod IPs (SyncPod rewrites them);
// - what both read besides their arguments did not change, and the last pass did not change it
//   either: the generation (statusGenerator.generation) counts every change of the status manager's
//   cache and every update it refused, every change of the probe workers and results and every
//   manual probe trigger, and every change of the reason cache (its recency order included). A pod
//   whose status depends on the time (an active deadline) has no generation and is never reused;
//   nothing else they read depends on the time.
//
// Then generating again would give an equal status and SetPodStatus would do nothing, record
// nothing and trigger nothing, so the sync goes on from the reused status exactly as it would have.
// test/kubelet/status_reuse.test.ts holds every bundled scenario to that (verify mode).
import type { Pod, PodStatus as APIPodStatus } from "../k8s/pod.ts";
import type { PodStatus } from "./container/runtime.ts";

/** What a pass generated from. */
interface Inputs {
  readonly pod: Pod;
  readonly podStatus: PodStatus;
  readonly ips: readonly string[];
  readonly generation: number;
}

/** A pass that changed nothing, and what it generated. */
interface Entry extends Inputs {
  readonly status: APIPodStatus;
}

/** Tests: recompute every reused status and redo its SetPodStatus, and throw if either differs. */
export const statusReuseChecks = { verify: false, reused: 0 };

export class StatusReuse {
  /** By pod object: a pod replaced by the pod manager leaves its entry to the garbage collector. */
  private readonly last = new WeakMap<Pod, Entry>();
  /** The pass in progress (generated, not yet set). */
  private pending: Inputs | null = null;

  /** generation(pod): the change count described above; undefined: never reuse this pod's status. */
  constructor(private readonly generation: (pod: Pod) => number | undefined) {}

  /** generateAPIPodStatus, or the last pass's status when nothing it was generated from changed and that pass changed nothing. */
  generate(pod: Pod, podStatus: PodStatus, generateAPIPodStatus: () => APIPodStatus): APIPodStatus {
    this.pending = null;
    const generation = this.generation(pod);
    if (generation === undefined) return generateAPIPodStatus();
    const last = this.last.get(pod);
    if (last !== undefined && last.podStatus === podStatus && last.generation === generation && sameStrings(last.ips, podStatus.ips)) {
      statusReuseChecks.reused++;
      if (statusReuseChecks.verify) verifyGenerated(last.status, generateAPIPodStatus());
      return last.status;
    }
    this.pending = { pod, podStatus, ips: [...podStatus.ips], generation };
    return generateAPIPodStatus();
  }

  /** SetPodStatus of what generate gave: nothing for a reused status; a pass that changed nothing is remembered. */
  SetPodStatus(pod: Pod, status: APIPodStatus, setPodStatus: () => void): void {
    const last = this.last.get(pod);
    if (last !== undefined && last.status === status) {
      if (statusReuseChecks.verify) verifySetNothing(setPodStatus, () => this.generation(pod), last.generation);
      return;
    }
    setPodStatus();
    const pass = this.pending;
    this.pending = null;
    if (pass === null || pass.pod !== pod) return;
    // Written out, not `{ ...pass, status }` (a spread of a fresh object then a property: about 1 µs on Node 20's V8).
    if (this.generation(pod) === pass.generation) this.last.set(pod, { pod: pass.pod, podStatus: pass.podStatus, ips: pass.ips, generation: pass.generation, status: Object.freeze(status) });
    else this.last.delete(pod);
  }
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function verifyGenerated(reused: APIPodStatus, fresh: APIPodStatus): void {
  if (JSON.stringify(reused) !== JSON.stringify(fresh)) {
    throw new Error(`status reuse: a reused status differs from a fresh one:\n${JSON.stringify(reused)}\n${JSON.stringify(fresh)}`);
  }
}

/** Generating again and SetPodStatus changed nothing: the generation is the one the reuse was decided at. */
function verifySetNothing(setPodStatus: () => void, generation: () => number | undefined, reusedAt: number): void {
  setPodStatus();
  if (generation() !== reusedAt) throw new Error("status reuse: generating the reused status again, or its SetPodStatus, changed something");
}
