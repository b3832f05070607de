// The page's data (the runs' timelines, see src/report/html/page_data.ts) and the indexes the
// drawing needs: marks and spans per lane sorted by time, records by seq, pods per lane.
import type { PageData } from "../html/page_data.ts";
import type { Lane } from "../timeline/lanes.ts";
import type { Mark, TimelineModel } from "../timeline/model.ts";
import type { Span } from "../timeline/spans.ts";
import type { TraceRecord } from "../records.ts";

export type { Lane, Mark, PageData, Span, TimelineModel, TraceRecord };

export interface RunIndex {
  model: TimelineModel;
  /** marksOfLane[lane]: the lane's marks by time. */
  marksOfLane: Mark[][];
  spansOfLane: Span[][];
  /** The span rows each track of a lane needs (its deepest nesting + 1): with the periodic spans, and without. */
  trackRows: number[][];
  trackRowsQuiet: number[][];
  recordBySeq: Map<number, TraceRecord>;
  markBySeq: Map<number, Mark>;
  /** The pods each lane has records of. */
  podsOfLane: Set<string>[];
  /** Seqs the violations link to (drawn ringed). */
  linked: Set<number>;
}

export function readPage(id: string): PageData {
  const el = document.getElementById(id);
  if (el === null || el.textContent === null) throw new Error(`the page has no #${id} data`);
  return JSON.parse(el.textContent) as PageData;
}

export function indexRun(model: TimelineModel): RunIndex {
  const n = model.lanes.length;
  const marksOfLane: Mark[][] = Array.from({ length: n }, () => []);
  const spansOfLane: Span[][] = Array.from({ length: n }, () => []);
  const trackRows: number[][] = Array.from({ length: n }, () => []);
  const trackRowsQuiet: number[][] = Array.from({ length: n }, () => []);
  const podsOfLane: Set<string>[] = Array.from({ length: n }, () => new Set<string>());
  const markBySeq = new Map<number, Mark>();
  for (const m of model.marks) {
    marksOfLane[m.lane]!.push(m);
    markBySeq.set(m.seq, m);
    if (m.pod !== null) podsOfLane[m.lane]!.add(m.pod);
  }
  for (const s of model.spans) {
    spansOfLane[s.lane]!.push(s);
    for (const rows of s.noisy ? [trackRows[s.lane]!] : [trackRows[s.lane]!, trackRowsQuiet[s.lane]!]) rows[s.track] = Math.max(rows[s.track] ?? 0, s.depth + 1);
  }
  for (const list of marksOfLane) list.sort((a, b) => a.t - b.t || a.seq - b.seq);
  for (const list of spansOfLane) list.sort((a, b) => a.startMs - b.startMs);
  const linked = new Set<number>();
  for (const v of model.violations) for (const s of [...v.links, v.seq]) linked.add(s);
  return {
    model,
    marksOfLane,
    spansOfLane,
    trackRows: trackRows.map((rows) => Array.from(rows, (r) => r ?? 0)),
    trackRowsQuiet: trackRowsQuiet.map((rows) => Array.from(rows, (r) => r ?? 0)),
    recordBySeq: new Map(model.records.map((r) => [r.seq, r])),
    markBySeq,
    podsOfLane,
    linked,
  };
}

/** The first index in a list sorted by key whose key is at least `at`. */
export function lowerBound<T>(list: readonly T[], at: number, key: (x: T) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(list[mid]!) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
