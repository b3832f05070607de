// The narrowed Mermaid diagram of a violation: the textbook's two or three actors instead of every
// component. Its participants are the goroutines that wrote the records the violation's message
// names (the timeline's narrowed view), plus any the caller adds (a race's catalog entry may name
// one more: the goroutine that sent the update that was lost). From a start instant to the
// violation it draws, on those goroutines only: what each did to the pod (notes, with their virtual
// time), its syncs and long calls as activations, the channel hand-offs between them as arrows,
// the records the message names marked "⚠", and the violation itself as the last note.
import { phrase } from "./phrases.ts";
import { num, type TraceRecord } from "./records.ts";
import { mermaidText } from "./mermaid_text.ts";
import { balanceActivations, durationText, LONG_CALL_MS, sortSteps, stepLine, type Step } from "./mermaid_steps.ts";
import { isNoisy } from "./text.ts";
import { formatClock } from "./timefmt.ts";
import type { RunView } from "./timeline/kernel_view.ts";
import type { Lane } from "./timeline/lanes.ts";
import { buildTimeline, type TimelineModel, type ViolationView } from "./timeline/model.ts";

export interface NarrowOptions {
  /** The violation to draw (its invariant id); the first violation when unset. */
  invariant?: string;
  /** The pod whose story it tells; the violation's pod when unset. */
  pod?: string;
  /** Leave out what happened before this instant (the setup). */
  fromMs?: number;
  /** More goroutines to draw, by name or name prefix ("kubelet/evict/"). */
  actors?: readonly string[];
  /** The most steps drawn. Default 45. */
  maxMessages?: number;
}

const DEFAULT_MAX = 45;
const VIOLATION_CHARS = 260;
/** Records that repeat what the diagram shows another way (a sync's begin, a pod view), or that only a debugger needs. */
const SKIPPED_KINDS = new Set(["Event", "PodView", "computePodActions", "PodCgroupCreated", "PodCgroupRemoved", "VolumesMounted", "VolumesUnmounted"]);
const SKIPPED = (rec: TraceRecord) =>
  SKIPPED_KINDS.has(rec.kind) || rec.component === "cache" || rec.component === "check" ||
  (rec.component === "kuberuntime" && rec["phase"] !== undefined) || (rec.component === "kubelet" && rec.kind === "SyncPod");

/** The record in words, without the ids a reader does not need (uids, the pod list of one pod). */
function words(rec: TraceRecord): string {
  return phrase(rec).replace(/ uids?=\S+/g, "").replace(/ pods=\[[^\]]*\]/g, "").replace(/ source=\S+/g, "");
}

/** A call by its kind and what it acts on: "PullImage example/big:1", "KillContainer b". */
function callName(rec: TraceRecord): string {
  const what = rec["container"] ?? rec["image"];
  return typeof what === "string" ? `${rec.kind} ${what}` : rec.kind;
}

function laneAlias(lane: Lane): string {
  if (lane.proc === null) return `${lane.name.replace(" (no goroutine)", "")}: no goroutine (containers, timers)`;
  return lane.outside ? `${lane.name} (outside the kubelet)` : lane.name;
}

function aboutPod(rec: TraceRecord, pod: string): boolean {
  const pods = rec["pods"];
  return rec.pod === pod || (Array.isArray(pods) && pods.includes(pod));
}

interface Narrow {
  model: TimelineModel;
  v: ViolationView;
  /** Participant id of each lane drawn. */
  ids: Map<number, string>;
  linked: Set<number>;
  pod: string;
  fromMs: number;
  bySeq: Map<number, TraceRecord>;
}

/** The steps one record draws on its goroutine's lifeline. */
function recordSteps(n: Narrow, rec: TraceRecord, id: string, outside: boolean): Step[] {
  const linked = n.linked.has(rec.seq);
  const mark = linked ? "⚠ " : "";
  const took = num(rec, "tookMs") ?? (num(rec, "sinceMs") === undefined ? undefined : rec.t - num(rec, "sinceMs")!);
  if (took !== undefined && took > 0) {
    const start = rec.t - took;
    if (took >= LONG_CALL_MS && start >= n.fromMs) {
      return [
        { at: start, seq: rec.seq, order: 1, until: rec.t, from: id, to: id, arrow: "->>", act: "+", text: `${mark}${formatClock(start)} ${callName(rec)} begins` },
        { at: rec.t, seq: rec.seq, order: 0, from: id, to: id, arrow: "-->>", act: "-", text: `${mark}${formatClock(rec.t)} ${callName(rec)} returns after ${durationText(took)}` },
      ];
    }
    // A short call is a detail, unless the message names it or someone outside the kubelet made it.
    if (!linked && !outside) return [];
  }
  if (rec.kind === "SyncBegin" || rec.kind === "SyncEnd") {
    const begin = rec.kind === "SyncBegin";
    const update = typeof rec["updateType"] === "string" && begin ? ` (${rec["updateType"]})` : "";
    return [{ at: rec.t, seq: rec.seq, order: 0, from: id, to: id, arrow: begin ? "->>" : "-->>", act: begin ? "+" : "-", text: `${mark}${formatClock(rec.t)} ${words(rec)}${update}` }];
  }
  return [{ at: rec.t, seq: rec.seq, order: 0, note: id, text: `${mark}${formatClock(rec.t)} ${words(rec)}` }];
}

