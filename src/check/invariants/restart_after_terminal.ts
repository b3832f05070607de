// Invariant restart-after-terminal-phase: once the API shows a pod Succeeded or Failed, no
// container of that pod starts again. Source: pod_workers.go ("A pod that is terminated will
// never be restarted"); races R13, R22.
import type { TraceRecord } from "../../sim/index.ts";
import { callStartMs, isOkCall, type InvariantInfo, type InvariantMonitor, type RecordReads, type Violation } from "./common.ts";

const ID = "restart-after-terminal-phase";

/** What observe reads (the dispatch and lazy records go by it: check/dispatch.ts). */
const READS: RecordReads = { PodView: ["pod", "uid", "phase"], StartContainer: ["pod", "result", "tookMs", "container"] };

class Monitor implements InvariantMonitor {
  readonly id = ID;
  readonly reads = READS;
  /** Pod key → the UID and time at which its API phase became terminal. */
  private readonly terminal = new Map<string, { uid: unknown; atMs: number; phase: string }>();

  observe(rec: TraceRecord): Violation | null {
    if (typeof rec.pod !== "string") return null;
    if (rec.component === "apiserver" && rec.kind === "PodView") {
      const known = this.terminal.get(rec.pod);
      if (known !== undefined && known.uid !== rec.uid) this.terminal.delete(rec.pod); // a new pod, same name
      if ((rec.phase === "Succeeded" || rec.phase === "Failed") && !this.terminal.has(rec.pod)) {
        this.terminal.set(rec.pod, { uid: rec.uid, atMs: rec.t, phase: String(rec.phase) });
      }
      return null;
    }
    if (!isOkCall(rec, "StartContainer")) return null;
    const term = this.terminal.get(rec.pod);
    if (term === undefined || callStartMs(rec) <= term.atMs) return null;
    return {
      invariant: ID,
      t: rec.t,
      pod: rec.pod,
      message: `container ${String(rec.container)} started at ${callStartMs(rec)}ms after the pod became ${term.phase} at ${term.atMs}ms`,
    };
  }
}

export const restartAfterTerminalPhase: InvariantInfo = {
  id: ID,
  statement: "A pod whose phase became Succeeded or Failed never starts a container again.",
  source: "pkg/kubelet/pod_workers.go (\"A pod that is terminated will never be restarted\"); races R13, R22",
  make: () => new Monitor(),
};
