// Exploration: many runs, strategies, shrinking, repro files, worker threads (docs/exploring.md).
export { exploreParallel, exploreSync, type ExploreOptions, type ExploreProgress, type ExploreReport, type StopReason } from "./explorer.ts";
export { makePlan, calibratePctSteps, type PlanRequest } from "./plan.ts";
export { RunContext, type ExplorePlan, type ExploreStrategy, type RunSummary } from "./context.ts";
export { runSeed, parseShard, shardIndices, type Shard } from "./seeds.ts";
export { applySwarm } from "./swarm.ts";
export { classifyFailure, sameFailure, describeFailure, type Failure, type FailureKind } from "./failure.ts";
export { shrinkFailure, deviationCount, type Found, type ShrinkOptions, type ShrinkResult } from "./shrink.ts";
export { ddmin } from "./ddmin.ts";
export { writeRepro, loadRepro, replayRepro, RUN_RECORD_FORMAT, type ReproRecord, type LoadedRepro, type WrittenRepro } from "./repro.ts";
export { checkDeterminism, sampleIndices, type DeterminismReport, type DeterminismMismatch } from "./determinism.ts";
export { humanSummary, jsonLine, runsPerSec, runsDigest, summarize, firstFailing, type ExploreJsonLine, type ExploreSummary } from "./summary.ts";
export { mergeShards, readShardFiles, writeShardFile, shardFileName, MergeError, SHARD_FORMAT, type ShardFile } from "./merge.ts";
export { compileRaw, compileRawOrThrow, readRawScenario, withInvariantExpectations, type RawScenario } from "./raw.ts";
export { Budget, type Clock } from "./budget.ts";
