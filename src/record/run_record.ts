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
import { z } from "zod";
import { parseStrategy, type ChoiceLog, type Verdict } from "../sim/index.ts";
import { VERSION } from "../version.ts";
import { decodeTape, TapeError } from "./tape.ts";

/** The format this kubelet-sim writes and reads; recordFormatProblem is the one place that checks it. */
export const RUN_RECORD_FORMAT = "kubelet-sim/run-record/v1";
/** Every version of the format starts so: a record of another version is named as such, not as "not a record". */
const FORMAT_FAMILY = "kubelet-sim/run-record/";

/**
 * The strategy a play-mode export names when the learner left fifo's answer somewhere: no strategy
 * makes those choices again, only the record's tape does (as for a shrunk repro), so it is a label.
 */
export const PLAY_STRATEGY = "play";

/**
 * The largest run record file read: a tape of MAX_TAPE_CHOICES choices written one token each
 * (about 5 bytes a choice), with the scenario's text (at most 1 MiB) beside it.
 */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

const SHA256 = /^[0-9a-f]{64}$/;
const TRACE_HASH = /^(?:[0-9a-f]{16}|[0-9a-f]{64})$/;

/** A trace hash of 64 hex digits is the sha256 of the JSON lines, as records older than the trace digest carry. */
export const isLinesSha256 = (traceHash: string): boolean => traceHash.length === 64;

/** The verdicts a run can end with (sim/bounds.ts): a record's `verdict` is one of them. */
export const RECORD_VERDICTS = ["completed", "quiescent", "until", "stopped", "deadlock", "livelock", "max-events", "panic", "diverged"] as const satisfies readonly Verdict[];
// Every Verdict is listed: a verdict the kernel gains and this list lacks fails the type check here.
const _allVerdicts: Record<Verdict, true> = Object.fromEntries(RECORD_VERDICTS.map((v) => [v, true])) as Record<(typeof RECORD_VERDICTS)[number], true>;
void _allVerdicts;

export const runRecordSchema = z.object({
  format: z.literal(RUN_RECORD_FORMAT, { error: `expected format "${RUN_RECORD_FORMAT}"` }),
  tool: z.string().describe("the kubelet-sim version that made the run"),
  scenario: z.string().min(1).describe("the scenario path as given to `run`"),
  scenarioSha256: z.string().regex(SHA256, { error: "expected 64 hex digits" }),
  seed: z.number().int().min(0).max(2 ** 32 - 1),
  strategy: z.string().min(1).describe("the strategy that made the choices, e.g. pct:3:1000, or play (a play-mode export)"),
  untilMs: z.number().int().min(0),
  kubelet: z
    .object({ version: z.string().optional(), variants: z.record(z.string(), z.boolean()).optional(), featureGates: z.record(z.string(), z.boolean()).optional() })
    .optional()
    .describe("--kubelet-version, --variant and --feature-gate, when the run had them"),
  choices: z.string().describe("the choice tape, ChoiceLog.encode()"),
  verdict: z.string().refine((v) => (RECORD_VERDICTS as readonly string[]).includes(v), { error: `expected a verdict: one of ${RECORD_VERDICTS.join(", ")}` }),
  ok: z.boolean(),
  traceHash: z.string().regex(TRACE_HASH, { error: "expected 16 hex digits (a trace digest) or 64 (an older record's sha256)" }),
  replayKey: z.string(),
  scenarioText: z
    .string()
    .min(1)
    .optional()
    .describe("the scenario's text itself, when the record carries it (a play-mode export at the learner's timing): replay runs it and reads no file"),
});

export type RunRecord = z.output<typeof runRecordSchema>;

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
    if (record.strategy !== PLAY_STRATEGY) parseStrategy(record.strategy);
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
