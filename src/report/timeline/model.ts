// The timeline of a run as plain data, for the HTML view and the Trace Event export: lanes (one per
// goroutine), marks (one per record), spans (what took time), arrows (channel hand-offs), a band
// per pod with its `kubectl get` state, the choice points, and the invariant violations with the
// records their messages name. Pure: records (and the kernel's view) in, a value out.
import { phrase } from "../phrases.ts";
import { endMsOf, endRecord, fieldText, podOf, runInfo, str, type TraceRecord } from "../records.ts";
import { isNoisy } from "../text.ts";
import type { RunView } from "./kernel_view.ts";
import { buildLanes, CHECK_COMPONENT, SIM_COMPONENT, type Lane } from "./lanes.ts";
import { linkedRecords } from "./links.ts";
import { buildSpans, type Span } from "./spans.ts";

export interface Mark {
  seq: number;
  lane: number;
  t: number;
  label: string;
  component: string;
  pod: string | null;
  /** Polling and bookkeeping (relists that found nothing, cache reads): drawn faint. */
  noisy: boolean;
}

export interface Arrow {
  from: number;
  fromMs: number;
  to: number;
  toMs: number;
  chan: string;
  closed: boolean;
}

export interface PodSegment {
  startMs: number;
  endMs: number;
  /** `kubectl get`'s STATUS and READY: "Running 1/2", "Terminating 0/1". */
  state: string;
  seq: number;
}

export interface PodBand {
  pod: string;
  segments: PodSegment[];
}

export interface ChoiceMark {
  t: number;
  kind: string;
  n: number;
  index: number;
  lane: number;
}

export interface ViolationView {
  seq: number;
  t: number;
  invariant: string;
  pod: string | null;
  message: string;
  links: number[];
  /** The lanes of the linked records and of the violation: the actors of the narrowed view. */
  lanes: number[];
}

export interface TimelineModel {
  label: string;
  title: string;
  verdict: string;
  diagnosis: string | null;
  endMs: number;
  /** True when the kernel's view was there: lanes are goroutines. */
  byGoroutine: boolean;
  records: readonly TraceRecord[];
  lanes: Lane[];
  marks: Mark[];
  spans: Span[];
  arrows: Arrow[];
  pods: PodBand[];
  choices: ChoiceMark[];
  /** How many choice points deviated from fifo (took another option than the first). */
  deviations: number;
  violations: ViolationView[];
  /** The scenario's expectations as the checker judged them: the view's badge says "ok" only when every one held. */
  expectations: { held: number; failed: string[] };
  /** Kernel entries left out past its bound (a very long run). */
  dropped: number;
}

const MAX_LABEL_CHARS = 140;

/**
 * Periodic records, drawn faint and hidden until asked for: what the text timeline hides at its
 * default verbosity, and the pod cache's global timestamp, which every relist moves.
 */
function periodic(rec: TraceRecord): boolean {
  return isNoisy(rec) || (rec.component === "cache" && rec.kind === "UpdateTime");
}

function podBands(records: readonly TraceRecord[], endMs: number): PodBand[] {
  const bands = new Map<string, PodBand>();
  const open = new Map<string, PodSegment>();
  for (const rec of records) {
    const pod = podOf(rec);
    if (rec.kind !== "PodView" || pod === undefined) continue;
    let band = bands.get(pod);
    if (band === undefined) bands.set(pod, (band = { pod, segments: [] }));
    const state = `${fieldText(rec["status"])} ${fieldText(rec["ready"])}`;
    const last = open.get(pod);
    if (last !== undefined && last.state === state && rec["deleted"] !== true) continue;
    if (last !== undefined) last.endMs = rec.t;
    open.delete(pod);
    // Once deleted the pod has no row in `kubectl get`; a pod created again under the name starts a new segment.
    if (rec["deleted"] === true) continue;
    const seg = { startMs: rec.t, endMs, state, seq: rec.seq };
    band.segments.push(seg);
    open.set(pod, seg);
  }
  return [...bands.values()];
}

