// One run of a scenario as `run` and `replay` show it: the replay key first, then the outputs
// (to stdout or atomically to --out), then the expectations and the verdict; an exit code back.
import { readFileSync } from "node:fs";
import { ScenarioError, formatIssue, formatIssueList, type LoadResult, type Scenario } from "../scenario/index.ts";
import { loadScenarioTextWithOverrides, loadScenarioWithOverrides, overrideFlags, type KubeletOverrides } from "../scenario/overrides.ts";
import { performance } from "node:perf_hooks";
import { startSimulation, type SimulationHandle, type SimulationResult } from "../simulate.ts";
import { formatDuration, formatStrategy, isFailureVerdict, KernelLog, LineSink, type Bounds, type StrategySpec, type TraceSink } from "../sim/index.ts";
import { UnknownInvariantError } from "../check/invariants.ts";
import { invariantPlace } from "../scenario/locate_value.ts";
import { render, type Format, type RenderOptions } from "../report/index.ts";
import { AtomicFile, writeFileAtomic } from "./atomic.ts";
import { stopRunOnSignal } from "./interrupt.ts";
import { docPath } from "./package_files.ts";
import { EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, EXIT_VIOLATION, InternalError, UserError } from "./exit.ts";
import { explainFormat, explainRun, explainSummary, lanesOf } from "./guide.ts";
import type { CliIo, OutStream } from "./io.ts";
import { formatRunRecord, RunRecordError } from "../record/run_record.ts";
import { makeRunRecord, type RecordedRun } from "../record/replay.ts";
import { runJson } from "./run_json.ts";
import { htmlClientScript } from "./html_client_bundle.ts";
import { raceOfFile } from "../races/catalog.ts";
import { renderDiagnosis, renderSummary } from "./summary.ts";

export interface OutputRequest {
  formats: readonly Format[];
  render: RenderOptions;
  /** Write the outputs here (atomically) instead of to stdout. */
  outFile: string | null;
  /** Comment lines before each output saying how to read it. */
  explain: boolean;
  /** The result as one JSON object on stdout instead of the outputs and the summary (outputs still go to outFile). */
  json?: boolean;
}

export interface RunRequest {
  /** The scenario path as the user wrote it: it goes into the replay key and the trace. */
  file: string;
  /** Where to read the scenario when not at `file` (replay finds it next to the record). */
  readFrom?: string;
  /** The scenario's text, when the caller has it and no file is read (a record that carries it). */
  text?: string;
  seed?: number;
  strategy?: StrategySpec;
  /** The strategy's name in the key and trace when `strategy` is a replay of it. */
  strategyLabel?: string;
  untilMs?: number;
  /** --kubelet-version and --variant: the scenario run under another kubelet. */
  kubelet?: KubeletOverrides;
  output: OutputRequest;
  recordFile: string | null;
  /** Tests provoke the kernel's bounds with these; the CLI never sets them. */
  bounds?: Partial<Bounds>;
  /** The command that reproduces this run, when not `run` with these flags (replay: `replay FILE`). */
  replayCommand?: string;
  /** A line printed right after the replay key (replay says what it replays). */
  note?: string;
  /** More sinks for the trace (replay's check of an older record's sha256). */
  sinks?: readonly TraceSink[];
  /**
   * Asked once the scenario has loaded, before anything is printed: a semi-space size (MB) to run
   * it with in another process instead (young.ts), or null to run it here. The command line sets
   * it when it may start itself again; the outcome then carries the size and nothing ran.
   */
  elsewhere?: (scenario: Scenario, untilMs: number) => number | null;
}

export interface RunOutcome {
  exitCode: number;
  result: SimulationResult | null;
  /** Set when RunRequest.elsewhere asked for the run in another process: its semi-space (MB); nothing was printed. */
  semiSpaceMb?: number;
}

/**
 * A run of a scenario, written as steps: it yields the simulation when it needs it run to its end
 * and is handed back the result. executeRun drives it in one go; executeRunInterruptible in slices
 * of virtual time with the event loop turning between them, so that a signal's handler (removing
 * a half-written --out file: atomic.ts) runs within a fraction of a second of Ctrl-C.
 */
export type RunSteps = Generator<SimulationHandle, RunOutcome, SimulationResult>;

/** Runs one scenario and prints it; returns the exit code (and the result, for replay's checks). */
export function executeRun(req: RunRequest, io: CliIo): RunOutcome {
  return driveToEnd(runSteps(req, io));
}

/** executeRun, yielding to the event loop as the run goes (the command line's way). */
export function executeRunInterruptible(req: RunRequest, io: CliIo): Promise<RunOutcome> {
  return driveInSlices(runSteps(req, io));
}

