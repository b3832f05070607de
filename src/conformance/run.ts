// Runs vector files through the simulator's ports and collects structured results.
import type { z } from "zod";
import { backoffVectorSchema, runBackoffVector } from "./backoff_vectors.ts";
import { loadVectorFile, type VectorFile, type VectorKind } from "./load.ts";
import { podActionsVectorSchema, runPodActionsVector } from "./pod_actions_vectors.ts";
import { proberVectorSchema, runProberVector } from "./prober_vectors.ts";

export interface VectorResult {
  file: string;
  kind: VectorKind;
  index: number;
  name: string;
  passed: boolean;
  /** One readable line per difference (or the reason the vector could not run). */
  diffs: string[];
}

export interface FileResult {
  file: string;
  kind: VectorKind;
  results: VectorResult[];
}

export interface Summary {
  passed: number;
  failed: number;
}

type Runner = { schema: z.ZodType; run: (v: never) => string[] };

const RUNNERS: Record<VectorKind, Runner> = {
  computePodActions: { schema: podActionsVectorSchema, run: runPodActionsVector },
  backoff: { schema: backoffVectorSchema, run: runBackoffVector },
  proberWorker: { schema: proberVectorSchema, run: runProberVector },
};

/** Runs every vector of a loaded file; a malformed vector fails alone, with its schema error. */
export function runVectorFile(file: VectorFile): FileResult {
  const runner = RUNNERS[file.kind];
  const results = file.vectors.map((raw, index): VectorResult => {
    const name = vectorName(raw, index);
    const base = { file: file.path, kind: file.kind, index, name };
    const parsed = runner.schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { ...base, passed: false, diffs: [`malformed vector: ${issue.path.join(".") || "(top)"}: ${issue.message}`] };
    }
    const diffs = runner.run(parsed.data as never);
    return { ...base, passed: diffs.length === 0, diffs };
  });
  return { file: file.path, kind: file.kind, results };
}

/** Loads and runs each file in order; throws VectorFileError for an unreadable or invalid file. */
export function runVectorFiles(paths: readonly string[]): FileResult[] {
  // Load every file first, so an invalid file is reported before any vector runs.
  const files = paths.map((p) => loadVectorFile(p));
  return files.map(runVectorFile);
}

export function summarize(files: readonly FileResult[]): Summary {
  const all = files.flatMap((f) => f.results);
  const passed = all.filter((r) => r.passed).length;
  return { passed, failed: all.length - passed };
}

function vectorName(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : `#${index}`;
}
