// The text timeline: one line per step, `time  lane  pod  what happened`, between a header naming
// the run and a footer with its verdict. Pure: the same records give the same bytes.
import { findDuplicates } from "./duplicates.ts";
import { findHousekeeping } from "./housekeeping.ts";
import { findNotable } from "./notable.ts";
import { linkedRecords } from "./timeline/links.ts";
import { phrase } from "./phrases.ts";
import { endRecord, fieldText, num, podMatches, podOf, runInfo, str, type TraceRecord } from "./records.ts";
import { CLOCK_MIN_WIDTH, formatClock } from "./timefmt.ts";

/** brief: what a user sees (events, pod views, deletions); normal: minus polling noise; all: every record. */
export type Verbosity = "brief" | "normal" | "all";

export interface TextOptions {
  /** Only records about this pod ("ns/name" or "name"). */
  pod?: string;
  /** Only records of these components. */
  components?: readonly string[];
  verbosity?: Verbosity;
}

/** The narrowest lane column: "kuberuntime", the longest component name. */
const LANE_MIN_WIDTH = 11;

const BRIEF_KINDS = new Set(["Event", "PodView", "TerminationRequested", "Create", "Delete", "DeletePod", "ContainerDied"]);

/** CRI calls the kubelet makes to look, not to act: every relist and status read makes some. */
const POLLING_CRI = new Set([
  "Version", "Status", "ListPodSandbox", "PodSandboxStatus", "ListContainers", "ContainerStatus",
  "ListImages", "ImageStatus", "GetContainerEvents", "Probe",
]);

const QUIET: Readonly<Record<string, ReadonlySet<string>>> = {
  apiserver: new Set(["Get", "List", "Watch"]),
  kubelet: new Set(["Housekeeping", "HousekeepingSkipped", "SyncLoopSync"]),
  prober: new Set(["ProbeRun", "ResultSet"]),
  status: new Set(["SyncBatch"]),
  runtime: POLLING_CRI,
};

/** Records hidden at the default verbosity: ticks, cache reads, quiet relists, polling calls. */
export function isNoisy(rec: TraceRecord): boolean {
  if (/tick/i.test(rec.kind)) return true;
  if (rec.component === "cache" && rec.kind.startsWith("Get")) return true;
  if (rec.component === "pleg" && rec.kind === "ContainerChanged") return true;
  if (rec.component === "pleg" && rec.kind === "relist" && rec["err"] === undefined && num(rec, "events") === 0) return true;
  // An exec probe's ExecSync is the prober polling, as an httpGet probe's Probe call is; its result line stays.
  if (rec.component === "runtime" && rec.kind === "ExecSync" && typeof rec["probe"] === "string") return true;
  return QUIET[rec.component]?.has(rec.kind) ?? false;
}

/** Why a record is not shown: a filter, the verbosity, or one of the housekeeping shapes. */
type HideReason = string;

/**
 * Decides, record by record, what the timeline shows, and why not. Stateful: below "all" it hides
 * a probe result or a pod view that repeats the previous one (a status write that changed no
 * kubectl column). At "normal" it also hides housekeeping that changed nothing (housekeeping.ts).
 */
function makeFilter(records: readonly TraceRecord[], opts: TextOptions): (rec: TraceRecord, index: number) => HideReason | null {
  const verbosity = opts.verbosity ?? "normal";
  const housekeeping = verbosity === "normal" ? quietAtNormal(records) : new Map<number, string>();
  const notable = verbosity === "normal" ? findNotable(records) : new Set<number>();
  const last = new Map<string, string>();
  /** Whether a record says again what the last one of its key said (a repeated probe result or pod view). */
  const repeats = (key: string, value: string): boolean => {
    const repeated = last.get(key) === value;
    last.set(key, value);
    return repeated;
  };
  return (rec, index) => {
    if (opts.pod !== undefined && !podMatches(podOf(rec), opts.pod)) return "filters";
    if (opts.components !== undefined && !opts.components.includes(rec.component)) return "filters";
    if (verbosity === "all") return null;
    if (rec.kind === "PodView") {
      // The phase counts too: a pod can turn Succeeded or Failed without a kubectl column changing.
      const view = ["ready", "status", "restarts", "deleted", "phase", "node"].map((k) => fieldText(rec[k])).join("\u0000");
      return repeats(`view\u0000${podOf(rec)}`, view) ? "repeats" : null;
    }
    if (verbosity === "brief") return BRIEF_KINDS.has(rec.kind) ? null : "verbosity";
    const chore = housekeeping.get(index);
    if (chore !== undefined) return chore;
    if (isNoisy(rec) && !notable.has(index)) return "polling and reads";
    // kubectl describe folds these into one line with a count; the events output does the same.
    if (rec.kind === "Event") {
      return repeats(`event\u0000${podOf(rec)}`, ["type", "reason", "message"].map((k) => fieldText(rec[k])).join("\u0000")) ? "repeats" : null;
    }
    if (rec.kind === "ProbeResult") {
      return repeats(["probe", podOf(rec), str(rec, "container"), str(rec, "probeType")].join("\u0000"), fieldText(rec["result"])) ? "repeats" : null;
    }
    return null;
  };
}

/**
 * Why each record is hidden from the timeline (null: shown), by position; the `run` and `end`
 * records are never lines. Tests use it to check what a verbosity shows.
 */
export function hideReasons(records: readonly TraceRecord[], opts: TextOptions = {}): (string | null)[] {
  const hideReason = makeFilter(records, opts);
  return records.map((rec, i) => (rec.kind === "run" || rec.kind === "end" ? "structure" : hideReason(rec, i)));
}

