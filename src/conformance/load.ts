// Loads oracle vector files (YAML) and tells which kind each one is: the three kinds of oracle/
// and the five of oracle2/ (getPhase, the generic PLEG, the status manager, the API pod status,
// the pod workers).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { formatIssue } from "../scenario/errors.ts";
import { readSource } from "../scenario/source.ts";
import { parseYaml as parseBoundedYaml } from "../scenario/yaml.ts";
import { z } from "zod";
import { MAX_KUBELET_MINOR, MIN_KUBELET_MINOR } from "../scenario/schema/kubelet.ts";

export type VectorKind =
  | "computePodActions"
  | "backoff"
  | "proberWorker"
  | "phase"
  | "plegEvents"
  | "statusTransitions"
  | "apiStatus"
  | "podWorkers";

/** A vector file that cannot be read or is not in the oracle schema. */
export class VectorFileError extends Error {
  override name = "VectorFileError";
}

export interface VectorFile {
  path: string;
  kind: VectorKind;
  describes: string;
  vectors: unknown[];
  /** `newerVersionVectors`: vectors from an upstream line newer than the file's pin (phase.yaml). */
  newerVectors?: unknown[];
  /** The kubelet minor whose behaviour the file's pinned code shows (from meta.pinned.releaseLine). */
  minor?: number;
}

const fileSchema = z.looseObject({
  meta: z.looseObject({
    describes: z.string(),
    pinned: z.looseObject({ releaseLine: z.string().optional() }).optional(),
  }),
  vectors: z.array(z.unknown()),
  newerVersionVectors: z.array(z.unknown()).optional(),
});

/** meta.describes names what the file checks; the kind is read from its key words. */
export function kindOf(describes: string): VectorKind | undefined {
  if (/computePodActions/.test(describes)) return "computePodActions";
  if (/\bgetPhase\b/.test(describes)) return "phase";
  if (/GenericPLEG|pleg\/generic\.go/.test(describes)) return "plegEvents";
  if (/status\/status_manager\.go/.test(describes)) return "statusTransitions";
  if (/generateAPIPodStatus/.test(describes)) return "apiStatus";
  if (/\bpodWorkers\b|pod_workers\.go/.test(describes)) return "podWorkers";
  if (/prober|doProbe/.test(describes)) return "proberWorker";
  if (/backoff/i.test(describes)) return "backoff";
  return undefined;
}

/**
 * The kubelet minor a release line names: the last "v1.N" in it, which is the line the text
 * settles on ("master between v1.32 and v1.34 ... call it v1.33 development line" is 33, "v1.30/v1.31
 * line" is 31), kept within the minors the simulator models. Undefined when the text names none.
 */
export function minorOfReleaseLine(releaseLine: string): number | undefined {
  const all = [...releaseLine.matchAll(/v1\.(\d+)/g)].map((m) => Number(m[1]));
  const last = all.at(-1);
  if (last === undefined) return undefined;
  return Math.min(MAX_KUBELET_MINOR, Math.max(MIN_KUBELET_MINOR, last));
}

/**
 * The vector files a list of paths names: a file as it is, a folder as the `.yaml` files directly
 * in it, sorted (`conformance ../shared/oracle2`). A folder with none is an error, not a silent pass.
 */
export function expandVectorPaths(paths: readonly string[]): string[] {
  return paths.flatMap((p) => {
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      return [p]; // loadVectorFile says why it cannot be read
    }
    if (!isDir) return [p];
    const files = readdirSync(p).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => join(p, f));
    if (files.length === 0) throw new VectorFileError(`${p}: a folder with no .yaml vector files in it`);
    return files;
  });
}

/**
 * Reads synchronously (src/ outside the CLI never yields to the host scheduler), with the scenario
 * loader's bounds: a size cap before reading, no binary content, bounded nesting and aliases, and
 * syntax errors located at file:line:col.
 */
export function loadVectorFile(path: string): VectorFile {
  const source = readSource(path);
  if (!source.ok) throw new VectorFileError(`${path}: cannot read: ${source.issue.message}`);
  return parseVectorFile(path, source.text);
}

export function parseVectorFile(path: string, text: string): VectorFile {
  const yaml = parseBoundedYaml(text, path);
  if (!yaml.ok) {
    const issues = yaml.issues.map((i) => formatIssue({ ...i, message: i.message.replace(/^expected a scenario: a mapping of fields \([^)]*\)/, "expected a vector file: a mapping with meta and vectors") }));
    throw new VectorFileError(`${path}: not valid YAML: ${issues.join("; ")}`);
  }
  const doc: unknown = yaml.value;
  const parsed = fileSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new VectorFileError(`${path}: not a vector file: ${issue.path.join(".") || "(top)"}: ${issue.message}`);
  }
  const { meta, vectors, newerVersionVectors } = parsed.data;
  const kind = kindOf(meta.describes);
  if (kind === undefined) {
    throw new VectorFileError(`${path}: meta.describes names nothing kubelet-sim can check: ${meta.describes}`);
  }
  const releaseLine = meta.pinned?.releaseLine;
  const minor = releaseLine === undefined ? undefined : minorOfReleaseLine(releaseLine);
  return {
    path,
    kind,
    describes: meta.describes,
    vectors,
    ...(newerVersionVectors === undefined ? {} : { newerVectors: newerVersionVectors }),
    ...(minor === undefined ? {} : { minor }),
  };
}
