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
import { ChoiceLog, parseStrategy } from "../sim/index.ts";

export const RUN_RECORD_FORMAT = "kubelet-sim/run-record/v1";

/**
 * The strategy a play-mode export names when the learner left fifo's answer somewhere: no strategy
 * makes those choices again, only the record's tape does (as for a shrunk repro), so it is a label.
 */
export const PLAY_STRATEGY = "play";
/** A run made by explore's guided strategy ("guided:8", its islands): its tape is what replays it. */
export const GUIDED_STRATEGY = /^guided:\d+$/;

/** Whether a recorded strategy is one a replay only names: play's, or guided's. */
export function labelOnlyStrategy(text: string): boolean {
  return text === PLAY_STRATEGY || GUIDED_STRATEGY.test(text);
}

const SHA256 = /^[0-9a-f]{64}$/;
const TRACE_HASH = /^(?:[0-9a-f]{16}|[0-9a-f]{64})$/;

/** A trace hash of 64 hex digits is the sha256 of the JSON lines, as records older than the trace digest carry. */
export const isLinesSha256 = (traceHash: string): boolean => traceHash.length === 64;

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
  verdict: z.string(),
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
  try {
    return { record, tape: ChoiceLog.decode(record.choices) };
  } catch (err) {
    throw new RunRecordError(`${source}: choices: ${(err as Error).message}`);
  }
}
