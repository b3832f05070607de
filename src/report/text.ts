// The text timeline: one line per step, `time  lane  pod  what happened`, between a header naming
// the run and a footer with its verdict. Pure: the same records give the same bytes.
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
  return QUIET[rec.component]?.has(rec.kind) ?? false;
}

/**
 * Decides, record by record, what the timeline shows. Stateful: below "all" it hides a probe result
 * or a pod view that repeats the previous one (a status write that changed no kubectl column).
 */
function makeFilter(opts: TextOptions): (rec: TraceRecord) => boolean {
  const verbosity = opts.verbosity ?? "normal";
  const last = new Map<string, string>();
  /** Whether a record says again what the last one of its key said (a repeated probe result or pod view). */
  const repeats = (key: string, value: string): boolean => {
    const repeated = last.get(key) === value;
    last.set(key, value);
    return repeated;
  };
  return (rec) => {
    if (opts.pod !== undefined && !podMatches(podOf(rec), opts.pod)) return false;
    if (opts.components !== undefined && !opts.components.includes(rec.component)) return false;
    if (verbosity === "all") return true;
    if (rec.kind === "PodView") {
      return !repeats(`view\u0000${podOf(rec)}`, ["ready", "status", "restarts", "deleted"].map((k) => fieldText(rec[k])).join("\u0000"));
    }
    if (verbosity === "brief") return BRIEF_KINDS.has(rec.kind);
    if (isNoisy(rec)) return false;
    if (rec.kind === "ProbeResult") {
      return !repeats(["probe", podOf(rec), str(rec, "container"), str(rec, "probeType")].join("\u0000"), fieldText(rec["result"]));
    }
    return true;
  };
}

interface Line {
  clock: string;
  lane: string;
  pod: string;
  words: string;
}

/** Renders the timeline. */
export function renderText(records: readonly TraceRecord[], opts: TextOptions = {}): string {
  const show = makeFilter(opts);
  const lines: Line[] = [];
  let hidden = 0;
  for (const rec of records) {
    if (rec.kind === "run" || rec.kind === "end") continue;
    if (!show(rec)) {
      hidden++;
      continue;
    }
    lines.push({ clock: formatClock(rec.t), lane: rec.component, pod: podOf(rec) ?? "", words: phrase(rec) });
  }
  const out: string[] = [];
  const head = header(records);
  if (head !== undefined) out.push(head);
  out.push(...layout(lines, opts.pod === undefined));
  out.push(...footer(records, hidden));
  return out.join("\n") + "\n";
}

function layout(lines: readonly Line[], withPod: boolean): string[] {
  const clockWidth = widest(lines, (l) => l.clock, CLOCK_MIN_WIDTH);
  const laneWidth = widest(lines, (l) => l.lane, LANE_MIN_WIDTH);
  const podWidth = withPod ? widest(lines, (l) => l.pod, 0) : 0;
  return lines.map((l) => {
    const cols = [l.clock.padStart(clockWidth), l.lane.padEnd(laneWidth)];
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

function footer(records: readonly TraceRecord[], hidden: number): string[] {
  const out: string[] = [];
  const end = endRecord(records);
  if (end === undefined) {
    out.push("(no end record: the trace is incomplete)");
  } else {
    const endMs = num(end, "endMs");
    const hash = str(end, "traceHash");
    const parts = [`verdict ${fieldText(end["verdict"])}`, `events ${fieldText(end["events"])}`];
    if (endMs !== undefined) parts.push(`ended at ${formatClock(endMs)}`);
    if (hash !== undefined && hash !== "") parts.push(`trace sha256:${hash.slice(0, 12)}`);
    out.push(parts.join("  "));
    if (end["diagnosis"] !== undefined && end["diagnosis"] !== null) out.push(`diagnosis ${fieldText(end["diagnosis"])}`);
  }
  if (hidden > 0) out.push(`(${hidden} record(s) hidden by the filters and verbosity)`);
  return out;
}
