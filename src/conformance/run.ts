// Runs vector files through the simulator's ports and collects one verdict per vector:
//   ok       every field of the vector was read by its runner and every check agreed;
//   failed   a check disagreed (the diff lines say which field);
//   partial  every check agreed, but some fields were not read, or are named as not modelled;
//   error    the vector could not run (malformed, an unknown op, a harness that did not settle, a
//            panic); the file and the command go on.
import type { z } from "zod";
import { DEFAULT_KUBELET_VERSION } from "../scenario/schema/kubelet.ts";
import { apiStatusVectorSchema, runApiStatusVector } from "./api_status_vectors.ts";
import { backoffVectorSchema, runBackoffVector } from "./backoff_vectors.ts";
import { expandVectorPaths, loadVectorFile, VectorFileError, type VectorFile, type VectorKind } from "./load.ts";
import { isPartial, VectorError, type NotModelled, type Outcome, type RunContext } from "./outcome.ts";
import { phaseVectorSchema, runPhaseVector } from "./phase_vectors.ts";
import { plegVectorSchema, runPlegVector } from "./pleg_vectors.ts";
import { podActionsVectorSchema, runPodActionsVector } from "./pod_actions_vectors.ts";
import { podWorkersVectorSchema, runPodWorkersVector } from "./pod_workers_vectors.ts";
import { proberVectorSchema, runProberVector } from "./prober_vectors.ts";
import { runStatusVector, statusVectorSchema } from "./status_vectors.ts";
import { parseTracked, Tracker, unreadLeaves } from "./tracked.ts";

export type Verdict = "ok" | "failed" | "partial" | "error";

export interface VectorResult {
  file: string;
  kind: VectorKind;
  index: number;
  name: string;
  verdict: Verdict;
  /** verdict === "ok". */
  passed: boolean;
  /** One readable line per difference (failed). */
  diffs: string[];
  /** Fields no check read (partial). */
  unread: string[];
  /** Fields the runner names as not modelled, with why (partial). */
  notModelled: NotModelled[];
  /** Why the vector could not run (error). */
  error?: string;
  /** The vector came from the file's `newerVersionVectors`. */
  newerLine?: boolean;
}

export interface FileResult {
  file: string;
  kind: VectorKind | null;
  results: VectorResult[];
  /** The file could not be read as a vector file (then it has no results). */
  error?: string;
}

export interface Summary {
  passed: number;
  failed: number;
  partial: number;
  error: number;
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

/** Runs one vector of a file: its verdict, whatever the vector holds. */
export function runVector(file: Pick<VectorFile, "path" | "kind" | "minor">, raw: unknown, index: number, newerLine = false): VectorResult {
  const base = {
    file: file.path, kind: file.kind, index, name: vectorName(raw, index), diffs: [] as string[], unread: [] as string[], notModelled: [] as NotModelled[],
    ...(newerLine ? { newerLine } : {}),
  };
  const runner = RUNNERS[file.kind];
  const tracker = new Tracker();
  let outcome: Outcome;
  try {
    const parsed = parseTracked(runner.schema, tracker.wrap(raw));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new VectorError(`malformed vector: ${issue.path.join(".") || "(top)"}: ${issue.message}`);
    }
    outcome = runner.run(parsed.data as never, { minor: file.minor ?? DEFAULT_MINOR, newerLine });
  } catch (err) {
    const why = err instanceof VectorError ? err.message : `the runner failed (a bug in kubelet-sim): ${bugLine(err)}`;
    return { ...base, verdict: "error", passed: false, error: why };
  }
  const diffs = isPartial(outcome) ? outcome.diffs : outcome;
  const notModelled = isPartial(outcome) ? outcome.notModelled : [];
  if (diffs.length > 0) return { ...base, verdict: "failed", passed: false, diffs, notModelled };
  const unread = unreadLeaves(raw, tracker, notModelled.flatMap((n) => n.fields));
  if (unread.length > 0 || notModelled.length > 0) return { ...base, verdict: "partial", passed: false, unread, notModelled };
  return { ...base, verdict: "ok", passed: true };
}

/** Runs every vector of a loaded file (then its newer-line vectors); one vector's error stays its own. */
export function runVectorFile(file: VectorFile): FileResult {
  const entries = [
    ...file.vectors.map((raw) => ({ raw, newerLine: false })),
    ...(file.newerVectors ?? []).map((raw) => ({ raw, newerLine: true })),
  ];
  const results = entries.map(({ raw, newerLine }, index) => runVector(file, raw, index, newerLine));
  return { file: file.path, kind: file.kind, results };
}

/** Loads and runs each file in order; a file that is not a vector file is reported, and the others still run. */
export function runVectorFiles(paths: readonly string[]): FileResult[] {
  const entries = paths.flatMap((p): (string | { unreadable: string; why: string })[] => {
    try {
      return expandVectorPaths([p]);
    } catch (err) {
      if (!(err instanceof VectorFileError)) throw err;
      return [{ unreadable: p, why: err.message }];
    }
  });
  return entries.map((entry): FileResult => {
    if (typeof entry !== "string") return { file: entry.unreadable, kind: null, results: [], error: entry.why };
    const path = entry;
    let file: VectorFile;
    try {
      file = loadVectorFile(path);
    } catch (err) {
      if (!(err instanceof VectorFileError)) throw err;
      return { file: path, kind: null, results: [], error: err.message };
    }
    return runVectorFile(file);
  });
}

/** Vector counts by verdict; a file that could not be read counts as one error. */
export function summarize(files: readonly FileResult[]): Summary {
  const all = files.flatMap((f) => f.results);
  const count = (v: Verdict) => all.filter((r) => r.verdict === v).length;
  return { passed: count("ok"), failed: count("failed"), partial: count("partial"), error: count("error") + files.filter((f) => f.error !== undefined).length };
}

/** An unexpected exception in one line: its message and where it was thrown. */
function bugLine(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const at = err.stack?.split("\n").find((l) => /^\s+at /.test(l))?.trim();
  return at === undefined ? err.message : `${err.message} (${at})`;
}

function vectorName(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : `#${index}`;
}
