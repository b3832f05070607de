// Reading trace records for the renderers: typed field access, the run/end records, pod filters.
//
// Records come from a run (or a JSON-lines file), so every field is read defensively: a renderer
// never throws on a record it does not understand, it prints it generically.
import type { TraceRecord } from "../sim/trace.ts";

export type { TraceRecord };

/** A string field, or undefined when absent or not a string. */
export function str(rec: TraceRecord, key: string): string | undefined {
  const v = rec[key];
  return typeof v === "string" ? v : undefined;
}

/** A finite number field, or undefined. */
export function num(rec: TraceRecord, key: string): number | undefined {
  const v = rec[key];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** The pod of a record ("ns/name"), or undefined when the record is not about one pod. */
export function podOf(rec: TraceRecord): string | undefined {
  return str(rec, "pod");
}

/** Whether a record's pod matches a filter written as "ns/name" or just "name". */
export function podMatches(pod: string | undefined, filter: string): boolean {
  if (pod === undefined) return false;
  return pod === filter || (!filter.includes("/") && pod.endsWith(`/${filter}`));
}

export interface RunInfo {
  scenario: string;
  seed: string;
  strategy: string;
  version: string;
}

/** The first record's run description, when the trace has one. */
export function runInfo(records: readonly TraceRecord[]): RunInfo | undefined {
  const first = records[0];
  if (first === undefined || first.kind !== "run") return undefined;
  return {
    scenario: fieldText(first["scenario"]),
    seed: fieldText(first["seed"]),
    strategy: fieldText(first["strategy"]),
    version: fieldText(first["version"]),
  };
}

/** The last record when it is the "end" record. */
export function endRecord(records: readonly TraceRecord[]): TraceRecord | undefined {
  const last = records[records.length - 1];
  return last !== undefined && last.kind === "end" ? last : undefined;
}

/** The instant a run ended: the end record's endMs, else the last record's t, else 0. */
export function endMsOf(records: readonly TraceRecord[]): number {
  const end = endRecord(records);
  const endMs = end === undefined ? undefined : num(end, "endMs");
  if (endMs !== undefined) return endMs;
  return records.length === 0 ? 0 : records[records.length - 1]!.t;
}

/** A field value as text: strings as they are, anything else as JSON ("null", "3", "{...}"). */
export function fieldText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined) return "";
  return JSON.stringify(v) ?? String(v);
}

const STRUCTURAL = new Set(["t", "seq", "component", "kind", "pod"]);

/**
 * The record's own fields as `key=value` pairs, in the record's order: the generic rendering of a
 * kind nobody wrote a phrase for. Strings with spaces or quotes are JSON-quoted so pairs stay apart.
 */
export function keyValues(rec: TraceRecord, skip: readonly string[] = []): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(rec)) {
    if (STRUCTURAL.has(k) || skip.includes(k) || v === undefined) continue;
    parts.push(`${k}=${quoteIfNeeded(v)}`);
  }
  return parts.join(" ");
}

function quoteIfNeeded(v: unknown): string {
  if (typeof v !== "string") return fieldText(v);
  return v === "" || /[\s"=]/.test(v) ? JSON.stringify(v) : v;
}

/** Byte-order string comparison (never localeCompare: output must not depend on the host locale). */
export function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
