// Export: the learner's run as a run record, the file `kubelet-sim replay` reproduces byte for
// byte. The record carries the whole tape (the learner's choices, then fifo's to the end) and the
// trace hash of that run; the scenario is pinned by the sha256 worked out on the Node side.
import { ChoiceLog } from "../sim/index.ts";
import { formatRunRecord, RUN_RECORD_FORMAT } from "../record/run_record.ts";
import { VERSION } from "../version.ts";
import type { PlayLevel } from "./level.ts";
import type { PlayEnd } from "./session.ts";

/** The name an export is saved under, e.g. r05-play.json. */
export function exportFileName(level: PlayLevel): string {
  return `${level.id.toLowerCase().replace(/[^a-z0-9-]+/g, "-")}-play.json`;
}

export function exportRecord(level: PlayLevel, end: PlayEnd): string {
  return formatRunRecord({
    format: RUN_RECORD_FORMAT,
    tool: VERSION,
    scenario: level.scenarioFile,
    scenarioSha256: level.scenarioSha256,
    seed: level.scenario.seed,
    strategy: end.strategy,
    untilMs: level.scenario.untilMs,
    ...(level.kubelet === null ? {} : { kubelet: level.kubelet }),
    choices: ChoiceLog.from(end.tape).encode(),
    verdict: end.verdict,
    ok: end.ok,
    traceHash: end.traceHash,
    replayKey: `kubelet-sim replay ${exportFileName(level)}`,
  });
}
