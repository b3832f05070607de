// `kubelet-sim diff`: two runs of a scenario side by side. Either one scenario (or run record) run
// under two kubelets (`--kubelet-version 1.20 --vs 1.22`, `--vs-variant NAME=false`), or two run
// records (repro files from `explore`, records from `run --record`), each replayed with its own
// choices. Prints where the traces first differ; `--format html` draws both on one time axis.
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ScenarioError, formatIssueList } from "../scenario/index.ts";
import { hasOverrides, loadScenarioTextWithOverrides, loadScenarioWithOverrides, overrideFlags, type KubeletOverrides } from "../scenario/overrides.ts";
import { simulate, type SimulationResult } from "../simulate.ts";
import { KernelLog, type StrategySpec } from "../sim/index.ts";
import { firstDifference, renderHtml, type RunView } from "../report/index.ts";
import { writeFileAtomic } from "./atomic.ts";
import { EXIT_OK, EXIT_USAGE, EXIT_VIOLATION, UserError } from "./exit.ts";
import { htmlClientScript } from "./html_client_bundle.ts";
import { raceOfFile } from "../races/catalog.ts";
import type { CliIo } from "./io.ts";
import { readRecordText, readRunRecord, recordedScenarioSha256, type RunRecord } from "./run_record.ts";
import { claimsRunRecord } from "../record/run_record.ts";
import { recordMismatch } from "../record/replay.ts";
import { bundledScenario } from "./scenario_arg.ts";
import { semiSpaceFor } from "./young.ts";

export interface DiffSide {
  file: string;
  /** The scenario as the user named it ("r05"), for the replay command; default: file. */
  named?: string;
  kubelet?: KubeletOverrides;
}

export interface DiffRequest {
  left: DiffSide;
  right: DiffSide;
  html: boolean;
  outFile: string | null;
}

interface SideRun {
  label: string;
  command: string;
  result: SimulationResult;
  kernel: KernelLog;
}

/**
 * Whether a file is a run record (JSON that names the run-record format, of any version: reading
 * it then says what is wrong with it) rather than a scenario.
 */
function isRunRecord(path: string): boolean {
  if (!path.endsWith(".json")) return false;
  let text: string;
  try {
    text = readRecordText(path);
  } catch {
    return false;
  }
  try {
    return claimsRunRecord(JSON.parse(text));
  } catch {
    return false;
  }
}

function load(path: string, kubelet: KubeletOverrides | undefined, text?: string) {
  if (text === undefined && !existsSync(path)) throw new UserError(`${path}: no such file`);
  try {
    return (text === undefined ? loadScenarioWithOverrides(path, kubelet) : loadScenarioTextWithOverrides(text, path, kubelet)).scenario;
  } catch (err) {
    if (err instanceof ScenarioError) throw new UserError(`${formatIssueList(err.issues).join("\n")}\nkubelet-sim: ${path} is not a valid scenario; nothing was run`);
    throw err;
  }
}

function runScenario(side: DiffSide): SideRun {
  const scenario = load(side.file, side.kubelet);
  const kernel = new KernelLog();
  const result = simulate(scenario, { scenarioFile: side.file, observer: kernel });
  const label = `kubelet ${scenario.kubelet.version}${variantText(side.kubelet)}`;
  return { label, command: `kubelet-sim run ${side.named ?? side.file}${overrideFlags(side.kubelet)}`, result, kernel };
}

function variantText(o: KubeletOverrides | undefined): string {
  const v = Object.entries(o?.variants ?? {});
  return v.length === 0 ? "" : ` + ${v.map(([k, on]) => (on ? k : `${k}=false`)).join(", ")}`;
}

/** A run record replayed with its own choices, as `kubelet-sim replay` does. */
function replayRecord(path: string): SideRun {
  const { record, tape } = readRunRecord(path);
  // A record that carries its scenario's text (a play-mode export at the learner's timing) needs no file.
  const scenario = record.scenarioText === undefined ? load(recordedScenario(path, record), record.kubelet) : load(record.scenario, record.kubelet, record.scenarioText);
  const kernel = new KernelLog();
  const strategy: StrategySpec = { name: "replay", tape, whenExhausted: "diverge" };
  const result = simulate(scenario, { seed: record.seed, strategy, strategyLabel: record.strategy, untilMs: record.untilMs, scenarioFile: record.scenario, observer: kernel });
  if (result.run.traceHash !== record.traceHash) throw new UserError(`${path}: the replay did not reproduce the recorded trace (models changed since it was recorded?); nothing to compare`, 3);
  const edited = recordMismatch(record, result);
  if (edited !== null) throw new UserError(`${path}: ${edited}`);
  return { label: `${basename(path)} (kubelet ${scenario.kubelet.version})`, command: `kubelet-sim replay ${path}`, result, kernel };
}

