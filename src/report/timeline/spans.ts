// The things on a lane that take time, as spans from start to end:
// - the kernel's calls (a CRI call, an apiserver request, a cgroup or volume step), exactly as the
//   goroutine made them; a request and its "(response)" continuation are one span;
// - a goroutine's activity: a stretch of two or more calls between two waits (a status sync, a relist);
// - what the records say took time: a record with `durationMs` (it ended now), with `sinceMs` (it
//   began then), a SyncBegin ... SyncEnd, a `phase: "begin"` ... `phase: "end"`, a ProbeRun ...
//   ProbeResult; `tookMs` (a CRI call's record) only when there are no kernel calls to draw instead.
import { fieldText, num, str, type TraceRecord } from "../records.ts";
import type { KernelView } from "./kernel_view.ts";
import type { LaneIndex } from "./lanes.ts";

export type SpanSource = "call" | "activity" | "record";

export interface Span {
  lane: number;
  startMs: number;
  endMs: number;
  name: string;
  source: SpanSource;
  /** The record the span belongs to (its end record, or the first record of an activity); -1 for none. */
  seq: number;
  /** The record that began it, for pairs; -1 otherwise. */
  beginSeq: number;
  /** Still going when the run ended. */
  open: boolean;
  /** Filled by layoutSpans: the sub-track of the lane, and the nesting depth within it. */
  track: number;
  depth: number;
  /** Polling (its record is a periodic one): drawn only with the periodic records. */
  noisy: boolean;
}

const SYNC_OF_MODE: Readonly<Record<string, string>> = {
  sync: "SyncPod",
  terminating: "SyncTerminatingPod",
  terminated: "SyncTerminatedPod",
};

type Draft = Omit<Span, "track" | "depth" | "noisy">;

const draft = (lane: number, startMs: number, endMs: number, name: string, source: SpanSource, seq: number, beginSeq = -1, open = false): Draft =>
  ({ lane, startMs, endMs, name, source, seq, beginSeq, open });

const RESPONSE = " (response)";

/** The kernel's calls as spans; a request's "(response)" half joins the request before it. */
function callSpans(kernel: KernelView, idx: LaneIndex, records: readonly TraceRecord[]): Draft[] {
  const out: Draft[] = [];
  const lastOfProc = new Map<number, Draft>();
  const endRecord = recordsEndingCalls(kernel, records);
  for (const c of kernel.calls) {
    const lane = idx.laneOfProc.get(c.proc);
    if (lane === undefined || c.endMs <= c.startMs) continue;
    const prev = lastOfProc.get(c.proc);
    if (prev !== undefined && c.label === prev.name + RESPONSE && c.startMs === prev.endMs) {
      prev.endMs = c.endMs;
      prev.seq = endRecord.get(`${c.proc}@${c.endMs}`) ?? prev.seq;
      continue;
    }
    const d = draft(lane, c.startMs, c.endMs, c.label, "call", endRecord.get(`${c.proc}@${c.endMs}`) ?? -1);
    lastOfProc.set(c.proc, d);
    out.push(d);
  }
  return out;
}

/** The first record each goroutine wrote at each instant: the record a call ending then produced. */
function recordsEndingCalls(kernel: KernelView, records: readonly TraceRecord[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const rec of records) {
    const proc = kernel.recordProc[rec.seq] ?? 0;
    if (proc === 0) continue;
    const key = `${proc}@${rec.t}`;
    if (!out.has(key)) out.set(key, rec.seq);
  }
  return out;
}

function activitySpans(kernel: KernelView, idx: LaneIndex, records: readonly TraceRecord[]): Draft[] {
  const bySeq = new Map(records.map((r) => [r.seq, r]));
  const out: Draft[] = [];
  for (const a of kernel.activities) {
    const lane = idx.laneOfProc.get(a.proc);
    if (lane === undefined || a.endMs <= a.startMs) continue;
    const first = a.firstSeq >= 0 ? bySeq.get(a.firstSeq) : undefined;
    out.push(draft(lane, a.startMs, a.endMs, first === undefined ? "busy" : first.kind, "activity", first?.seq ?? -1));
  }
  return out;
}

/** What one record says about a span it ends; undefined when it ends none. */
function endedSpan(rec: TraceRecord, lane: number, withCalls: boolean): Draft | undefined {
  const duration = num(rec, "durationMs");
  if (duration !== undefined && duration > 0) return draft(lane, rec.t - duration, rec.t, rec.kind, "record", rec.seq);
  const since = num(rec, "sinceMs");
  if (since !== undefined && since < rec.t) return draft(lane, since, rec.t, rec.kind, "record", rec.seq);
  const took = num(rec, "tookMs");
  if (!withCalls && took !== undefined && took > 0) return draft(lane, rec.t - took, rec.t, rec.kind, "record", rec.seq);
  return undefined;
}

interface Pairing {
  begins(rec: TraceRecord): boolean;
  ends(rec: TraceRecord): boolean;
  /** What a begin and its end have in common (besides the lane). */
  key(rec: TraceRecord): string;
  name(begin: TraceRecord): string;
}

