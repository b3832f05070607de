// The scenario language: schema (the single source of truth), loading with positions, errors.
export {
  loadScenarioFile,
  loadScenarioText,
  checkScenarioFile,
  checkScenarioText,
  type LoadResult,
  type IgnoredFieldWarning,
  type CheckResult,
} from "./load.ts";
export { ScenarioError, formatIssue, formatIssues, formatIssueList, MAX_PRINTED_ISSUES, type LocatedIssue } from "./errors.ts";
export type { Scenario, ScenarioPod } from "./resolve.ts";
export { scenarioSchema, type ParsedScenario, MAX_PODS, MAX_CONTAINERS, MAX_STEPS, MAX_EXPECTATIONS, MAX_UNTIL_MS } from "./schema/scenario.ts";
export type { KubeletConfig, FeatureGate } from "./schema/kubelet.ts";
export { FEATURE_GATES, FEATURE_GATE_NAMES, featureGateDefault } from "./schema/kubelet.ts";
export type { RuntimeConfig, ImageConfig, CriFault, CriMethod } from "./schema/runtime.ts";
export { CRI_METHODS } from "./schema/runtime.ts";
export {
  programForAttempt,
  SIGKILL_EXIT_CODE,
  SIGTERM_EXIT_CODE,
  type ContainerBehaviour,
  type Program,
  type ProbeAnswer,
  type SigtermBehaviour,
} from "./schema/behaviour.ts";
export type { Step, ActionName } from "./schema/timeline.ts";
export type { Expectation, Condition } from "./schema/expect.ts";
export type { ScenarioStrategy, SwarmConfig } from "./schema/strategy.ts";
export type { RangeMs, CountRange } from "./schema/common.ts";
export { MAX_FILE_BYTES } from "./source.ts";
export { MAX_DEPTH, MAX_ALIASES } from "./yaml.ts";
