// Export: the learner's run as a run record, the file `kubelet-sim replay` reproduces byte for
// byte. The record carries the whole tape (the learner's choices, then fifo's to the end) and the
// trace hash of that run. At the written timing it names the level's file, pinned by the sha256
// worked out on the Node side; at the learner's timing it carries the scenario text that ran.
import { ChoiceLog } from "../sim/index.ts";
import { formatRunRecord, RUN_RECORD_FORMAT, textSha256 } from "../record/run_record.ts";
import { VERSION } from "../version.ts";
import type { PlayLevel } from "./level.ts";
import type { PlayEnd } from "./session.ts";

/** The name an export is saved under, e.g. r05-play.json. */
export function exportFileName(level: PlayLevel): string {
  return `${level.id.toLowerCase().replace(/[^a-z0-9-]+/g, "-")}-play.json`;
}

/** `timedText`: the scenario text at the learner's timing (compile.ts), or null at the written timing. */
export function exportRecord(level: PlayLevel, end: PlayEnd, timedText: string | null = null): string {
  return formatRunRecord({
    format: RUN_RECORD_FORMAT,
    tool: VERSION,
    scenario: level.scenarioFile,
    scenarioSha256: timedText === null ? level.scenarioSha256 : textSha256(timedText),
    seed: level.scenario.seed,
    strategy: end.strategy,
    untilMs: level.scenario.untilMs,
    choices: ChoiceLog.from(end.tape).encode(),
    verdict: end.verdict,
    ok: end.ok,
    traceHash: end.traceHash,
    replayKey: `kubelet-sim replay ${exportFileName(level)}`,
    ...(timedText === null ? {} : { scenarioText: timedText }),
  });
}