function title(records: readonly TraceRecord[], kubeletVersion: string | undefined): string {
  const run = runInfo(records);
  if (run === undefined) return "a kubelet-sim run";
  const version = kubeletVersion === undefined ? "" : ` · kubelet ${kubeletVersion}`;
  return `${run.scenario}${version} · seed ${run.seed} · ${run.strategy}`;
}

/** A span of a polling record (a relist that found nothing, housekeeping's listing) is polling too. */
function markNoisy(spans: Span[], records: readonly TraceRecord[]): Span[] {
  const bySeq = new Map(records.map((r) => [r.seq, r]));
  for (const s of spans) {
    const rec = s.seq >= 0 ? bySeq.get(s.seq) : undefined;
    s.noisy = rec !== undefined && periodic(rec);
  }
  return spans;
}

/** Builds the model of one run. */
export function buildTimeline(view: RunView): TimelineModel {
  const { records, kernel } = view;
  const endMs = endMsOf(records);
  const idx = buildLanes(records, kernel);
  const marks: Mark[] = [];
  for (const rec of records) {
    const lane = idx.laneOfSeq[rec.seq] ?? -1;
    if (lane < 0 || rec.component === SIM_COMPONENT) continue;
    // The label is for reading at a glance: the pod's UID is in the record, one click away.
    const text = phrase(rec).replace(/ uids?=\S+/g, "");
    const label = text.length > MAX_LABEL_CHARS ? `${text.slice(0, MAX_LABEL_CHARS - 3)}...` : text;
    marks.push({ seq: rec.seq, lane, t: rec.t, label, component: rec.component, pod: podOf(rec) ?? null, noisy: periodic(rec) });
  }
  const arrows: Arrow[] = [];
  for (const h of kernel?.handoffs ?? []) {
    const from = idx.laneOfProc.get(h.from);
    const to = idx.laneOfProc.get(h.to);
    if (from !== undefined && to !== undefined) arrows.push({ from, fromMs: h.sentMs, to, toMs: h.recvMs, chan: h.chan, closed: h.closed });
  }
  const choices = (kernel?.choices ?? []).map((c) => ({ t: c.t, kind: c.kind, n: c.n, index: c.index, lane: c.proc === null ? -1 : idx.laneOfProc.get(c.proc) ?? -1 }));
  const violations = records
    .filter((r) => r.component === CHECK_COMPONENT && r.kind === "InvariantViolated")
    .map((v) => {
      const links = linkedRecords(v, records);
      const lanes = [...new Set([...links, v.seq].map((s) => idx.laneOfSeq[s] ?? -1).filter((l) => l >= 0))].sort((a, b) => a - b);
      return { seq: v.seq, t: v.t, invariant: str(v, "invariant") ?? "?", pod: podOf(v) ?? null, message: str(v, "message") ?? "", links, lanes };
    });
  const end = endRecord(records);
  const kubelet = records.find((r) => r.kind === "KubeletStart");
  return {
    label: view.label ?? (kubelet === undefined ? "run" : `kubelet ${fieldText(kubelet["version"])}`),
    title: title(records, kubelet === undefined ? undefined : fieldText(kubelet["version"])),
    verdict: end === undefined ? "unknown" : fieldText(end["verdict"]),
    diagnosis: end === undefined ? null : str(end, "diagnosis") ?? null,
    endMs,
    byGoroutine: kernel !== undefined,
    records,
    lanes: idx.lanes,
    marks,
    spans: markNoisy(buildSpans(records, kernel, idx, endMs), records),
    arrows,
    pods: podBands(records, endMs),
    choices,
    deviations: choices.filter((c) => c.index !== 0).length,
    violations,
    expectations: expectationsOf(records),
    dropped: kernel?.dropped ?? 0,
  };
}

/** The checker's Expectation records: how many held, and the words of each that failed. */
function expectationsOf(records: readonly TraceRecord[]): TimelineModel["expectations"] {
  const out: TimelineModel["expectations"] = { held: 0, failed: [] };
  for (const r of records) {
    if (r.component !== CHECK_COMPONENT || r.kind !== "Expectation") continue;
    if (r["ok"] === true) out.held++;
    else out.failed.push(str(r, "expectation") ?? "?");
  }
  return out;
}

