// Invariant shortened-grace-period-honoured: when a second delete shortens a pod's grace period,
// the pod's containers stop by the shortened deadline. The apiserver lowers
// deletionGracePeriodSeconds on a second delete with a shorter grace; the kubelet's pod worker
// computes the shorter grace ("the grace period can only decrease", calculateEffectiveGracePeriod,
// wasGracePeriodShortened) and cancels the sync in flight, but a StopContainer already waiting out
// the first grace period is not cut short. Source: pkg/kubelet/pod_workers.go UpdatePod and
// calculateEffectiveGracePeriod; issue #83916 "kubelet does not honor shortened grace period on
// already-deleting pod" (open), PRs #113883 and #127580; race R06.
//
// Precisely: for each API pod UID, the deadline is the earliest (time + new grace) over the
// apiserver's graceful Delete records that set or lowered deletionGracePeriodSeconds, where the
// grace counts as at least kuberuntime's minimumGracePeriodInSeconds (2 s: killContainer never
// gives a container less). Once a later write lowered it, every container of that UID must have
// exited by the deadline plus one PLEG relist period (after a cancelled sync the pod worker waits
// in GetNewerThan for the next relist before it kills again) plus GRACE_EPSILON_MS (the watch
// delivery, a sync and the stop call; a healthy kubelet takes tens of milliseconds). A deletion
// whose grace never shrank is not this invariant's business. Static pods are left out: deleting a
// mirror pod does not stop its static pod.
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import { mergeReads, staticPodKeys, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";
import { CALL_CONTAINER_READS, RuntimeContainers } from "./containers.ts";
import { minimumGracePeriodInSeconds } from "../../kubelet/kuberuntime/kill_container.ts";

const ID = "shortened-grace-period-honoured";
export const GRACE_EPSILON_MS = 2_000;

interface Deletion {
  pod: string;
  graceSeconds: number;
  deadlineMs: number;
  /** When the grace was first shortened, and from what to what (null while it never was). */
  shortened: { atMs: number; fromSeconds: number } | null;
  reported: boolean;
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = mergeReads(CALL_CONTAINER_READS, { Delete: ["result", "deletionGracePeriodSeconds", "uid", "pod"] });

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  private readonly containers = new RuntimeContainers("call");
  private readonly deletions = new Map<string, Deletion>();
  /**
   * How many deletions are to judge (shortened, not yet reported): overdue looks at none while 0,
   * nor does the dispatch call advance (InvariantMonitor.deadlines).
   */
  readonly deadlines = { size: 0 };

  /** @param allowanceMs past the deadline: one relist period and GRACE_EPSILON_MS. */
  constructor(private readonly staticKeys: ReadonlySet<string>, private readonly allowanceMs: number) {}

  observe(rec: TraceRecord): Violation | null {
    this.containers.observe(rec);
    if (rec.component === "apiserver" && rec.kind === "Delete" && rec.result === "ok") this.onDelete(rec);
    return this.overdue(rec.t);
  }

  /** Time moved to nowMs at a record this monitor does not read (lazy records): judge the deadlines. */
  advance(nowMs: number): Violation | null {
    return this.overdue(nowMs);
  }

  private overdue(nowMs: number): Violation | null {
    if (this.deadlines.size === 0) return null; // no shortened deletion under way: nothing to judge
    for (const [uid, d] of this.deletions) {
      if (d.reported || d.shortened === null || nowMs <= d.deadlineMs + this.allowanceMs) continue;
      const running = this.containers.runningOf(d.pod, uid);
      if (running.length === 0) continue;
      d.reported = true;
      this.deadlines.size--;
      return {
        invariant: ID,
        t: nowMs,
        pod: d.pod,
        message:
          `the grace period was shortened from ${d.shortened.fromSeconds}s to ${d.graceSeconds}s at ${d.shortened.atMs}ms, ` +
          `so the pod's containers had to stop by ${d.deadlineMs}ms, but ${running.map((c) => `${c.container} (${c.id})`).join(", ")} still ran at ${nowMs}ms`,
      };
    }
    return null;
  }

  /** A graceful delete set or kept the object's deletionGracePeriodSeconds; a lower one shortens it. */
  private onDelete(rec: TraceRecord): void {
    const grace = rec.deletionGracePeriodSeconds;
    if (typeof grace !== "number" || typeof rec.uid !== "string" || typeof rec.pod !== "string" || this.staticKeys.has(rec.pod)) return;
    const d = this.deletions.get(rec.uid);
    const deadlineMs = rec.t + Math.max(grace, minimumGracePeriodInSeconds) * 1000;
    if (d === undefined) {
      this.deletions.set(rec.uid, { pod: rec.pod, graceSeconds: grace, deadlineMs, shortened: null, reported: false });
    } else if (grace < d.graceSeconds) {
      if (d.shortened === null) {
        d.shortened = { atMs: rec.t, fromSeconds: d.graceSeconds };
        this.deadlines.size++;
      }
      d.graceSeconds = grace;
      d.deadlineMs = Math.min(d.deadlineMs, deadlineMs);
    }
  }
}

export const shortenedGracePeriodHonoured: InvariantInfo = {
  id: ID,
  statement:
    "When a second delete shortens a pod's grace period, the pod's containers stop by the shortened deadline (the grace counted as at least kuberuntime's 2 s minimum), within one PLEG relist period + 2 s.",
  source: "pkg/kubelet/pod_workers.go UpdatePod, calculateEffectiveGracePeriod; issue #83916 (PRs #113883, #127580); race R06",
  make: (scenario: Scenario) => new Monitor(staticPodKeys(scenario), scenario.kubelet.plegRelistPeriodMs + GRACE_EPSILON_MS),
};
