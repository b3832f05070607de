// The run record's format: its version and the constants every reader shares. Its own module, so
// that the zod schema (run_record_schema.ts) and the reader (run_record.ts) both take them from here.
import type { Verdict } from "../sim/index.ts";

/** The format this kubelet-sim writes and reads; run_record.ts's recordFormatProblem is the one place that checks it. */
export const RUN_RECORD_FORMAT = "kubelet-sim/run-record/v1";
/** Every version of the format starts so: a record of another version is named as such, not as "not a record". */
export const FORMAT_FAMILY = "kubelet-sim/run-record/";

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

/**
 * The largest run record file read: a tape of MAX_TAPE_CHOICES choices written one token each
 * (about 5 bytes a choice), with the scenario's text (at most 1 MiB) beside it.
 */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

export const SHA256 = /^[0-9a-f]{64}$/;
export const TRACE_HASH = /^(?:[0-9a-f]{16}|[0-9a-f]{64})$/;

/** A trace hash of 64 hex digits is the sha256 of the JSON lines, as records older than the trace digest carry. */
export const isLinesSha256 = (traceHash: string): boolean => traceHash.length === 64;

/** The verdicts a run can end with (sim/bounds.ts): a record's `verdict` is one of them. */
export const RECORD_VERDICTS = ["completed", "quiescent", "until", "stopped", "deadlock", "livelock", "max-events", "panic", "diverged"] as const satisfies readonly Verdict[];
// Every Verdict is listed: a verdict the kernel gains and this list lacks fails the type check here.
const _allVerdicts: Record<Verdict, true> = Object.fromEntries(RECORD_VERDICTS.map((v) => [v, true])) as Record<(typeof RECORD_VERDICTS)[number], true>;
void _allVerdicts;
