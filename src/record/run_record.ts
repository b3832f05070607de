// The run record: the small JSON document that `kubelet-sim run --record` writes, `explore` writes
// as a repro file (with a `repro` section), and `replay` reads back. A run is a function of
// (scenario text, seed, strategy, until, kubelet overrides); the record pins the scenario by the
// sha256 of its text and carries the run's choice tape, so a replay feeds back the very choices
// the run made and can demand the identical trace hash. Pure: text in, text out, no file system,
// so the library and a browser page make and read the same bytes (docs/cli.md has the format).
// The trace hash is the trace digest (16 hex digits, src/sim/digest.ts); records written before it
// existed carry the sha256 of the JSON lines (64 hex digits), which a replay still checks.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { parseStrategy, type ChoiceLog } from "../sim/index.ts";
import { VERSION } from "../version.ts";
import { FORMAT_FAMILY, labelOnlyStrategy, RUN_RECORD_FORMAT } from "./format.ts";
import { runRecordSchema } from "./run_record_schema.ts";
import { decodeTape, TapeError } from "./tape.ts";

export {
  FORMAT_FAMILY,
  GUIDED_STRATEGY,
  isLinesSha256,
  labelOnlyStrategy,
  MAX_RECORD_BYTES,
  PLAY_STRATEGY,
  RECORD_VERDICTS,
  RUN_RECORD_FORMAT,
} from "./format.ts";

/** The record as JSON holds it (docs/cli.md, "The run record"). Fields beyond these (a repro's `repro`) are kept when read. */
export interface RunRecord {
  format: typeof RUN_RECORD_FORMAT;
  /** The kubelet-sim version that made the run. */
  tool: string;
  /** The scenario path as given to `run`. */
  scenario: string;
  /** The sha256 of the scenario's text, in hex. */
  scenarioSha256: string;
  seed: number;
  /** The strategy that made the choices, e.g. pct:3:1000, or play (a play-mode export). */
  strategy: string;
  untilMs: number;
  /** --kubelet-version, --variant and --feature-gate, when the run had them. */
  kubelet?: { version?: string | undefined; variants?: Record<string, boolean> | undefined; featureGates?: Record<string, boolean> | undefined } | undefined;
  /** The choice tape, ChoiceLog.encode(). */
  choices: string;
  /** How the run ended (a Verdict). */
  verdict: string;
  ok: boolean;
  /** The trace digest (16 hex digits), or an older record's sha256 of the JSON lines (64). */
  traceHash: string;
  replayKey: string;
  /** The scenario's text itself, when the record carries it (a play-mode export at the learner's timing). */
  scenarioText?: string | undefined;
}

/** A text that is not a run record; the message names the source and every bad field. */
export class RunRecordError extends Error {
  override name = "RunRecordError";
}

/** The sha256 of a text's UTF-8 bytes, in hex: how a record pins its scenario. */
export function textSha256(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** The record as written: two-space JSON with a fixed key order, so equal runs give equal files. */
export function formatRunRecord(record: RunRecord): string {
  const ordered: RunRecord = {
    format: record.format,
    tool: record.tool,
    scenario: record.scenario,
    scenarioSha256: record.scenarioSha256,
    seed: record.seed,
    strategy: record.strategy,
    untilMs: record.untilMs,
    ...(record.kubelet === undefined ? {} : { kubelet: record.kubelet }),
    choices: record.choices,
    verdict: record.verdict,
    ok: record.ok,
    traceHash: record.traceHash,
    replayKey: record.replayKey,
    ...(record.scenarioText === undefined ? {} : { scenarioText: record.scenarioText }),
  };
  const extra = Object.fromEntries(Object.entries(record).filter(([k]) => !(k in ordered)));
  return `${JSON.stringify({ ...ordered, ...extra }, null, 2)}\n`;
}

/** Whether a JSON value says it is a run record, of this format version or another. */
export function claimsRunRecord(json: unknown): boolean {
  const format = typeof json === "object" && json !== null ? (json as { format?: unknown }).format : undefined;
  return typeof format === "string" && format.startsWith(FORMAT_FAMILY);
}

/**
 * Why a record names a version of the format this kubelet-sim does not read, in one line, or null:
 * the one check of the format version, for every reader (replay, diff, repro files). A value that
 * names no run-record format at all is left to the schema, which lists everything wrong with it.
 */
export function recordFormatProblem(json: unknown, source: string): string | null {
  if (!claimsRunRecord(json)) return null;
  const format = (json as { format: string }).format;
  if (format === RUN_RECORD_FORMAT) return null;
  return `${source}: format "${clip(format)}": this kubelet-sim (${VERSION}) reads "${RUN_RECORD_FORMAT}" records only; record the run again with it`;
}

/**
 * Reads a record from its text; `source` names it in errors (a file path). Throws a RunRecordError
 * listing every problem. Fields beyond the run record's (a repro's `repro` section) are kept.
 */
export function parseRunRecord(text: string, source: string): { record: RunRecord; tape: ChoiceLog } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new RunRecordError(`${source}: not a run record: not JSON (${(err as Error).message})`);
  }
  const wrongFormat = recordFormatProblem(json, source);
  if (wrongFormat !== null) throw new RunRecordError(wrongFormat);
  const parsed = runRecordSchema.loose().safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${source}: ${i.path.map(String).join(".") || "(top level)"}: ${i.message}`);
    throw new RunRecordError(`not a run record (written by \`kubelet-sim run --record\`):\n${lines.join("\n")}`);
  }
  const record = parsed.data as RunRecord;
  if (record.scenarioText !== undefined && textSha256(record.scenarioText) !== record.scenarioSha256) {
    throw new RunRecordError(`${source}: scenarioText: its sha256 is not the record's scenarioSha256; the record was edited`);
  }
  try {
    if (!labelOnlyStrategy(record.strategy)) parseStrategy(record.strategy);
  } catch (err) {
    throw new RunRecordError(`${source}: strategy: ${(err as Error).message}`);
  }
  return { record, tape: readTape(record.choices, source) };
}

/** The record's choices as a tape, bounded (tape.ts); a RunRecordError naming the field otherwise. */
export function readTape(choices: string, source: string): ChoiceLog {
  try {
    return decodeTape(choices);
  } catch (err) {
    if (err instanceof TapeError) throw new RunRecordError(`${source}: choices: ${err.message}`);
    throw err;
  }
}

const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);
