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
// Types and constants from scenario/types/ and bounds.ts, which hold no zod: this module is part of
// the package's declarations, and a consumer's tsc should not have to read zod's (the schemas
// themselves are in schema/, for the loader).
export type { ParsedScenario, PodEntryParsed, Binding, ApiserverConfig } from "./types/scenario.ts";
export { MAX_PODS, MAX_CONTAINERS, MAX_STEPS, MAX_EXPECTATIONS, MAX_UNTIL_MS, MAX_DEPTH, MAX_ALIASES } from "./bounds.ts";
export type { KubeletConfig, FeatureGate, Allocatable, DevicePluginConfig } from "./types/kubelet.ts";
export { FEATURE_GATES, FEATURE_GATE_NAMES, featureGateDefault } from "./types/kubelet.ts";
export type { RuntimeConfig, ImageConfig, ImagePullFailure, CriFault, CriMethod } from "./types/runtime.ts";
export { CRI_METHODS } from "./types/runtime.ts";
export {
  programForAttempt,
  SIGKILL_EXIT_CODE,
  SIGTERM_EXIT_CODE,
  type ContainerBehaviour,
  type Program,
  type ProbeAnswer,
  type ProbeAnswers,
  type HookBehaviour,
  type SigtermBehaviour,
} from "./types/behaviour.ts";
export type { Step, ActionName } from "./types/timeline.ts";
export type { Expectation, Condition, ContainerCheck, EventCheck, ConditionStatus, PodConditionType } from "./types/expect.ts";
export type { ScenarioStrategy, SwarmConfig, SwarmFault } from "./types/strategy.ts";
export type { RangeMs, CountRange } from "./types/common.ts";
export { MAX_FILE_BYTES } from "./source_text.ts";
