// Where two runs of a scenario part ways: the first record at which their traces differ, compared
// record by record in trace order without seq (which only counts). The kernel's run and end
// records say how the runs were made, not what happened, and are skipped; so is a field that only
// states the kubelet version each side was asked to run (KubeletStart's version).
import { phrase } from "./phrases.ts";
import { fieldText, podOf, type TraceRecord } from "./records.ts";
import { formatClock } from "./timefmt.ts";

export interface FirstDifference {
  /** The instant of the first record that differs (the earlier of the two sides' records). */
  atMs: number;
  /** How many records the two traces share before it. */
  common: number;
  /** What each side did there, in words; null when that side's trace had already ended. */
  left: string | null;
  right: string | null;
  /** The whole text, as `kubelet-sim diff` prints it. */
  text: string;
}

const SKIPPED_COMPONENTS = new Set(["sim"]);

function steps(records: readonly TraceRecord[]): TraceRecord[] {
  return records.filter((r) => !SKIPPED_COMPONENTS.has(r.component));
}

function kubeletVersion(records: readonly TraceRecord[]): string | undefined {
  const start = records.find((r) => r.kind === "KubeletStart");
  return start === undefined ? undefined : fieldText(start["version"]);
}

/** Whether two records say the same, seq aside and each side's own version aside. */
function sameStep(a: TraceRecord, b: TraceRecord, versions: readonly [string | undefined, string | undefined]): boolean {
  const keys = Object.keys(a).filter((k) => k !== "seq");
  if (keys.join("\u0000") !== Object.keys(b).filter((k) => k !== "seq").join("\u0000")) return false;
  for (const k of keys) {
    const va = a[k];
    const vb = b[k];
    if (k === "version" && va === versions[0] && vb === versions[1]) continue;
    if (va !== vb && JSON.stringify(va) !== JSON.stringify(vb)) return false;
  }
  return true;
}

function line(label: string, rec: TraceRecord | undefined, width: number): string {
  const name = label.padEnd(width);
  if (rec === undefined) return `  ${name}  (the trace had ended)`;
  const pod = podOf(rec);
  return `  ${name}  ${formatClock(rec.t)}  ${rec.component}${pod === undefined ? "" : `  ${pod}`}  ${phrase(rec)}`;
}

function fieldDiffs(a: TraceRecord, b: TraceRecord): string {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k !== "seq");
  const show = (v: unknown) => (v === undefined ? "absent" : JSON.stringify(v));
  const diffs = keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).map((k) => `${k} (A: ${show(a[k])}, B: ${show(b[k])})`);
  return diffs.length === 0 ? "" : `  fields that differ: ${diffs.join("; ")}`;
}

/** The index of the first pair the predicate calls different, or n when none is. */
function firstIndex(a: readonly TraceRecord[], b: readonly TraceRecord[], same: (x: TraceRecord, y: TraceRecord) => boolean): number {
  const n = Math.max(a.length, b.length);
  let i = 0;
  while (i < n && a[i] !== undefined && b[i] !== undefined && same(a[i]!, b[i]!)) i++;
  return i;
}

/** What happened, without the details: the instant, who, what, about which pod. */
function sameShape(a: TraceRecord, b: TraceRecord): boolean {
  return a.t === b.t && a.component === b.component && a.kind === b.kind && a.pod === b.pod;
}

function section(title: string, a: readonly TraceRecord[], b: readonly TraceRecord[], i: number, labels: readonly [string, string]): string[] {
  const ra = a[i];
  const rb = b[i];
  const atMs = Math.min(ra?.t ?? Infinity, rb?.t ?? Infinity);
  const width = Math.max(labels[0].length, labels[1].length);
  const out = [`${title} at ${formatClock(atMs)}, after ${i} identical record${i === 1 ? "" : "s"}:`, line(labels[0], ra, width), line(labels[1], rb, width)];
  if (ra !== undefined && rb !== undefined && sameShape(ra, rb)) out.push(fieldDiffs(ra, rb));
  return out;
}

/**
 * The first point where two traces differ, or null when they tell the same story. When that first
 * difference is only in a record's fields (one version records more), the first different step
 * (instant, component, kind or pod) is given as well.
 */
export function firstDifference(left: readonly TraceRecord[], right: readonly TraceRecord[], labels: readonly [string, string]): FirstDifference | null {
  const a = steps(left);
  const b = steps(right);
  const versions = [kubeletVersion(left), kubeletVersion(right)] as const;
  const i = firstIndex(a, b, (x, y) => sameStep(x, y, versions));
  if (i === Math.max(a.length, b.length)) return null;
  const ra = a[i];
  const rb = b[i];
  const text = section("first difference", a, b, i, labels);
  const j = firstIndex(a, b, sameShape);
  if (j > i && j < Math.max(a.length, b.length)) text.push(...section("first different step", a, b, j, labels));
  const atMs = Math.min(ra?.t ?? Infinity, rb?.t ?? Infinity);
  return { atMs, common: i, left: ra === undefined ? null : phrase(ra), right: rb === undefined ? null : phrase(rb), text: text.join("\n") };
}
