// The trace as JSON lines: each record's canonical line (JSON.stringify, keys in the order the
// record was written), the same bytes the trace hash digests, so a file round-trips exactly.
import type { TraceRecord } from "./records.ts";

/** One canonical line per record, lazily: a long trace streams without one big string. */
export function* jsonLines(records: Iterable<TraceRecord>): Generator<string> {
  for (const rec of records) yield JSON.stringify(rec);
}

/** The whole trace as JSON lines, each ending in "\n" ("" for no records). */
export function renderJsonl(records: Iterable<TraceRecord>): string {
  let out = "";
  for (const line of jsonLines(records)) out += `${line}\n`;
  return out;
}
