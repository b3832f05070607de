// A run in the Trace Event Format (the JSON that chrome://tracing and ui.perfetto.dev open): a
// process per component group, a thread per goroutine, complete events ("X") for what took time,
// thread instants ("i") for records, flow events ("s"/"f") for channel hand-offs, and metadata ("M")
// naming and ordering the tracks. Pods get a process of their own with their `kubectl get` state
// as slices; violations are global instants. Time is virtual: 1 ms of the run is 1000 µs.
//
// The format requires the complete events of one thread to nest. The timeline's layout already
// puts spans that would cross on another track of the lane, and each track is its own thread here.
// A flow binds to the slice around its end points, so each hand-off gets a zero-length slice at
// both ends ("send"/"recv" + channel), which nests wherever it falls.
import { buildTimeline, type TimelineModel } from "./timeline/model.ts";
import type { RunView } from "./timeline/kernel_view.ts";
import type { Lane } from "./timeline/lanes.ts";
import { runInfo } from "./records.ts";

export interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid?: number;
  ts?: number;
  dur?: number;
  cat?: string;
  s?: string;
  id?: number;
  bp?: string;
  args?: Record<string, unknown>;
}

const US_PER_MS = 1000;
/** The pods' process comes after every lane group's. */
const PODS_PID_OFFSET = 1;

interface Tracks {
  /** pid of each lane. */
  pid: Map<number, number>;
  /** tid of each (lane, track). */
  tid(lane: number, track: number): number;
  meta: TraceEvent[];
}

/** Assigns a pid per lane group and a tid per (lane, track), with the metadata naming them. */
function tracks(model: TimelineModel): Tracks {
  const groups: string[] = [];
  const pid = new Map<number, number>();
  const meta: TraceEvent[] = [];
  const tracksOfLane = new Map<number, number>();
  for (const s of model.spans) tracksOfLane.set(s.lane, Math.max(tracksOfLane.get(s.lane) ?? 0, s.track + 1));
  const tidOf = new Map<string, number>();
  let nextTid = 1;
  for (const lane of model.lanes) {
    // In a cluster each node is a process (its goroutines'; its lanes of no goroutine stay "outside").
    const process = lane.node !== undefined && lane.proc !== null ? lane.node : lane.group;
    let g = groups.indexOf(process);
    if (g < 0) {
      g = groups.push(process) - 1;
      meta.push({ ph: "M", name: "process_name", pid: g + 1, args: { name: process } });
      meta.push({ ph: "M", name: "process_sort_index", pid: g + 1, args: { sort_index: g } });
    }
    pid.set(lane.id, g + 1);
    const n = Math.max(1, tracksOfLane.get(lane.id) ?? 1);
    for (let k = 0; k < n; k++) {
      const tid = nextTid++;
      tidOf.set(`${lane.id}:${k}`, tid);
      meta.push({ ph: "M", name: "thread_name", pid: g + 1, tid, args: { name: threadName(lane, k) } });
      meta.push({ ph: "M", name: "thread_sort_index", pid: g + 1, tid, args: { sort_index: tid } });
    }
  }
  return { pid, tid: (lane, track) => tidOf.get(`${lane}:${track}`)!, meta };
}

function threadName(lane: Lane, track: number): string {
  const life = lane.proc === null ? "" : ` (goroutine ${lane.proc}${lane.end === null ? "" : `, ${lane.end} at ${lane.endMs}ms`})`;
  return track === 0 ? `${lane.name}${life}` : `${lane.name} (overlapping spans ${track + 1})`;
}