interface Line {
  clock: string;
  lane: string;
  /** The node whose process wrote the record (a cluster's records carry `node`); "" for the cluster's own. */
  node: string;
  pod: string;
  words: string;
}

/** Whether the trace is of more than one node: only then has the timeline a NODE column. */
export function nodesOf(records: readonly TraceRecord[]): Set<string> {
  const nodes = new Set<string>();
  for (const r of records) if (typeof r["node"] === "string" && r["node"] !== "") nodes.add(r["node"]);
  return nodes;
}

/** Renders the timeline. */
export function renderText(records: readonly TraceRecord[], opts: TextOptions = {}): string {
  const hideReason = makeFilter(records, opts);
  const lines: Line[] = [];
  const hidden = new Map<HideReason, number>();
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    if (rec.kind === "run" || rec.kind === "end") continue;
    const why = hideReason(rec, i);
    if (why !== null) {
      hidden.set(why, (hidden.get(why) ?? 0) + 1);
      continue;
    }
    lines.push({ clock: formatClock(rec.t), lane: rec.component, node: typeof rec["node"] === "string" ? rec["node"] : "", pod: podOf(rec) ?? "", words: phrase(rec) });
  }
  const out: string[] = [];
  const head = header(records);
  if (head !== undefined) out.push(head);
  out.push(...layout(lines, opts.pod === undefined, nodesOf(records).size > 1));
  out.push(...footer(records, hidden));
  return out.join("\n") + "\n";
}

function layout(lines: readonly Line[], withPod: boolean, withNode: boolean): string[] {
  const clockWidth = widest(lines, (l) => l.clock, CLOCK_MIN_WIDTH);
  const laneWidth = widest(lines, (l) => l.lane, LANE_MIN_WIDTH);
  const nodeWidth = withNode ? widest(lines, (l) => l.node, 1) : 0;
  const podWidth = withPod ? widest(lines, (l) => l.pod, 0) : 0;
  return lines.map((l) => {
    const cols = [l.clock.padStart(clockWidth), l.lane.padEnd(laneWidth)];
    // The cluster's own components (apiserver, scheduler) are on no node: "-".
    if (nodeWidth > 0) cols.push((l.node === "" ? "-" : l.node).padEnd(nodeWidth));
    if (podWidth > 0) cols.push(l.pod.padEnd(podWidth));
    cols.push(l.words);
    return cols.join("  ");
  });
}

/** The longest text of a column (a loop, not Math.max(...spread): traces can be long). */
function widest(lines: readonly Line[], col: (l: Line) => string, min: number): number {
  let w = min;
  for (const l of lines) w = Math.max(w, col(l).length);
  return w;
}

function header(records: readonly TraceRecord[]): string | undefined {
  const run = runInfo(records);
  if (run === undefined) return undefined;
  return `scenario ${run.scenario}  seed ${run.seed}  strategy ${run.strategy}  (kubelet-sim ${run.version})`;
}

/** Housekeeping that changed nothing, and second views of a shown step: what `normal` hides besides noise. */
function quietAtNormal(records: readonly TraceRecord[]): Map<number, string> {
  const quiet = new Map<number, string>(findDuplicates(records));
  for (const [i, kind] of findHousekeeping(records).hidden) quiet.set(i, kind);
  // What a violation's message names is what the violation is about: never a second view to fold.
  const named = namedByViolations(records);
  records.forEach((r, i) => {
    if (named.has(r.seq)) quiet.delete(i);
  });
  return quiet;
}

/** The seqs of the records every InvariantViolated record of the trace names (the HTML view's links). */
function namedByViolations(records: readonly TraceRecord[]): Set<number> {
  const named = new Set<number>();
  for (const r of records) {
    if (r.component === "check" && r.kind === "InvariantViolated") for (const seq of linkedRecords(r, records)) named.add(seq);
  }
  return named;
}

/** Housekeeping first (what `normal` promises to hide), then the rest, largest first. */
const REASON_ORDER = [
  "cache UpdateTime", "no-op config updates", "no-op syncs", "nested SyncPod markers", "duplicate views",
  "polling and reads", "repeats", "verbosity", "filters",
];

function hiddenSummary(hidden: ReadonlyMap<HideReason, number>): string | undefined {
  let total = 0;
  for (const n of hidden.values()) total += n;
  if (total === 0) return undefined;
  const reasons = [...hidden.keys()].sort((a, b) => REASON_ORDER.indexOf(a) - REASON_ORDER.indexOf(b));
  const parts = reasons.map((r) => `${hidden.get(r)} ${r}`);
  const more = reasons.some((r) => r !== "filters") ? "; --verbosity all shows them" : "";
  return `(${total} record(s) hidden: ${parts.join(", ")}${more})`;
}

function footer(records: readonly TraceRecord[], hidden: ReadonlyMap<HideReason, number>): string[] {
  const out: string[] = [];
  const end = endRecord(records);
  if (end === undefined) {
    out.push("(no end record: the trace is incomplete)");
  } else {
    const endMs = num(end, "endMs");
    const hash = str(end, "traceHash");
    const parts = [`verdict ${fieldText(end["verdict"])}`, `events ${fieldText(end["events"])}`];
    if (endMs !== undefined) parts.push(`ended at ${formatClock(endMs)}`);
    if (hash !== undefined && hash !== "") parts.push(`trace ${hash}`);
    out.push(parts.join("  "));
    if (end["diagnosis"] !== undefined && end["diagnosis"] !== null) out.push(`diagnosis ${fieldText(end["diagnosis"])}`);
  }
  const summary = hiddenSummary(hidden);
  if (summary !== undefined) out.push(summary);
  return out;
}
