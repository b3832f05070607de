// The run record: a small JSON file that `run --record FILE` writes and `replay FILE` reads back.
// A run is a function of (scenario text, seed, strategy, until); the record pins the scenario by
// the sha256 of its bytes and carries the run's choice tape, so replay feeds back the very choices
// the run made and can demand the identical trace hash. See docs/cli.md for the format.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { ChoiceLog, parseStrategy } from "../sim/index.ts";
import { UserError } from "./exit.ts";

export const RUN_RECORD_FORMAT = "kubelet-sim/run-record/v1";

const SHA256 = /^[0-9a-f]{64}$/;

const runRecordSchema = z.object({
  format: z.literal(RUN_RECORD_FORMAT, { error: `expected format "${RUN_RECORD_FORMAT}"` }),
  tool: z.string().describe("the kubelet-sim version that made the run"),
  scenario: z.string().min(1).describe("the scenario path as given to `run`"),
  scenarioSha256: z.string().regex(SHA256, { error: "expected 64 hex digits" }),
  seed: z.number().int().min(0).max(2 ** 32 - 1),
  strategy: z.string().min(1).describe("the strategy that made the choices, e.g. pct:3:1000"),
  untilMs: z.number().int().min(0),
  kubelet: z
    .object({ version: z.string().optional(), variants: z.record(z.string(), z.boolean()).optional() })
    .optional()
    .describe("--kubelet-version and --variant, when the run had them"),
  choices: z.string().describe("the choice tape, ChoiceLog.encode()"),
  verdict: z.string(),
  ok: z.boolean(),
  traceHash: z.string().regex(SHA256, { error: "expected 64 hex digits" }),
  replayKey: z.string(),
});

export type RunRecord = z.output<typeof runRecordSchema>;

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
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** Reads and checks a record; every problem is a UserError naming the file and the field. */
export function readRunRecord(path: string): { record: RunRecord; tape: ChoiceLog } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new UserError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${path}: not a run record: not JSON (${(err as Error).message})`);
  }
  const parsed = runRecordSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${path}: ${i.path.map(String).join(".") || "(top level)"}: ${i.message}`);
    throw new UserError(`not a run record (written by \`kubelet-sim run --record\`):\n${lines.join("\n")}`);
  }
  const record = parsed.data;
  try {
    parseStrategy(record.strategy);
  } catch (err) {
    throw new UserError(`${path}: strategy: ${(err as Error).message}`);
  }
  try {
    return { record, tape: ChoiceLog.decode(record.choices) };
  } catch (err) {
    throw new UserError(`${path}: choices: ${(err as Error).message}`);
  }
}

/** The sha256 of a file's bytes, as the record pins the scenario. */
export function fileSha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}