/** Runs each simulation the steps ask for to its end at once; what it throws is thrown into the steps. */
export function driveToEnd<T>(steps: Generator<SimulationHandle, T, SimulationResult>): T {
  let next = steps.next();
  while (!next.done) {
    let result: SimulationResult;
    try {
      result = next.value.finish();
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    next = steps.next(result);
  }
  return next.value;
}

/**
 * Runs each simulation in slices, yielding to the event loop between them, so that a signal's
 * handler (interrupt.ts, atomic.ts) runs within a slice of Ctrl-C. Pausing never changes the run
 * (Sim.runSlice), so the trace is the one driveToEnd gives.
 */
export async function driveInSlices<T>(steps: Generator<SimulationHandle, T, SimulationResult>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let result: SimulationResult;
    try {
      result = await runInSlices(next.value);
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    next = steps.next(result);
  }
  return next.value;
}

/** The longest stretch of virtual time one slice runs: a day, the longest run a scenario may ask for. */
const MAX_SLICE_MS = 24 * 60 * 60 * 1000;
/**
 * Events in a slice at first, and the most. A cluster's start-up costs up to a fraction of a
 * millisecond an event (every pod created, scheduled and started in its first virtual second), a
 * quiet node's hour a microsecond or two, so no fixed count fits both: it adapts as the stretch does.
 */
const FIRST_SLICE_EVENTS = 256;
const MAX_SLICE_EVENTS = 1 << 22;

/**
 * How a run is cut into slices: `ms` of virtual time and at most `events` events each. Both are
 * host-side only (no part of the run); tests pass small fixed ones to pause often.
 */
export interface SliceSize {
  ms: number;
  events: number;
  /** Double or halve whichever bound ended a slice, for 20 to 100 ms of host time a slice. */
  adapt: boolean;
}

/** One simulation to its end, in slices (by default adapting from 1 s and 256 events). */
export async function runInSlices(handle: SimulationHandle, size: Partial<SliceSize> = {}): Promise<SimulationResult> {
  let ms = size.ms ?? 1000;
  let events = size.events ?? FIRST_SLICE_EVENTS;
  const adapt = size.adapt ?? true;
  const stop = stopRunOnSignal(() => handle.sim.nowMs);
  try {
    for (;;) {
      const started = performance.now();
      const r = handle.sim.runSlice(handle.sim.nowMs + ms, events);
      if (r !== "paused" && r !== "budget") break;
      // host-time-ok: how often to yield is no part of the run.
      const took = performance.now() - started;
      if (adapt && r === "paused") ms = resized(ms, took, 1, MAX_SLICE_MS);
      if (adapt && r === "budget") events = resized(events, took, 1, MAX_SLICE_EVENTS);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    stop();
  }
  return handle.finish();
}

/** A slice's bound doubled when it took under 20 ms, halved over 100 ms, within [min, max]. */
function resized(bound: number, tookMs: number, min: number, max: number): number {
  if (tookMs < 20) return Math.min(bound * 2, max);
  if (tookMs > 100) return Math.max(min, Math.floor(bound / 2));
  return bound;
}

/** The steps of one run: load, print the key, run (yielded), write the outputs and the record, summarize. */
export function* runSteps(req: RunRequest, io: CliIo): RunSteps {
  const asked: { mb: number | null } = { mb: null };
  const ask = req.elsewhere;
  const elsewhere = ask === undefined ? undefined : (s: Scenario) => (asked.mb = ask(s, req.untilMs ?? s.untilMs)) !== null;
  const loaded = loadOrReport(req.readFrom ?? req.file, req.kubelet, io, req.text, elsewhere);
  if (asked.mb !== null) return { exitCode: EXIT_OK, result: null, semiSpaceMb: asked.mb };
  if (loaded === null) return { exitCode: EXIT_USAGE, result: null };
  const { scenario, notices } = loaded;
  // Read as loaded, so a record pins the text that ran even if the file changes during the run.
  const scenarioText = req.recordFile === null ? "" : (req.text ?? readFileSync(req.readFrom ?? req.file, "utf8"));
  checkPodFilter(scenario, req.output.render.pod);
  const seed = req.seed ?? scenario.seed;
  const strategy = req.strategy ?? scenario.strategy;
  const untilMs = req.untilMs ?? scenario.untilMs;
  const key = req.replayCommand ?? replayKey(req.file, seed, req.strategyLabel ?? formatStrategy(strategy), untilMs === scenario.untilMs ? null : untilMs, req.kubelet);
  const human = humanStream(req.output, io);
  human.write(`${human.palette.dim("# replay:")} ${key}\n`);
  if (req.note !== undefined) human.write(`${human.palette.dim(`# ${req.note}`)}\n`);
  if (req.output.explain) human.write(explainRun(scenario.name, req.file, scenario.description));
  const target = openTarget(req.output.outFile, io.stdout);
  const streaming = req.output.formats.length === 1 && req.output.formats[0] === "jsonl";
  // The pictures draw goroutines, calls and hand-offs: what the kernel tells an observer.
  const kernel = req.output.formats.some((f) => PICTURES.has(f)) ? new KernelLog() : null;
  const sinks = [...(streaming ? [new LineSink((text) => target.write(text))] : []), ...(req.sinks ?? [])];
  let result: SimulationResult;
  try {
    const handle = startSimulation(scenario, {
      seed,
      strategy,
      untilMs,
      scenarioFile: req.file,
      ...(req.strategyLabel === undefined ? {} : { strategyLabel: req.strategyLabel }),
      ...(sinks.length > 0 ? { sinks, keepRecords: !streaming } : {}),
      ...(req.bounds === undefined ? {} : { bounds: req.bounds }),
      ...(kernel === null ? {} : { observer: kernel }),
    });
    result = yield handle;
  } catch (err) {
    target.abort();
    if (err instanceof UnknownInvariantError) throw new UserError(`${invariantPlace(req.file, err.id)}${err.message}`);
    throw new InternalError(key, err);
  }
  if (!streaming && !(req.output.json === true && req.output.outFile === null)) {
    target.write(renderOutputs(result, req.output, human === io.stdout ? null : human, kernel, req.readFrom ?? req.file));
  }
  target.commit();
  if (req.output.outFile !== null) human.write(`${human.palette.dim(`# wrote ${req.output.formats.join(", ")} to ${req.output.outFile}`)}\n`);
  if (req.recordFile !== null) {
    const run: RecordedRun = { scenarioText, scenario: req.file, seed, strategy: req.strategyLabel ?? formatStrategy(strategy), untilMs, replayKey: key };
    writeRecord(req.recordFile, req.kubelet === undefined ? run : { ...run, kubelet: req.kubelet }, result);
  }
  const run = { file: req.file, seed, strategy: req.strategyLabel ?? formatStrategy(strategy), replay: key, warnings: notices };
  return { exitCode: finish(result, run, req.output, human, io), result };
}

/** The summary, the diagnosis of a run that went wrong, and the exit code. */
function finish(result: SimulationResult, run: Parameters<typeof runJson>[1], output: OutputRequest, human: OutStream, io: CliIo): number {
  // A run cut short by a bound or a bug says so in its diagnosis; which pods it did not get to is beside the point.
  const neverRan = isFailureVerdict(result.run.verdict) ? [] : result.checks.neverRan.map((n) => `warning: ${n.pod} never ran: ${n.why}`);
  if (output.json === true) {
    io.stdout.write(`${JSON.stringify(runJson(result, { ...run, warnings: [...run.warnings, ...neverRan] }))}\n`);
  } else {
    if (output.outFile === null && human === io.stdout) human.write("\n");
    if (output.explain) human.write(explainSummary());
    human.write(renderSummary(result, human.palette));
    for (const w of neverRan) io.stderr.write(`${w}\n`);
  }
  if (isFailureVerdict(result.run.verdict)) {
    io.stderr.write(renderDiagnosis(result, run.replay, io.stderr.palette));
    return EXIT_INTERNAL;
  }
  return result.ok ? EXIT_OK : EXIT_VIOLATION;
}

/**
 * The scenario, or null after printing every located error (and the warnings of a valid one).
 * `quietIf`, asked of a valid scenario first: when it says true, nothing is printed (the run goes
 * elsewhere, which prints them) and the result is null.
 */
export function loadOrReport(path: string, kubelet: KubeletOverrides | undefined, io: CliIo, text?: string, quietIf?: (scenario: Scenario) => boolean): (LoadResult & { notices: string[] }) | null {
  let loaded: LoadResult;
  try {
    loaded = text === undefined ? loadScenarioWithOverrides(path, kubelet) : loadScenarioTextWithOverrides(text, path, kubelet);
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    const n = err.issues.length;
    io.stderr.write(`${formatIssueList(err.issues).join("\n")}\n`);
    io.stderr.write(`kubelet-sim: ${path} has ${n} error${n === 1 ? "" : "s"}; nothing was run (see ${docPath("scenarios.md")})\n`);
    return null;
  }
  if (quietIf?.(loaded.scenario) === true) return null;
  const notices = loadNotices(loaded, path);
  for (const n of notices) io.stderr.write(`${n}\n`);
  return { ...loaded, notices };
}

/** What the loader says besides errors, as `note:` and `warning:` lines: one short block for a built scenario. */
export function loadNotices(loaded: LoadResult, path: string): string[] {
  const out: string[] = [];
  if (loaded.built !== null) {
    out.push(`note: ${path} is a manifest, not a scenario: kubelet-sim built one around it (--print-scenario writes it):`);
    out.push(...loaded.built.assumptions.map((a) => `note:   ${a}`));
  }
  out.push(...loaded.notes.map((n) => `note: ${n}`));
  out.push(...loaded.warnings.filter((w) => !loaded.ignored.some((i) => i === w)).map((w) => `warning: ${formatIssue(w)}`));
  if (loaded.ignored.length > 0) out.push(ignoredNote(loaded.ignored.map((i) => i.field), path));
  return out;
}

/** The manifest fields the simulator does not model, in one line with their count; validate says where each is. */
export function ignoredNote(fields: readonly string[], path: string): string {
  const SHOWN = 12;
  const names = [...fields].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const more = names.length > SHOWN ? `, and ${names.length - SHOWN} more` : "";
  return `note: ${names.length} manifest field(s) accepted but not modelled: ${names.slice(0, SHOWN).join(", ")}${more} (\`kubelet-sim validate ${path}\` says where)`;
}

/** A --pod filter that names no pod of the scenario is a typo; say so before a long run. */
function checkPodFilter(scenario: Scenario, pod: string | undefined): void {
  if (pod === undefined) return;
  const node = scenario.kubelet.nodeName.toLowerCase();
  const names = scenario.pods.flatMap((p) => {
    const mirror = `${p.name}-${node}`;
    return [p.key, p.name, ...(p.source === "file" ? [mirror, `${p.namespace}/${mirror}`] : [])];
  });
  if (names.includes(pod)) return;
  const known = scenario.pods.map((p) => p.key).join(", ") || "none";
  throw new UserError(`--pod ${pod}: no such pod in this scenario (pods: ${known})`);
}

/** The line to paste to see this run again. */
export function replayKey(file: string, seed: number, strategy: string, untilMs: number | null, kubelet?: KubeletOverrides): string {
  const until = untilMs === null ? "" : ` --until ${formatDuration(untilMs)}`;
  return `kubelet-sim run ${shellWord(file)} --seed ${seed} --strategy ${strategy}${until}${overrideFlags(kubelet)}`;
}

export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Formats that other programs read: on stdout they must be the whole of it (a JSON lines stream, a
 * Mermaid document that starts with `sequenceDiagram`, an HTML page, a Trace Event file), so the
 * replay key, the guide and the verdict go to stderr instead.
 */
export const MACHINE_FORMATS: ReadonlySet<Format> = new Set<Format>(["jsonl", "mermaid", "html", "chrome-trace"]);

/** Human lines go to stdout, unless stdout carries a machine format (then they would corrupt it). */
export function humanStream(output: OutputRequest, io: CliIo): OutStream {
  if (output.json === true) return io.stderr;
  return output.outFile === null && output.formats.some((f) => MACHINE_FORMATS.has(f)) ? io.stderr : io.stdout;
}

interface Target {
  write(text: string): void;
  commit(): void;
  abort(): void;
}

function openTarget(outFile: string | null, stdout: OutStream): Target {
  if (outFile !== null) return AtomicFile.open(outFile);
  return { write: (text) => stdout.write(text), commit: () => {}, abort: () => {} };
}

/** The formats drawn from the kernel's view of the run as well as from its records. */
export const PICTURES: ReadonlySet<Format> = new Set(["html", "chrome-trace", "mermaid"]);

/**
 * Every requested format, in the order asked, separated by a blank line. With --explain, the guide
 * to each format comes before it, or on `guideTo` when the output must stay a pure machine format.
 */
function renderOutputs(result: SimulationResult, output: OutputRequest, guideTo: OutStream | null, kernel: KernelLog | null, file: string): string {
  const records = result.records ?? [];
  // A race of the catalog may name goroutines its narrowed view needs beside those the violation names.
  const html = () => ({ clientScript: htmlClientScript(), narrowActors: raceOfFile(file)?.actors ?? [] });
  const options: RenderOptions = output.formats.includes("html") ? { ...output.render, ...html() } : output.render;
  return output.formats
    .map((format) => {
      const body = render(format, records, options, PICTURES.has(format) ? kernel ?? undefined : undefined);
      if (!output.explain) return body;
      const guide = explainFormat(format, format === "text" ? lanesOf(body) : []);
      if (guideTo === null) return guide + body;
      guideTo.write(guide);
      return body;
    })
    .join("\n");
}

function writeRecord(path: string, run: RecordedRun, result: SimulationResult): void {
  let text: string;
  try {
    text = formatRunRecord(makeRunRecord(run, result));
  } catch (err) {
    if (err instanceof RunRecordError) throw new UserError(`--record ${path}: ${err.message}`);
    throw err;
  }
  writeFileAtomic(path, text);
}