/** The recorded scenario's file, as replay finds it: where the record says, next to it, or bundled; unchanged since. */
function recordedScenario(path: string, record: RunRecord): string {
  const candidates = [record.scenario, join(dirname(path), basename(record.scenario)), join(dirname(path), record.scenario)];
  const scenarioPath = candidates.find((p) => existsSync(p)) ?? bundledScenario(record.scenario);
  if (scenarioPath === null) throw new UserError(`${path}: cannot find the scenario ${record.scenario} (looked where the record says, next to it and among the bundled scenarios)`);
  if (recordedScenarioSha256(scenarioPath, path) !== record.scenarioSha256) throw new UserError(`${path}: the scenario ${scenarioPath} changed since this run was recorded`);
  return scenarioPath;
}

function runSide(side: DiffSide): SideRun {
  return isRunRecord(side.file) ? replayRecord(side.file) : runScenario(side);
}

function summary(side: SideRun, name: string): string {
  const v = side.result.checks.failed.length;
  return `# ${name}: ${side.label}: ${side.command}\n#   ${side.result.run.verdict}, ${side.result.records?.length ?? 0} records, ${v === 0 ? "every expectation held" : `${v} expectation(s) failed`}, trace ${side.result.run.traceHash}\n`;
}

/**
 * The semi-space (MB) a diff of these two sides is started again with (young.ts, docs/cli.md "Big
 * runs"), or null to run it here: the heavier side decides, a run record weighed by its own
 * `untilMs` as replay weighs it. A side this cannot load or read is left to executeDiff, which
 * reports it as it always has (exit 2 or 3, located), in this process.
 */
export function diffSemiSpace(req: DiffRequest): number | null {
  let mb: number | null = null;
  for (const side of [req.left, req.right]) {
    try {
      const weighed = sideSemiSpace(side);
      if (weighed !== null) mb = Math.max(mb ?? 0, weighed);
    } catch {
      return null;
    }
  }
  return mb;
}

function sideSemiSpace(side: DiffSide): number | null {
  if (!isRunRecord(side.file)) {
    const scenario = load(side.file, side.kubelet);
    return semiSpaceFor(scenario, scenario.untilMs);
  }
  const { record } = readRunRecord(side.file);
  const scenario = record.scenarioText === undefined ? load(recordedScenario(side.file, record), record.kubelet) : load(record.scenario, record.kubelet, record.scenarioText);
  return semiSpaceFor(scenario, record.untilMs);
}

export function executeDiff(req: DiffRequest, io: CliIo): number {
  if (req.left.file === req.right.file && !hasOverrides(req.left.kubelet) && !hasOverrides(req.right.kubelet)) {
    throw new UserError("diff: both sides are the same run; give --vs VERSION or --vs-variant, or a second file", EXIT_USAGE);
  }
  const left = runSide(req.left);
  const right = runSide(req.right);
  if (left.label === right.label) right.label += " (B)";
  const human = req.html && req.outFile === null ? io.stderr : io.stdout;
  human.write(summary(left, "A") + summary(right, "B"));
  const first = firstDifference(left.result.records!, right.result.records!, [`A ${left.label}`, `B ${right.label}`]);
  human.write(first === null ? "the two traces are identical\n" : `${first.text}\n`);
  if (req.html) {
    const views: RunView[] = [left, right].map((s) => ({ records: s.result.records!, kernel: s.kernel, label: s.label }));
    const race = raceOfFile(req.left.file) ?? raceOfFile(req.right.file);
    const page = renderHtml(views, { clientScript: htmlClientScript(), narrowActors: race?.actors ?? [] });
    if (req.outFile === null) io.stdout.write(page);
    else {
      writeFileAtomic(req.outFile, page);
      human.write(`# wrote html to ${req.outFile}\n`);
    }
  }
  return first === null ? EXIT_OK : EXIT_VIOLATION;
}
