// The run record's zod schema, which parseRunRecord (run_record.ts) reads records with and
// explore's repro files extend. The type it parses to is written out in run_record.ts (RunRecord),
// so the package's declarations carry no zod; test/types/schema_types.test.ts checks they agree.
import { z } from "zod";
import { MAX_UNTIL_MS } from "../scenario/bounds.ts";
import { RECORD_VERDICTS, RUN_RECORD_FORMAT, SHA256, TRACE_HASH } from "./format.ts";

export const runRecordSchema = z.object({
  format: z.literal(RUN_RECORD_FORMAT, { error: `expected format "${RUN_RECORD_FORMAT}"` }),
  tool: z.string().describe("the kubelet-sim version that made the run"),
  scenario: z.string().min(1).describe("the scenario path as given to `run`"),
  scenarioSha256: z.string().regex(SHA256, { error: "expected 64 hex digits" }),
  seed: z.number().int().min(0).max(2 ** 32 - 1),
  strategy: z.string().min(1).describe("the strategy that made the choices, e.g. pct:3:1000, or play (a play-mode export)"),
  // A scenario's own bound: a replay runs to untilMs, so an edited record must not ask for more.
  untilMs: z.number().int().min(0).max(MAX_UNTIL_MS, { error: `expected at most ${MAX_UNTIL_MS} (24h, the longest run a scenario may ask for)` }),
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
