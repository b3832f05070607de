// What the timeline renderers read about a run besides its records: the kernel's side channel
// (src/sim/observe.ts), as plain data. A KernelLog is one; a run rendered without it gets lanes per
// component instead of per goroutine, and no calls, hand-offs or choice points.
import type { Activity, CallSpan, ChoicePoint, Handoff, ProcInfo } from "../../sim/observe.ts";
import type { TraceRecord } from "../records.ts";

export interface KernelView {
  readonly procs: readonly ProcInfo[];
  /** recordProc[seq]: the process that wrote record seq; 0 or missing for none. */
  readonly recordProc: readonly number[];
  readonly calls: readonly CallSpan[];
  readonly activities: readonly Activity[];
  readonly handoffs: readonly Handoff[];
  readonly choices: readonly ChoicePoint[];
  /** Entries left out past the kernel log's bound. */
  readonly dropped: number;
}

/** One run as the pictures take it: its records, and the kernel's view when the run was observed. */
export interface RunView {
  records: readonly TraceRecord[];
  kernel?: KernelView;
  /** A short name for the run where several are shown (a diff): "kubelet 1.21". */
  label?: string;
}

export type { Activity, CallSpan, ChoicePoint, Handoff, ProcInfo };
