// kubelet-sim for your own tests: simulate(), the invariants, fast-check arbitraries of scenarios,
// and assertInvariantHolds (docs/testing.md).
export { scenarioFromObject } from "./scenario.ts";
export { assertInvariantHolds, checkInvariantHolds, formatCounterexample, type InvariantHoldsOptions, type InvariantHoldsResult, type InvariantCounterexample } from "./assert.ts";
export { scenarioArb, type ScenarioArbOptions } from "./arbitraries/scenario.ts";
export { podArb, containerNames, type PodArbOptions, type RawPodEntry, type RestartPolicy } from "./arbitraries/pod.ts";
export { containerBehaviourArb, programArb, sigtermArb, type BehaviourArbOptions } from "./arbitraries/behaviour.ts";
export { abstractTimelineArb, resolveTimeline, TIMELINE_ACTIONS, type TimelineAction, type TimelineArbOptions } from "./arbitraries/timeline.ts";
export { faultArb, latencyArb, FAULT_METHODS, LATENCY_METHODS } from "./arbitraries/runtime.ts";
export { durationArb, durationMsArb } from "./arbitraries/duration.ts";
