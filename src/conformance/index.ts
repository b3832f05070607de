// Conformance against Kubernetes' own test vectors (the oracle files): load, run, compare.
export { expandVectorPaths, loadVectorFile, parseVectorFile, kindOf, minorOfReleaseLine, VectorFileError, type VectorFile, type VectorKind } from "./load.ts";
export { notModelled, isPartial, VectorError, type NotModelled, type Outcome, type RunContext } from "./outcome.ts";
export { runVector, runVectorFile, runVectorFiles, summarize, type FileResult, type VectorResult, type Summary, type Verdict } from "./run.ts";
export { diffValues, equalish } from "./diff.ts";
export { podActionsVectorSchema, snapshotFromVector, projectActions, type PodActionsVector, type PodActionsSnapshot } from "./pod_actions_vectors.ts";
export { explainPodActions, explainSnapshot, type Explanation } from "./explain.ts";
export { loadActionsSnapshot } from "./snapshot_file.ts";
