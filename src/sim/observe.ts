// What the kernel can tell about a run beyond its trace: which goroutine wrote each record, when
// each goroutine lived, the timed calls it made, the channel hand-offs between goroutines and every
// choice point with its instant. The pictures of a run (the HTML timeline, the Trace Event export)
// draw from it. It is a side channel: nothing here enters the trace or its hash, and a run without
// an observer pays one null check per hook.
import type { ChoiceKind } from "./choices.ts";
import type { Process } from "./process.ts";
import type { TraceRecord } from "./trace.ts";

/** The hooks the kernel calls when a run has an observer. */
export interface KernelObserver {
  spawn(p: Process, parent: Process | null, nowMs: number): void;
  exit(p: Process, nowMs: number, how: ProcEnd): void;
  /** A record was written while `running` ran (null: a timer callback, the kernel itself). */
  record(rec: TraceRecord, running: Process | null): void;
  /** p began a timed operation: a `call` (work that takes time) or a plain sleep. */
  timed(p: Process, label: string, nowMs: number, dueMs: number, isCall: boolean): void;
  /** p blocked on a channel, select, lock or wait group. */
  blocked(p: Process, nowMs: number): void;
  /** A value (or a close) went from one goroutine to another through a channel. */
  handoff(chan: string, from: Process, sentMs: number, to: Process, nowMs: number, closed: boolean): void;
  /** A choice point; `chosen` is the process picked when the choice is which one runs next. */
  choice(kind: ChoiceKind, n: number, index: number, nowMs: number, running: Process | null, chosen: Process | null, recordsSoFar: number): void;
  /** The run ended (before the "end" record). */
  end(nowMs: number): void;
}

export type ProcEnd = "done" | "killed" | "panic";

export interface ProcInfo {
  id: number;
  name: string;
  group: string;
  daemon: boolean;
  parent: number | null;
  startMs: number;
  /** When it returned, was killed or panicked; null when it was still alive at the end. */
  endMs: number | null;
  end: ProcEnd | null;
}

export interface CallSpan {
  proc: number;
  label: string;
  startMs: number;
  endMs: number;
}

/**
 * A stretch of one goroutine's work between two waits (a channel, a select, a lock, a plain sleep)
 * that made two or more calls: one iteration of a loop (a status sync batch, a relist, a sync).
 * `firstSeq` is the first record the goroutine wrote in it, which names it; -1 when none.
 */
export interface Activity {
  proc: number;
  startMs: number;
  endMs: number;
  calls: number;
  firstSeq: number;
}

export interface Handoff {
  chan: string;
  from: number;
  sentMs: number;
  to: number;
  recvMs: number;
  closed: boolean;
}

export interface ChoicePoint {
  kind: ChoiceKind;
  n: number;
  index: number;
  t: number;
  /** The process running when the choice was made; for "proc" choices, the one chosen. */
  proc: number | null;
  /** How many records the trace had when the choice was made (the choice sits before record seq). */
  beforeSeq: number;
}

/** The most of each kind the log keeps; a longer run keeps the first ones and says how many it left out. */
export const KERNEL_LOG_LIMIT = 200_000;

interface OpenActivity {
  startMs: number;
  endMs: number;
  calls: number;
  firstSeq: number;
}

/** A KernelObserver that keeps everything in memory, for the renderers. */
export class KernelLog implements KernelObserver {
  readonly procs: ProcInfo[] = [];
  /** recordProc[seq] is the id of the process that wrote record seq, 0 for none. */
  readonly recordProc: number[] = [];
  readonly calls: CallSpan[] = [];
  readonly activities: Activity[] = [];
  readonly handoffs: Handoff[] = [];
  readonly choices: ChoicePoint[] = [];
  /** How many hand-offs, calls and choices were left out past KERNEL_LOG_LIMIT. */
  dropped = 0;
  private readonly byId = new Map<number, ProcInfo>();
  private readonly open = new Map<number, OpenActivity>();
  private readonly lastCall = new Map<number, CallSpan>();

  spawn(p: Process, parent: Process | null, nowMs: number): void {
    const info: ProcInfo = { id: p.id, name: p.name, group: p.group, daemon: p.daemon, parent: parent?.id ?? null, startMs: nowMs, endMs: null, end: null };
    this.procs.push(info);
    this.byId.set(p.id, info);
  }

  exit(p: Process, nowMs: number, how: ProcEnd): void {
    const info = this.byId.get(p.id);
    if (info === undefined || info.end !== null) return;
    info.endMs = nowMs;
    info.end = how;
    // A call cut short by a kill ends with its goroutine.
    const last = this.lastCall.get(p.id);
    if (last !== undefined && last.endMs > nowMs) last.endMs = nowMs;
    this.lastCall.delete(p.id);
    this.closeActivity(p.id, nowMs);
  }

  record(rec: TraceRecord, running: Process | null): void {
    this.recordProc[rec.seq] = running === null ? 0 : running.id;
    if (running === null) return;
    const a = this.open.get(running.id);
    if (a === undefined) this.open.set(running.id, { startMs: -1, endMs: -1, calls: 0, firstSeq: rec.seq });
    else if (a.firstSeq < 0) a.firstSeq = rec.seq;
  }

  timed(p: Process, label: string, nowMs: number, dueMs: number, isCall: boolean): void {
    if (!isCall) {
      this.closeActivity(p.id, nowMs);
      return;
    }
    if (this.keep(this.calls.length)) {
      const span = { proc: p.id, label, startMs: nowMs, endMs: dueMs };
      this.calls.push(span);
      this.lastCall.set(p.id, span);
    }
    const a = this.open.get(p.id);
    if (a === undefined) this.open.set(p.id, { startMs: nowMs, endMs: dueMs, calls: 1, firstSeq: -1 });
    else {
      if (a.calls === 0) a.startMs = nowMs;
      a.endMs = dueMs;
      a.calls++;
    }
  }

  blocked(p: Process, nowMs: number): void {
    this.closeActivity(p.id, nowMs);
  }

  handoff(chan: string, from: Process, sentMs: number, to: Process, nowMs: number, closed: boolean): void {
    if (from === to || !this.keep(this.handoffs.length)) return;
    this.handoffs.push({ chan, from: from.id, sentMs, to: to.id, recvMs: nowMs, closed });
  }

  choice(kind: ChoiceKind, n: number, index: number, nowMs: number, running: Process | null, chosen: Process | null, recordsSoFar: number): void {
    if (!this.keep(this.choices.length)) return;
    const proc = chosen ?? running;
    this.choices.push({ kind, n, index, t: nowMs, proc: proc === null ? null : proc.id, beforeSeq: recordsSoFar });
  }

  /** Closes what is still open when the run ends. */
  end(nowMs: number): void {
    for (const id of [...this.open.keys()]) this.closeActivity(id, nowMs);
  }

  private keep(length: number): boolean {
    if (length < KERNEL_LOG_LIMIT) return true;
    this.dropped++;
    return false;
  }

  private closeActivity(proc: number, nowMs: number): void {
    const a = this.open.get(proc);
    if (a === undefined) return;
    this.open.delete(proc);
    if (a.calls < 2 || !this.keep(this.activities.length)) return;
    this.activities.push({ proc, startMs: a.startMs, endMs: Math.min(a.endMs, nowMs), calls: a.calls, firstSeq: a.firstSeq });
  }
}
