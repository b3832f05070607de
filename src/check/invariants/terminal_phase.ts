// Invariant terminal-phase-never-changes: once the apiserver shows a pod Succeeded or Failed, that
// pod (the same UID) never shows another phase. Source: pkg/kubelet/kubelet_pods.go
// generateAPIPodStatus ("pods are not allowed to transition out of terminal phases": "Pod attempted
// illegal phase transition", forced back to the API's phase); race R13 (#58711, guard PR #59767).
import type { TraceRecord } from "../../sim/index.ts";
import type { InvariantInfo, InvariantMonitor, RecordReads, Violation } from "./common.ts";

const ID = "terminal-phase-never-changes";

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = { PodView: ["uid", "phase", "pod"] };

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** UID → the terminal phase the API first showed for it, and when. */
  private readonly terminal = new Map<string, { phase: string; atMs: number }>();

  observe(rec: TraceRecord): Violation | null {
    if (rec.component !== "apiserver" || rec.kind !== "PodView" || typeof rec.uid !== "string") return null;
    const phase = String(rec.phase);
    const known = this.terminal.get(rec.uid);
    if (known === undefined) {
      if (phase === "Succeeded" || phase === "Failed") this.terminal.set(rec.uid, { phase, atMs: rec.t });
      return null;
    }
    if (phase === known.phase) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod: String(rec.pod),
      message: `phase went from ${known.phase} (at ${known.atMs}ms) to ${phase} in the PodView at ${rec.t}ms for UID ${rec.uid}`,
    };
  }
}

export const terminalPhaseNeverChanges: InvariantInfo = {
  id: ID,
  statement: "Once the apiserver shows a pod Succeeded or Failed, the same pod (UID) never shows another phase.",
  source: "pkg/kubelet/kubelet_pods.go generateAPIPodStatus (\"Pod attempted illegal phase transition\"); race R13 (#58711, #59767)",
  make: () => new Monitor(),
};
