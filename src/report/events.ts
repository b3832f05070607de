// Models the Events section of `kubectl describe pod` (k8s.io/kubectl/pkg/describe: DescribeEvents,
// SortableEvents, tabbedString), one section per pod, with Age measured at the end of the run.
//
// The raw Eventf calls in the trace go through the EventCorrelator first, so repeated events show
// as kubectl shows them: "2m (x5 over 4m)".
import { humanDuration } from "../k8s/printers.ts";
import { EventCorrelator, type RawEvent, type StoredEvent } from "./event_correlator.ts";
import { byString, endMsOf, podMatches, podOf, str, type TraceRecord } from "./records.ts";
import { alignOnce } from "./tabwriter.ts";

export interface EventsOptions {
  /** Only this pod ("ns/name" or "name"). */
  pod?: string;
  /** Apply client-go's spam filter (25 events per object, then 1 per 5 minutes). Default true. */
  spamFilter?: boolean;
}

/** Components that live in the kubelet process: their events come "From" the kubelet. */
const KUBELET_COMPONENTS = new Set([
  "kubelet", "config", "syncloop", "podworker", "pleg", "cache", "prober", "status", "kuberuntime",
]);

/** tabbedString's writer: minwidth 0, padding 2, one flush. */
const DESCRIBE_TABS = { minwidth: 0, padding: 2, rememberWidths: false } as const;

/** The raw event of a trace record of kind "Event", or undefined when it lacks the needed fields. */
export function rawEvent(rec: TraceRecord): RawEvent | undefined {
  const pod = podOf(rec);
  const type = str(rec, "type");
  const reason = str(rec, "reason");
  if (rec.kind !== "Event" || pod === undefined || type === undefined || reason === undefined) return undefined;
  return {
    ms: rec.t,
    pod,
    uid: str(rec, "uid") ?? "",
    fieldPath: str(rec, "object") ?? "",
    type,
    reason,
    message: str(rec, "message") ?? "",
    source: str(rec, "source") ?? (KUBELET_COMPONENTS.has(rec.component) ? "kubelet" : rec.component),
  };
}

/** Renders one Events section per pod that has events or pod views, pods in name order. */
export function renderEvents(records: readonly TraceRecord[], opts: EventsOptions = {}): string {
  const correlator = new EventCorrelator({ spamFilter: opts.spamFilter ?? true });
  const pods = new Set<string>();
  for (const rec of records) {
    const pod = podOf(rec);
    if (pod === undefined || (opts.pod !== undefined && !podMatches(pod, opts.pod))) continue;
    if (rec.kind === "PodView") pods.add(pod);
    const raw = rawEvent(rec);
    if (raw === undefined) continue;
    pods.add(pod);
    correlator.record(raw);
  }
  if (pods.size === 0) return "No pods in the trace.\n";
  const byPod = new Map<string, StoredEvent[]>();
  for (const e of correlator.events()) {
    const list = byPod.get(e.pod);
    if (list === undefined) byPod.set(e.pod, [e]);
    else list.push(e);
  }
  const nowMs = endMsOf(records);
  return [...pods].sort(byString).map((pod) => describePod(pod, byPod.get(pod) ?? [], nowMs)).join("\n");
}

function describePod(pod: string, events: readonly StoredEvent[], nowMs: number): string {
  const slash = pod.indexOf("/");
  const meta = [
    ["Name:", slash < 0 ? pod : pod.slice(slash + 1)],
    ["Namespace:", slash < 0 ? "" : pod.slice(0, slash)],
  ];
  if (events.length === 0) return alignOnce([...meta, ["Events:", "<none>"]], DESCRIBE_TABS);
  const rows = sortEvents(events).map((e) => [
    `  ${e.type}`, e.reason, interval(e, nowMs), e.source, e.message.trim(),
  ]);
  const table = alignOnce([
    ["  Type", "Reason", "Age", "From", "Message"],
    ["  ----", "------", "----", "----", "-------"],
    ...rows,
  ], DESCRIBE_TABS);
  return `${alignOnce(meta, DESCRIBE_TABS)}Events:\n${table}`;
}

/** SortableEvents: by LastTimestamp (whole seconds), equal times in creation order. */
function sortEvents(events: readonly StoredEvent[]): StoredEvent[] {
  return [...events].sort((a, b) => wireMs(a.lastMs) - wireMs(b.lastMs) || a.order - b.order);
}

/** The Age cell: "40s", or "10s (x3 over 2m)" for an event seen more than once. */
function interval(e: StoredEvent, nowMs: number): string {
  const first = humanDuration(nowMs - wireMs(e.firstMs));
  if (e.count <= 1) return first;
  return `${humanDuration(nowMs - wireMs(e.lastMs))} (x${e.count} over ${first})`;
}

/** metav1.Time travels with whole seconds: a timestamp as the apiserver hands it back. */
function wireMs(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}
