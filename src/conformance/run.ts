// Runs vector files through the simulator's ports and collects structured results.
import type { z } from "zod";
import { DEFAULT_KUBELET_VERSION } from "../scenario/schema/kubelet.ts";
import { apiStatusVectorSchema, runApiStatusVector } from "./api_status_vectors.ts";
import { backoffVectorSchema, runBackoffVector } from "./backoff_vectors.ts";
import { expandVectorPaths, loadVectorFile, type VectorFile, type VectorKind } from "./load.ts";
import { isSkip, type Outcome, type RunContext } from "./outcome.ts";
import { phaseVectorSchema, runPhaseVector } from "./phase_vectors.ts";
import { plegVectorSchema, runPlegVector } from "./pleg_vectors.ts";
import { podActionsVectorSchema, runPodActionsVector } from "./pod_actions_vectors.ts";
import { podWorkersVectorSchema, runPodWorkersVector } from "./pod_workers_vectors.ts";
import { proberVectorSchema, runProberVector } from "./prober_vectors.ts";
import { runStatusVector, statusVectorSchema } from "./status_vectors.ts";

export interface VectorResult {
  file: string;
  kind: VectorKind;
  index: number;
  name: string;
  passed: boolean;
  /** One readable line per difference (or the reason the vector could not run). */
  diffs: string[];
  /** Why the vector was not run, when it was skipped (then passed is false and diffs empty). */
  skipped?: string;
  /** The vector came from the file's `newerVersionVectors`. */
  newerLine?: boolean;
}

export interface FileResult {
  file: string;
  kind: VectorKind;
  results: VectorResult[];
}

export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
}

type Runner = { schema: z.ZodType; run: (v: never, ctx: RunContext) => Outcome };

const RUNNERS: Record<VectorKind, Runner> = {
  computePodActions: { schema: podActionsVectorSchema, run: runPodActionsVector },
  backoff: { schema: backoffVectorSchema, run: runBackoffVector },
  proberWorker: { schema: proberVectorSchema, run: runProberVector },
  phase: { schema: phaseVectorSchema, run: runPhaseVector },
  plegEvents: { schema: plegVectorSchema, run: runPlegVector },
  statusTransitions: { schema: statusVectorSchema, run: runStatusVector },
  apiStatus: { schema: apiStatusVectorSchema, run: runApiStatusVector },
  podWorkers: { schema: podWorkersVectorSchema, run: runPodWorkersVector },
};

/** A file without a release line runs under the simulator's default kubelet. */
const DEFAULT_MINOR = Number(DEFAULT_KUBELET_VERSION.split(".")[1]);

/** Runs every vector of a loaded file (then its newer-line vectors); a malformed vector fails alone. */
export function runVectorFile(file: VectorFile): FileResult {
  const runner = RUNNERS[file.kind];
  const entries = [
    ...file.vectors.map((raw) => ({ raw, newerLine: false })),
    ...(file.newerVectors ?? []).map((raw) => ({ raw, newerLine: true })),
  ];
  const results = entries.map(({ raw, newerLine }, index): VectorResult => {
    const name = vectorName(raw, index);
    const base = { file: file.path, kind: file.kind, index, name, ...(newerLine ? { newerLine } : {}) };
    const parsed = runner.schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { ...base, passed: false, diffs: [`malformed vector: ${issue.path.join(".") || "(top)"}: ${issue.message}`] };
    }
    const outcome = runner.run(parsed.data as never, { minor: file.minor ?? DEFAULT_MINOR, newerLine });
    if (isSkip(outcome)) return { ...base, passed: false, diffs: [], skipped: outcome.skipped };
    return { ...base, passed: outcome.length === 0, diffs: outcome };
  });
  return { file: file.path, kind: file.kind, results };
}

/** Loads and runs each file in order; throws VectorFileError for an unreadable or invalid file. */
export function runVectorFiles(paths: readonly string[]): FileResult[] {
  // Load every file first, so an invalid file is reported before any vector runs.
  const files = expandVectorPaths(paths).map((p) => loadVectorFile(p));
  return files.map(runVectorFile);
}

export function summarize(files: readonly FileResult[]): Summary {
  const all = files.flatMap((f) => f.results);
  const passed = all.filter((r) => r.passed).length;
  const skipped = all.filter((r) => r.skipped !== undefined).length;
  return { passed, failed: all.length - passed - skipped, skipped };
}

function vectorName(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : `#${index}`;
}
