// Replaying a run record: the recorded scenario, seed and until, fed the recorded choices, must
// give the recorded trace hash. `kubelet-sim replay` (commands/replay.ts) is its command line.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Bounds } from "../sim/index.ts";
import { divergence, LinesSha256, recordMismatch, reproducedTrace } from "../record/replay.ts";
import { isLinesSha256 } from "../record/run_record.ts";
import { EXIT_INTERNAL, UserError } from "./exit.ts";
import type { CliIo } from "./io.ts";
import { bundledScenario } from "./scenario_arg.ts";
import { fileSha256, readRunRecord, recordedScenarioSha256, type RunRecord } from "./run_record.ts";
import type { SimulationHandle, SimulationResult } from "../simulate.ts";
import { driveInSlices, driveToEnd, humanStream, runSteps, shellWord, type OutputRequest, type RunOutcome, type RunRequest } from "./session.ts";

export interface ReplayRequest {
  recordFile: string;
  /** Where the scenario is, when not where the record says. */
  scenario: string | null;
  output: OutputRequest;
  bounds?: Partial<Bounds>;
  /** As RunRequest.elsewhere: a big recorded run goes to a `node` with a larger young generation (young.ts). */
  elsewhere?: RunRequest["elsewhere"];
}

/** The exit code, or the semi-space (MB) the replay is to run with in another process (nothing was printed). */
export type ReplayOutcome = Pick<RunOutcome, "exitCode" | "semiSpaceMb">;

export function executeReplay(req: ReplayRequest, io: CliIo): number {
  return driveToEnd(replaySteps(req, io)).exitCode;
}

/** executeReplay, yielding to the event loop as the run goes (the command line's way: session.ts). */
export function executeReplayInterruptible(req: ReplayRequest, io: CliIo): Promise<ReplayOutcome> {
  return driveInSlices(replaySteps(req, io));
}

function* replaySteps(req: ReplayRequest, io: CliIo): Generator<SimulationHandle, ReplayOutcome, SimulationResult> {
  const { record, tape } = readRunRecord(req.recordFile);
  // A record that carries its scenario's text (a play-mode export) needs no file; parsing it checked its sha256.
  const inline = req.scenario === null ? record.scenarioText : undefined;
  const readFrom = inline === undefined ? locateScenario(record, req) : record.scenario;
  const sha = inline === undefined ? (req.scenario === null ? recordedScenarioSha256(readFrom, req.recordFile) : fileSha256(readFrom)) : record.scenarioSha256;
  if (sha !== record.scenarioSha256) {
    throw new UserError(
      `${req.recordFile}: the scenario changed since this run was recorded: ${readFrom} has sha256 ${sha.slice(0, 12)}, ` +
        `the record pins ${record.scenarioSha256.slice(0, 12)}; a recording replays only against the exact text it was made from`,
    );
  }
  const legacy = isLinesSha256(record.traceHash) ? new LinesSha256() : null;
  const outcome = yield* runSteps(
    {
      file: record.scenario,
      readFrom,
      ...(inline === undefined ? {} : { text: inline }),
      seed: record.seed,
      strategy: { name: "replay", tape, whenExhausted: "diverge" },
      strategyLabel: record.strategy,
      untilMs: record.untilMs,
      ...(record.kubelet === undefined ? {} : { kubelet: record.kubelet }),
      output: req.output,
      recordFile: null,
      // Only the tape reproduces a recorded run: a shrunk or edited schedule is no strategy's output.
      replayCommand: `kubelet-sim replay ${shellWord(req.recordFile)}${req.scenario === null ? "" : ` --scenario ${shellWord(req.scenario)}`}`,
      note: `replaying ${tape.length} recorded choice${tape.length === 1 ? "" : "s"} of: ${record.replayKey}`,
      ...(req.bounds === undefined ? {} : { bounds: req.bounds }),
      ...(legacy === null ? {} : { sinks: [legacy] }),
      ...(req.elsewhere === undefined ? {} : { elsewhere: req.elsewhere }),
    },
    io,
  );
  if (outcome.semiSpaceMb !== undefined) return { exitCode: outcome.exitCode, semiSpaceMb: outcome.semiSpaceMb };
  return { exitCode: checkReproduced(record, outcome, legacy?.hex(), req, io) };
}

/** The scenario as the record names it: from here, else next to the record, else --scenario. */
function locateScenario(record: RunRecord, req: ReplayRequest): string {
  if (req.scenario !== null) {
    if (!existsSync(req.scenario)) throw new UserError(`--scenario ${req.scenario}: no such file`);
    return req.scenario;
  }
  const besideRecord = join(dirname(req.recordFile), record.scenario);
  for (const candidate of [record.scenario, besideRecord]) if (existsSync(candidate)) return candidate;
  const bundled = bundledScenario(record.scenario);
  if (bundled !== null) return bundled;
  throw new UserError(`${req.recordFile}: cannot find the scenario ${record.scenario} (looked here and next to the record); pass --scenario PATH`);
}

function checkReproduced(record: RunRecord, outcome: RunOutcome, linesSha256: string | undefined, req: ReplayRequest, io: CliIo): number {
  const { result } = outcome;
  if (result === null) return outcome.exitCode;
  const why = divergence(record, result, linesSha256);
  if (why !== null) {
    io.stderr.write(`kubelet-sim: replay of ${req.recordFile} diverged: ${why}\n`);
    return EXIT_INTERNAL;
  }
  // The same trace, yet the record says otherwise: an edit, refused as bad input.
  const edited = recordMismatch(record, result);
  if (edited !== null) throw new UserError(`${req.recordFile}: ${edited}`);
  const human = humanStream(req.output, io);
  human.write(`${human.palette.green("# reproduced:")} the identical trace, ${reproducedTrace(record, result)}\n`);
  return outcome.exitCode;
}
