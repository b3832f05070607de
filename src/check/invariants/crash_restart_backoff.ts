// Invariant crash-restart-before-backoff (opt-in): after a regular container exits on its own (the
// kubelet did not stop it) and its restart policy restarts it, its next instance starts no sooner
// than the crash-loop back-off for that exit: backOffPeriod (10 s) after the first exit, doubling
// with each further exit, capped at maxContainerBackOff (300 s). The count starts over after an
// instance that ran for 10 minutes or more (2 x the cap, flowcontrol's expiry) and with each
// kubelet process, whose back-off lives in memory; instances a previous kubelet process started are
// not judged. Source: issue #133472 ("Pod crashloop backoff isn't entered until after the first
// restart"), race R25: doBackOff returns early for a container that has no exited instance, so no
// entry exists at its first crash and it restarts at once. The pod-lifecycle docs describe that
// immediate first restart ("Initial crash: ... attempts an immediate restart"), so no released
// kubelet keeps this contract: it is opt-in, left out of `all`.
import type { TraceRecord } from "../../sim/index.ts";
import type { Pod } from "../../k8s/pod.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { podSpecsByRuntimeKey, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "crash-restart-before-backoff";

interface Track {
  /** Exits on its own since the count last started over. */
  exits: number;
  /** The last instance's start, and its self-exit awaiting the next start. */
  startedAtMs: number;
  pending: { id: string; exitMs: number; delayMs: number; n: number } | null;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  KubeletStart: [],
  StopContainer: ["pod", "id"],
  ContainerExited: ["pod", "id", "exitCode"],
  StartContainer: ["pod", "id", "result", "container"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  private kubeletStartMs = 0;
  /** "pod|container" → its count. */
  private readonly tracks = new Map<string, Track>();
  /** Container ID → "pod|container", for containers started by this kubelet process. */
  private readonly judged = new Map<string, string>();

  constructor(
    private readonly specs: Map<string, Pod>,
    private readonly baseMs: number,
    private readonly capMs: number,
  ) {}

  observe(rec: TraceRecord): Violation | null {
    if (rec.component === "kubelet" && rec.kind === "KubeletStart") {
      this.kubeletStartMs = rec.t;
      this.tracks.clear();
      this.judged.clear();
      return null;
    }
    if (rec.component !== "runtime" || typeof rec.pod !== "string" || typeof rec.id !== "string") return null;
    if (rec.kind === "StopContainer") this.stoppedByKubelet(rec.id);
    else if (rec.kind === "ContainerExited") this.exited(rec, rec.pod, rec.id);
    else if (rec.kind === "StartContainer" && rec.result === "ok") return this.started(rec, rec.pod, rec.id);
    return null;
  }

  private started(rec: TraceRecord, pod: string, id: string): Violation | null {
    const name = String(rec.container);
    const spec = this.specs.get(pod);
    if (spec === undefined || !spec.spec.containers.some((c) => c.name === name)) return null;
    const key = `${pod}|${name}`;
    this.judged.set(id, key);
    const t = this.tracks.get(key) ?? { exits: 0, startedAtMs: rec.t, pending: null };
    const p = t.pending;
    t.startedAtMs = rec.t;
    t.pending = null;
    this.tracks.set(key, t);
    if (p === null || rec.t - p.exitMs >= p.delayMs) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod,
      message: `container ${name} restarted ${rec.t - p.exitMs}ms after its exit #${p.n} at ${p.exitMs}ms; its back-off was ${p.delayMs}ms`,
    };
  }

  private exited(rec: TraceRecord, pod: string, id: string): void {
    const key = this.judged.get(id);
    if (key === undefined || rec.t < this.kubeletStartMs) return;
    const t = this.tracks.get(key)!;
    const spec = this.specs.get(pod)!;
    const policy = spec.spec.restartPolicy ?? "Always";
    const code = typeof rec.exitCode === "number" ? rec.exitCode : 0;
    if (policy === "Never" || (policy === "OnFailure" && code === 0)) return;
    // A run of 2 x the cap or more resets the back-off (flowcontrol's expiry).
    if (rec.t - t.startedAtMs >= 2 * this.capMs) t.exits = 0;
    t.exits += 1;
    t.pending = { id, exitMs: rec.t, delayMs: Math.min(this.baseMs * 2 ** (t.exits - 1), this.capMs), n: t.exits };
  }

  /**
   * The runtime writes StopContainer when the call returns, after the exit it caused: an exit
   * followed by the kubelet's stop of that container was a kill, not a crash, and does not count.
   */
  private stoppedByKubelet(id: string): void {
    const key = this.judged.get(id);
    const t = key === undefined ? undefined : this.tracks.get(key);
    if (t?.pending?.id !== id) return;
    t.exits -= 1;
    t.pending = null;
  }
}

export const crashRestartBeforeBackoff: InvariantInfo = {
  id: ID,
  statement:
    "After a regular container exits on its own, its next instance starts no sooner than backOffPeriod x 2^(n-1) (capped at maxContainerBackOff) after the exit, n counting its exits since a 10-minute run or the kubelet's start (opt-in: the immediate first restart is documented behaviour).",
  source: "pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff; race R25 (issue #133472, PR #133577 closed)",
  optIn: true,
  make: (scenario: Scenario) => new Monitor(podSpecsByRuntimeKey(scenario), scenario.kubelet.backOffPeriodMs, scenario.kubelet.maxContainerBackOffMs),
};
