// Where two runs of a scenario part ways: the first step at which what the kubelet did differs,
// compared step by step in trace order: the instant, the component, the kind, the pod, and every
// field both sides record. A field only one side records is bookkeeping (the 1.22 pod worker's
// UpdatePod names a `workType`, the 1.20 one does not): a record that differs only there is the
// same step, and the headline says so in one line when such a field differed first. The
// kernel's run and end records say how the runs were made, not what happened, and are skipped; so
// is the kubelet version each side was asked to run (KubeletStart's version).
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

/**
 * The same step: the instant, the component, the kind and the pod, and every field both records
 * carry. A field only one side records is bookkeeping one release added (a `workType`, a sync's
 * `mode`), not a different step.
 */
function sameStep(a: TraceRecord, b: TraceRecord, versions: readonly [string | undefined, string | undefined]): boolean {
  if (a.t !== b.t || a.component !== b.component || a.kind !== b.kind || podOf(a) !== podOf(b)) return false;
  for (const k of Object.keys(a)) {
    if (k === "seq" || !(k in b)) continue;
    const va = a[k];
    const vb = b[k];
    if (k === "version" && va === versions[0] && vb === versions[1]) continue;
    if (va !== vb && JSON.stringify(va) !== JSON.stringify(vb)) return false;
  }
  return true;
}

/** The same record, field for field (seq and each side's version aside). */
function sameFields(a: TraceRecord, b: TraceRecord, versions: readonly [string | undefined, string | undefined]): boolean {
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
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).map((k) => `${k} (A: ${show(a[k])}, B: ${show(b[k])})`).join("; ");
}

/** The index of the first pair the predicate calls different, or n when none is. */
function firstIndex(a: readonly TraceRecord[], b: readonly TraceRecord[], same: (x: TraceRecord, y: TraceRecord) => boolean): number {
  const n = Math.max(a.length, b.length);
  let i = 0;
  while (i < n && a[i] !== undefined && b[i] !== undefined && same(a[i]!, b[i]!)) i++;
  return i;
}

/**
 * The first step where two traces differ, or null when they tell the same story. The headline is
 * that step, once: each side's record there in words. When a field a step's words leave out
 * differed earlier, one more line names the first such field.
 */
export function firstDifference(left: readonly TraceRecord[], right: readonly TraceRecord[], labels: readonly [string, string]): FirstDifference | null {
  const a = steps(left);
  const b = steps(right);
  const versions = [kubeletVersion(left), kubeletVersion(right)] as const;
  const i = firstIndex(a, b, (x, y) => sameStep(x, y, versions));
  const n = Math.max(a.length, b.length);
  const f = firstIndex(a, b, (x, y) => sameFields(x, y, versions));
  if (i === n && f === n) return null;
  const width = Math.max(labels[0].length, labels[1].length);
  const text: string[] = [];
  let atMs: number;
  if (i < n) {
    const ra = a[i];
    const rb = b[i];
    atMs = Math.min(ra?.t ?? Infinity, rb?.t ?? Infinity);
    text.push(`first difference at ${formatClock(atMs)}, after ${i} identical step${i === 1 ? "" : "s"}:`, line(labels[0], ra, width), line(labels[1], rb, width));
  } else {
    atMs = a[f]!.t;
    text.push(`the two runs take the same steps; their records differ only in fields one side does not record:`);
  }
  if (f < i) text.push(`  (earlier, records differ only in bookkeeping fields: at ${formatClock(a[f]!.t)} ${a[f]!.component} ${a[f]!.kind}: ${fieldDiffs(a[f]!, b[f]!)})`);
  else if (i === n) text.push(`  at ${formatClock(a[f]!.t)} ${a[f]!.component} ${a[f]!.kind}: ${fieldDiffs(a[f]!, b[f]!)}`);
  const ra = a[i];
  const rb = b[i];
  return { atMs, common: i, left: ra === undefined ? null : phrase(ra), right: rb === undefined ? null : phrase(rb), text: text.join("\n") };
}