/** The events of one run, in a stable order. */
export function traceEvents(model: TimelineModel): TraceEvent[] {
  const t = tracks(model);
  const events: TraceEvent[] = [...t.meta];
  const bySeq = new Map(model.records.map((r) => [r.seq, r]));
  for (const s of model.spans) {
    const rec = s.seq >= 0 ? bySeq.get(s.seq) : undefined;
    const args: Record<string, unknown> = { source: s.source, ...(s.open ? { open: true } : {}), ...(rec === undefined ? {} : { record: rec }) };
    events.push({ ph: "X", name: s.name, cat: s.source, pid: t.pid.get(s.lane)!, tid: t.tid(s.lane, s.track), ts: s.startMs * US_PER_MS, dur: (s.endMs - s.startMs) * US_PER_MS, args });
  }
  for (const m of model.marks) {
    const rec = bySeq.get(m.seq)!;
    events.push({ ph: "i", s: "t", name: `${rec.component} ${rec.kind}`, cat: rec.component, pid: t.pid.get(m.lane)!, tid: t.tid(m.lane, 0), ts: m.t * US_PER_MS, args: { phrase: m.label, record: rec } });
  }
  model.arrows.forEach((a, id) => {
    const from = { pid: t.pid.get(a.from)!, tid: t.tid(a.from, 0) };
    const to = { pid: t.pid.get(a.to)!, tid: t.tid(a.to, 0) };
    const name = a.closed ? `close ${a.chan}` : a.chan;
    events.push({ ph: "X", name: `send ${name}`, cat: "chan", ...from, ts: a.fromMs * US_PER_MS, dur: 0 });
    events.push({ ph: "X", name: `recv ${name}`, cat: "chan", ...to, ts: a.toMs * US_PER_MS, dur: 0 });
    events.push({ ph: "s", name, cat: "chan", id, ...from, ts: a.fromMs * US_PER_MS });
    events.push({ ph: "f", bp: "e", name, cat: "chan", id, ...to, ts: a.toMs * US_PER_MS });
  });
  events.push(...podEvents(model), ...verdictEvents(model, t));
  return events;
}

function podEvents(model: TimelineModel): TraceEvent[] {
  if (model.pods.length === 0) return [];
  const pid = new Set(model.lanes.map((l) => (l.node !== undefined && l.proc !== null ? l.node : l.group))).size + PODS_PID_OFFSET;
  const out: TraceEvent[] = [
    { ph: "M", name: "process_name", pid, args: { name: "pods (kubectl get)" } },
    { ph: "M", name: "process_sort_index", pid, args: { sort_index: -1 } },
  ];
  model.pods.forEach((band, i) => {
    const tid = i + 1;
    out.push({ ph: "M", name: "thread_name", pid, tid, args: { name: band.pod } });
    for (const seg of band.segments) {
      out.push({ ph: "X", name: seg.state, cat: "pod", pid, tid, ts: seg.startMs * US_PER_MS, dur: (seg.endMs - seg.startMs) * US_PER_MS, args: { pod: band.pod, seq: seg.seq } });
    }
  });
  return out;
}

function verdictEvents(model: TimelineModel, t: Tracks): TraceEvent[] {
  const out: TraceEvent[] = [];
  for (const v of model.violations) {
    const lane = model.lanes.find((l) => v.lanes.includes(l.id) && l.group === "checker") ?? model.lanes[v.lanes[0] ?? 0];
    const pid = lane === undefined ? 1 : t.pid.get(lane.id)!;
    out.push({ ph: "i", s: "g", name: `VIOLATED ${v.invariant}`, cat: "violation", pid, ts: v.t * US_PER_MS, args: { invariant: v.invariant, pod: v.pod, message: v.message, linkedSeqs: v.links } });
  }
  for (const c of model.choices) {
    if (c.index === 0) continue;
    const lane = model.lanes[c.lane];
    if (lane === undefined) continue;
    out.push({ ph: "i", s: "t", name: `choice ${c.kind} ${c.index}/${c.n} (not fifo)`, cat: "choice", pid: t.pid.get(lane.id)!, tid: t.tid(lane.id, 0), ts: c.t * US_PER_MS, args: { ...c } });
  }
  return out;
}

/** Renders the run as Trace Event Format JSON (one event per line, so diffs stay readable). */
export function renderChromeTrace(view: RunView): string {
  const model = buildTimeline(view);
  const run = runInfo(view.records);
  const other = { tool: "kubelet-sim", title: model.title, verdict: model.verdict, ...(run === undefined ? {} : { scenario: run.scenario, seed: run.seed, strategy: run.strategy }), virtualTime: "1 ms of the run = 1000 µs" };
  const lines = traceEvents(model).map((e) => JSON.stringify(e));
  return `{"displayTimeUnit":"ms","otherData":${JSON.stringify(other)},"traceEvents":[\n${lines.join(",\n")}\n]}\n`;
}
