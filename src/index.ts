// The library entry point of kubelet-sim (docs/library.md). The kernel alone is "kubelet-sim/sim".
export * as sim from "./sim/index.ts";
export { VERSION } from "./version.ts";

// Scenarios: load a file or a text; every problem is a LocatedIssue (file:line:col, field path).
export {
  loadScenarioFile,
  loadScenarioText,
  checkScenarioFile,
  checkScenarioText,
  ScenarioError,
  formatIssue,
  formatIssues,
  type LoadResult,
  type CheckResult,
  type IgnoredFieldWarning,
  type LocatedIssue,
  type Scenario,
  type ScenarioPod,
  type Expectation,
  type Step,
} from "./scenario/index.ts";
export { loadScenarioWithOverrides, loadScenarioTextWithOverrides, type KubeletOverrides } from "./scenario/overrides.ts";

// One run.
export { simulate, type SimulateOptions, type SimulationResult } from "./simulate.ts";
export type { CheckReport } from "./check/checker.ts";
export { MemorySink, LineSink, formatStrategy, parseStrategy, parseDuration, formatDuration, type TraceRecord, type TraceSink, type StrategySpec, type Bounds, type Verdict } from "./sim/index.ts";

// What people look at: the same renderers as the CLI's --format. The pictures (html,
// chrome-trace, mermaid) draw goroutine lanes from a KernelLog passed to simulate() as `observer`;
// html also needs the page's script, htmlClientScript().
export { render, renderText, renderEvents, renderPods, renderJsonl, renderMermaid, renderChromeTrace, renderHtml, jsonLines, FORMATS, type Format, type RenderOptions, type TextOptions, type EventsOptions, type PodsOptions, type MermaidOptions, type Verbosity, type KernelView } from "./report/index.ts";
export { KernelLog } from "./sim/index.ts";
export { htmlClientScript } from "./cli/html_client_bundle.ts";

// Record and replay.
export { RUN_RECORD_FORMAT, formatRunRecord, parseRunRecord, textSha256, RunRecordError, type RunRecord } from "./record/run_record.ts";
export { makeRunRecord, replayRunRecord, divergence, type RecordedRun, type ReplayOptions, type ReplayResult } from "./record/replay.ts";

// Many runs: race hunting, shrinking, repro files.
export { explore } from "./explore/async.ts";
export { exploreSync, loadRepro, replayRepro, type ExploreOptions, type ExploreProgress, type ExploreReport, type ReproRecord, type LoadedRepro } from "./explore/index.ts";

// Invariants, and property tests of your own (docs/testing.md).
export { INVARIANTS, makeMonitors, UnknownInvariantError, type InvariantInfo, type InvariantMonitor, type Violation } from "./check/invariants.ts";
export { ALL_INVARIANTS, resolveInvariantIds } from "./check/invariants/index.ts";
export * from "./testing/index.ts";
