// Recording and replaying a run through the library, as `run --record` and `replay` do on the
// command line: makeRunRecord after simulate(), replayRunRecord to reproduce it exactly.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { formatStrategy, type Bounds, type TraceRecord, type TraceSink } from "../sim/index.ts";
import { loadScenarioTextWithOverrides, hasOverrides, type KubeletOverrides } from "../scenario/overrides.ts";
import { simulate, type SimulationResult } from "../simulate.ts";
import { VERSION } from "../version.ts";
import { isLinesSha256, readTape, RUN_RECORD_FORMAT, RunRecordError, textSha256, type RunRecord } from "./run_record.ts";
import { MAX_TAPE_CHOICES, tapeLength } from "./tape.ts";

export interface RecordedRun {
  /** The scenario text that ran, byte for byte: the record pins it by its sha256. */
  scenarioText: string;
  /** How the scenario is named (the path as typed); replay looks for it there. */
  scenario: string;
  seed: number;
  /** The strategy as its name is written, e.g. `pct:3:1000`. */
  strategy: string;
  untilMs: number;
  kubelet?: KubeletOverrides;
  /** The command that reproduces the run. */
  replayKey: string;
}

/** The run record of a finished run. */
export function makeRunRecord(run: RecordedRun, result: SimulationResult): RunRecord {
  const made = result.run.choices.length;
  if (made > MAX_TAPE_CHOICES) throw new RunRecordError(`this run made ${made} choices, more than a run record holds (${MAX_TAPE_CHOICES}); it cannot be recorded`);
  return {
    format: RUN_RECORD_FORMAT,
    tool: VERSION,
    scenario: run.scenario,
    scenarioSha256: textSha256(run.scenarioText),
    seed: run.seed,
    strategy: run.strategy,
    untilMs: run.untilMs,
    ...(hasOverrides(run.kubelet) ? { kubelet: run.kubelet } : {}),
    choices: result.run.choices.encode(),
    verdict: result.run.verdict,
    ok: result.ok,
    traceHash: result.run.traceHash,
    replayKey: run.replayKey,
  };
}

export interface ReplayOptions {
  sinks?: readonly TraceSink[];
  keepRecords?: boolean;
  bounds?: Partial<Bounds>;
}

export interface ReplayResult {
  result: SimulationResult;
  /**
   * null when the replay reproduced the record: the recorded trace hash, verdict, `ok` and number
   * of choices; otherwise why it did not (divergence(), then recordMismatch()).
   */
  divergence: string | null;
}

/**
 * Replays a record against the scenario text it names: the recorded seed, until, kubelet overrides
 * and choices. Throws a RunRecordError when the text is not the one recorded, and ScenarioError
 * when it does not load.
 */
export function replayRunRecord(record: RunRecord, scenarioText: string, opts: ReplayOptions = {}): ReplayResult {
  const sha = textSha256(scenarioText);
  if (sha !== record.scenarioSha256) {
    throw new RunRecordError(
      `the scenario changed since this run was recorded: its text has sha256 ${sha.slice(0, 12)}, ` +
        `the record pins ${record.scenarioSha256.slice(0, 12)}; a recording replays only against the exact text it was made from`,
    );
  }
  const { scenario } = loadScenarioTextWithOverrides(scenarioText, record.scenario, record.kubelet);
  const legacy = isLinesSha256(record.traceHash) ? new LinesSha256() : null;
  const result = simulate(scenario, {
    seed: record.seed,
    strategy: { name: "replay", tape: readTape(record.choices, "the run record"), whenExhausted: "diverge" },
    strategyLabel: record.strategy,
    untilMs: record.untilMs,
    scenarioFile: record.scenario,
    ...opts,
    ...(legacy === null ? {} : { sinks: [...(opts.sinks ?? []), legacy], keepRecords: opts.keepRecords ?? opts.sinks === undefined }),
  });
  return { result, divergence: divergence(record, result, legacy?.hex()) ?? recordMismatch(record, result) };
}

/**
 * Why a replay did not reproduce its record, or null when it did (the same trace hash). For a
 * record older than the trace digest, `linesSha256` is the replay's (a LinesSha256 sink's).
 */
export function divergence(record: RunRecord, result: SimulationResult, linesSha256?: string): string | null {
  const why =
    record.tool === VERSION
      ? "its choices were edited, the models changed since it was recorded, or kubelet-sim is not deterministic (a bug)"
      : `the record was made by kubelet-sim ${record.tool} and this is ${VERSION}; models that changed ask other questions`;
  if (result.run.verdict === "diverged") return why;
  const [what, got] = isLinesSha256(record.traceHash) ? ["sha256 of the JSON lines", linesSha256 ?? ""] : ["trace", result.run.traceHash];
  if (got !== record.traceHash) return `${what} ${got}, the record says ${record.traceHash}; ${why}`;
  return null;
}

/**
 * What a rerun that gave the recorded trace still contradicts in the record, naming the field, or
 * null: the verdict, `ok`, and the number of choices (a tape with choices added after the run's
 * last is no tape the run made). Only an edit makes these differ while the trace is the same.
 */
export function recordMismatch(record: RunRecord, result: SimulationResult): string | null {
  const recorded = tapeLength(record.choices);
  const made = result.run.choices.length;
  if (recorded !== made) {
    return `choices: the record holds ${recorded} choice${recorded === 1 ? "" : "s"} and the rerun made ${made}; the record was edited${recorded > made ? " (choices added after the run's last)" : ""}`;
  }
  if (record.verdict !== result.run.verdict) return `verdict: the record says "${record.verdict}" and the rerun ended "${result.run.verdict}"; the record was edited`;
  if (record.ok !== result.ok) return `ok: the record says ${record.ok} and the rerun says ${result.ok}; the record was edited`;
  return null;
}

/** How a replay names the trace it reproduced: its trace hash, or for an older record the sha256 of its lines. */
export function reproducedTrace(record: RunRecord, result: SimulationResult): string {
  return isLinesSha256(record.traceHash) ? `sha256 of the JSON lines ${record.traceHash}` : result.run.traceHash;
}

/** The sha256 of the JSON lines before "end": the trace hash of records older than the trace digest. */
export class LinesSha256 implements TraceSink {
  readonly wantsLines = true;
  private readonly hash = sha256.create();
  private last: string | null = null;
  write(_rec: TraceRecord, line: string | null): void {
    if (this.last !== null) this.hash.update(utf8ToBytes(`${this.last}\n`));
    this.last = line;
  }
  hex(): string {
    return bytesToHex(this.hash.digest());
  }
}

export { formatStrategy };
