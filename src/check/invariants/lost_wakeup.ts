// Invariant lost-wakeup: every update a pod worker accepts or drops is followed, within a bound, by
// a sync of that pod whose inputs are at least as new. Coalescing is allowed, dropping is not.
// Source: race R05 (#52641; the pinning rule "if a request to kill a pod is pending, we do not let
// anything overwrite that request", replaced in 1.22 by PR #102344, whose UpdatePod "always
// queue[s]" the newest update and "never lose[s] an OnCompleteFunc or a PodStatusFunc").
//
// Precisely, per pod UID, from the podworker records:
// - every `UpdatePod` is an update u at t; an `UpdateDropped` right after it marks u dropped (the
//   v1.21 worker discarded it because a pending kill was pinned);
// - a `SyncBegin` serves every update before it up to the last one not dropped: that sync runs
//   the newest accepted update, whose inputs (pod object, and a cache status newer than the
//   previous sync) are at least as new as any before it. A dropped update after the last
//   accepted one is not served: the sync runs an older update (the pinned kill);
// - u must be served by its deadline: the end of the sync in progress when u arrived (or u's own
//   time if none was), plus 1.5 × syncFrequency (the jittered periodic resync, which would serve
//   a dropped PLEG wake-up if the pod were still synced) plus two relist periods (GetNewerThan).
//   A violation is reported at the first record past the deadline, so a run that merely ends
//   early reports nothing.
// Updates need no serving once the pod is done with: the worker finished (>= 1.22: updates after
// SyncTerminatedPod are ignored by design) or the kubelet process stopped. When the kubelet
// removes the pod from its config (SyncLoopREMOVE), accepted updates still pending go with the
// worker by design (ForgetWorker), but a dropped one stays owed: the pod left without the kubelet
// ever syncing what that update reported.
import type { TraceRecord } from "../../sim/index.ts";
import type { Scenario } from "../../scenario/resolve.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";

const ID = "lost-wakeup";

interface Update {
  atMs: number;
  updateType: string;
  dropped: boolean;
  /** When the clock of its deadline starts: null while the sync in progress at its arrival runs. */
  anchorMs: number | null;
}

interface Worker {
  pod: string;
  busy: boolean;
  updates: Update[];
}

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = {
  KubeletStop: [],
  SyncLoopREMOVE: ["pods"],
  UpdatePod: ["uid", "pod", "updateType"],
  UpdateDropped: ["uid", "pod"],
  SyncBegin: ["uid", "pod"],
  SyncEnd: ["uid", "pod"],
  Finished: ["uid", "pod"],
  WorkerForgotten: ["uid", "pod"],
  WorkerRemoved: ["uid", "pod"],
};

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  private readonly workers = new Map<string, Worker>();
  /**
   * How many updates have a deadline (anchored: their worker was free since): only those can be
   * overdue, so while there are none the dispatch does not call advance (InvariantMonitor.deadlines).
   * Counted again after every change of the updates (apply, and an overdue report's filter).
   */
  readonly deadlines = { size: 0 };

  constructor(private readonly boundMs: number) {}

  observe(rec: TraceRecord): Violation | null {
    const late = this.overdue(rec.t);
    this.apply(rec);
    this.countDeadlines();
    return late;
  }

  private countDeadlines(): void {
    let n = 0;
    for (const w of this.workers.values()) for (const u of w.updates) if (u.anchorMs !== null) n++;
    this.deadlines.size = n;
  }

  /** Deadlines pass at the first record past them, read or not. */
  advance(nowMs: number): Violation | null {
    return this.overdue(nowMs);
  }

  private apply(rec: TraceRecord): void {
    if (rec.component === "kubelet" && rec.kind === "KubeletStop") this.workers.clear();
    if (rec.component === "kubelet" && rec.kind === "SyncLoopREMOVE" && Array.isArray(rec.pods)) {
      for (const w of this.workers.values()) if (rec.pods.includes(w.pod)) w.updates = w.updates.filter((u) => u.dropped);
    }
    if (rec.component !== "podworker" || typeof rec.uid !== "string") return;
    const w = this.workerOf(rec.uid, typeof rec.pod === "string" ? rec.pod : "");
    switch (rec.kind) {
      case "UpdatePod":
        w.updates.push({ atMs: rec.t, updateType: String(rec.updateType), dropped: false, anchorMs: w.busy ? null : rec.t });
        return;
      case "UpdateDropped": {
        const last = w.updates.at(-1);
        if (last !== undefined) last.dropped = true;
        return;
      }
      case "SyncBegin": {
        w.busy = true;
        let lastAccepted = -1;
        w.updates.forEach((u, i) => (lastAccepted = u.dropped ? lastAccepted : i));
        w.updates.splice(0, lastAccepted + 1);
        return;
      }
      case "SyncEnd":
        w.busy = false;
        for (const u of w.updates) u.anchorMs ??= rec.t;
        return;
      case "Finished":
      case "WorkerForgotten":
      case "WorkerRemoved":
        this.workers.delete(rec.uid);
        return;
      default:
    }
  }

  /** The first update past its deadline at `nowMs`, reported once and forgotten. */
  private overdue(nowMs: number): Violation | null {
    if (this.workers.size === 0) return null;
    for (const w of this.workers.values()) {
      if (w.updates.length === 0) continue; // the usual case: nothing pending to judge
      // The first overdue update (a loop, not findIndex: this runs at every instant of a run).
      let i = 0;
      while (i < w.updates.length && !(w.updates[i]!.anchorMs !== null && nowMs > w.updates[i]!.anchorMs! + this.boundMs)) i++;
      if (i === w.updates.length) continue;
      const u = w.updates[i]!;
      // One report per worker and instant: the other updates overdue with it tell nothing more, and
      // reporting them one record later would depend on which records are built (lazy records).
      w.updates = w.updates.filter((x) => !(x.anchorMs !== null && nowMs > x.anchorMs + this.boundMs));
      this.countDeadlines();
      const how = u.dropped ? "was dropped (a pending kill was pinned)" : "was accepted";
      return {
        invariant: ID,
        t: nowMs,
        pod: w.pod,
        message:
          `the pod worker update (${u.updateType}) at ${u.atMs}ms ${how}, and no sync with inputs at least as new ` +
          `began by ${u.anchorMs! + this.boundMs}ms (${u.anchorMs}ms, when the worker was free, plus ${this.boundMs}ms)`,
      };
    }
    return null;
  }

  private workerOf(uid: string, pod: string): Worker {
    let w = this.workers.get(uid);
    if (w === undefined) this.workers.set(uid, (w = { pod, busy: false, updates: [] }));
    return w;
  }
}

/** 1.5 × syncFrequency (the jittered resync) plus two relist periods (GetNewerThan waits for one). */
export function lostWakeupBoundMs(scenario: Scenario): number {
  return Math.floor(1.5 * scenario.kubelet.syncFrequencyMs) + 2 * scenario.kubelet.plegRelistPeriodMs;
}

export const lostWakeup: InvariantInfo = {
  id: ID,
  statement:
    "Every update a pod worker receives is followed, within 1.5 x syncFrequency + 2 relist periods of the worker being free, by a sync of that pod with inputs at least as new (coalescing allowed, dropping not).",
  source: "race R05 (kubernetes issue #52641; PR #102344, v1.22)",
  make: (scenario: Scenario) => new Monitor(lostWakeupBoundMs(scenario)),
};