function steps(n: Narrow): Step[] {
  const out: Step[] = [];
  for (const m of n.model.marks) {
    const id = n.ids.get(m.lane);
    const rec = n.bySeq.get(m.seq)!;
    if (id === undefined || rec.t < n.fromMs || rec.seq >= n.v.seq) continue;
    if (!n.linked.has(rec.seq) && (isNoisy(rec) || SKIPPED(rec) || !aboutPod(rec, n.pod))) continue;
    out.push(...recordSteps(n, rec, id, n.model.lanes[m.lane]!.outside));
  }
  for (const a of n.model.arrows) {
    const from = n.ids.get(a.from);
    const to = n.ids.get(a.to);
    if (from === undefined || to === undefined || a.fromMs < n.fromMs || a.fromMs > n.v.t) continue;
    // A channel's name without the pod UID it is keyed by.
    const chan = a.chan.replace(/\/?[0-9a-f]{8}-[0-9a-f-]{27,}/g, "");
    out.push({ at: a.fromMs, seq: sendSeq(n, a), order: 0, from, to, arrow: "->>", text: `${formatClock(a.fromMs)} ${a.closed ? "close of" : "send on"} ${chan}` });
  }
  return out;
}

/**
 * Where a send goes among the records of its instant: after the last record the sender wrote then
 * (the UpdatePod that sends), and before the receiver's first one when it received at once.
 */
function sendSeq(n: Narrow, a: TimelineModel["arrows"][number]): number {
  const at = (lane: number, t: number) => n.model.marks.filter((m) => m.lane === lane && m.t === t).map((m) => m.seq);
  const received = a.toMs === a.fromMs ? Math.min(Infinity, ...at(a.to, a.toMs)) : Infinity;
  const sent = at(a.from, a.fromMs).filter((s) => s < received);
  return (sent.length === 0 ? (Number.isFinite(received) ? received : n.v.seq) - 1 : Math.max(...sent)) + 0.5;
}

/** Renders the narrowed diagram, or a one-line diagram saying there is no violation to narrow to. */
export function renderNarrowMermaid(view: RunView, opts: NarrowOptions = {}): string {
  const model = buildTimeline(view);
  const v = model.violations.find((x) => opts.invariant === undefined || x.invariant === opts.invariant);
  if (v === undefined) return `sequenceDiagram\n    participant run\n    Note over run: ${mermaidText(`no ${opts.invariant ?? "invariant"} violation in this run`)}\n`;
  const wanted = new Set(v.lanes.filter((l) => model.lanes[l]!.group !== "checker"));
  for (const lane of model.lanes) if ((opts.actors ?? []).some((a) => lane.name === a || lane.name.startsWith(a))) wanted.add(lane.id);
  const lanes = model.lanes.filter((l) => wanted.has(l.id));
  const ids = new Map(lanes.map((l, i) => [l.id, `a${i + 1}`]));
  const n: Narrow = { model, v, ids, linked: new Set(v.links), pod: opts.pod ?? v.pod ?? "", fromMs: opts.fromMs ?? 0, bySeq: new Map(model.records.map((r) => [r.seq, r])) };
  const all = sortSteps(steps(n));
  const max = opts.maxMessages ?? DEFAULT_MAX;
  const drawn = balanceActivations(all.length <= max ? all : [...all.slice(0, max - 1), ...all.slice(max - 1).filter((s) => s.text.startsWith("⚠")).slice(-1)]);
  const span = lanes.length > 1 ? `a1,a${lanes.length}` : "a1";
  const out = ["sequenceDiagram", `    %% kubelet-sim: the goroutines the ${v.invariant} violation involves`];
  for (const l of lanes) out.push(`    ${l.outside && l.proc !== null ? "actor" : "participant"} ${ids.get(l.id)} as ${mermaidText(laneAlias(l))}`);
  for (const s of drawn) out.push(stepLine(s));
  if (drawn.length < all.length) out.push(`    Note over ${span}: ${mermaidText(`${all.length - drawn.length} more step(s) not shown`)}`);
  out.push(`    Note over ${span}: ${mermaidText(`❌ ${formatClock(v.t)} ${v.invariant} violated: ${v.message}`, VIOLATION_CHARS)}`);
  return out.join("\n") + "\n";
}