const PAIRINGS: readonly Pairing[] = [
  {
    begins: (r) => r.kind === "SyncBegin",
    ends: (r) => r.kind === "SyncEnd",
    key: (r) => `sync ${fieldText(r["uid"] ?? r.pod)}`,
    name: (b) => SYNC_OF_MODE[str(b, "mode") ?? "sync"] ?? "sync",
  },
  {
    begins: (r) => r["phase"] === "begin",
    ends: (r) => r["phase"] === "end",
    key: (r) => `phase ${r.component} ${r.kind} ${r.pod ?? ""}`,
    name: (b) => `${b.component} ${b.kind}`,
  },
  {
    begins: (r) => r.component === "prober" && r.kind === "ProbeRun",
    ends: (r) => r.component === "prober" && r.kind === "ProbeResult",
    key: (r) => `probe ${r.pod ?? ""} ${fieldText(r["container"])} ${fieldText(r["probeType"])}`,
    name: (b) => `${fieldText(b["probeType"])} probe ${fieldText(b["container"])}`,
  },
];

function recordSpans(records: readonly TraceRecord[], idx: LaneIndex, withCalls: boolean, endMs: number): Draft[] {
  const out: Draft[] = [];
  const openPairs = new Map<string, { begin: TraceRecord; pairing: Pairing; lane: number }>();
  for (const rec of records) {
    const lane = idx.laneOfSeq[rec.seq] ?? -1;
    if (lane < 0) continue;
    const ended = endedSpan(rec, lane, withCalls);
    if (ended !== undefined) out.push(ended);
    for (const pairing of PAIRINGS) {
      const key = `${lane}\u0000${pairing.key(rec)}`;
      if (pairing.begins(rec)) openPairs.set(key, { begin: rec, pairing, lane });
      else if (pairing.ends(rec)) {
        const b = openPairs.get(key);
        if (b === undefined) continue;
        openPairs.delete(key);
        if (rec.t > b.begin.t) out.push(draft(lane, b.begin.t, rec.t, pairing.name(b.begin), "record", rec.seq, b.begin.seq));
      }
    }
  }
  // A begin without its end was still going when the run ended.
  for (const { begin, pairing, lane } of openPairs.values()) {
    if (endMs > begin.t) out.push(draft(lane, begin.t, endMs, pairing.name(begin), "record", begin.seq, begin.seq, true));
  }
  return out;
}

/** Every span of the run, laid out so that spans on one track of a lane nest. */
export function buildSpans(records: readonly TraceRecord[], kernel: KernelView | undefined, idx: LaneIndex, endMs: number): Span[] {
  const calls = kernel === undefined ? [] : callSpans(kernel, idx, records);
  const fromRecords = recordSpans(records, idx, calls.length > 0, endMs);
  const activities = kernel === undefined ? [] : keepActivities(activitySpans(kernel, idx, records), fromRecords);
  return layoutSpans([...fromRecords, ...activities, ...calls]);
}

/**
 * An activity says something only where the records do not: one that repeats a record's span (a
 * relist) or cuts across one (a sync that waits for an image pull in its middle) is left out.
 */
function keepActivities(activities: readonly Draft[], fromRecords: readonly Draft[]): Draft[] {
  const byLane = new Map<number, Draft[]>();
  for (const r of fromRecords) {
    const list = byLane.get(r.lane);
    if (list === undefined) byLane.set(r.lane, [r]);
    else list.push(r);
  }
  return activities.filter((a) => {
    for (const r of byLane.get(a.lane) ?? []) {
      if (r.startMs === a.startMs && r.endMs === a.endMs) return false;
      const crosses = (a.startMs < r.startMs && r.startMs < a.endMs && a.endMs < r.endMs) || (r.startMs < a.startMs && a.startMs < r.endMs && r.endMs < a.endMs);
      if (crosses) return false;
    }
    return true;
  });
}

const SOURCE_RANK: Readonly<Record<SpanSource, number>> = { record: 0, activity: 1, call: 2 };

/**
 * Assigns each span a track and a depth so that, on every track of a lane, two spans either nest or
 * do not overlap (the Trace Event Format's rule for one thread). Greedy, longest first at equal starts:
 * a span goes on the first track where it fits inside the innermost open span, or where none is open.
 */
export function layoutSpans(drafts: readonly Draft[]): Span[] {
  const sorted = drafts
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.lane - b.d.lane || a.d.startMs - b.d.startMs || b.d.endMs - a.d.endMs || SOURCE_RANK[a.d.source] - SOURCE_RANK[b.d.source] || a.i - b.i);
  const out: Span[] = [];
  let lane = -1;
  let tracks: Span[][] = [];
  for (const { d } of sorted) {
    if (d.lane !== lane) {
      lane = d.lane;
      tracks = [];
    }
    const span: Span = { ...d, track: 0, depth: 0, noisy: false };
    for (let k = 0; ; k++) {
      const stack = (tracks[k] ??= []);
      while (stack.length > 0 && stack[stack.length - 1]!.endMs <= span.startMs) stack.pop();
      const top = stack[stack.length - 1];
      if (top !== undefined && top.endMs < span.endMs) continue;
      span.track = k;
      span.depth = stack.length;
      stack.push(span);
      break;
    }
    out.push(span);
  }
  return out;
}
