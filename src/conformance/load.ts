// Loads oracle vector files (YAML) and tells which of the three kinds each one is.
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "zod";

export type VectorKind = "computePodActions" | "backoff" | "proberWorker";

/** A vector file that cannot be read or is not in the oracle schema. */
export class VectorFileError extends Error {
  override name = "VectorFileError";
}

export interface VectorFile {
  path: string;
  kind: VectorKind;
  describes: string;
  vectors: unknown[];
}

const fileSchema = z.looseObject({
  meta: z.looseObject({ describes: z.string() }),
  vectors: z.array(z.unknown()),
});

/** meta.describes names what the file checks; the kind is read from its key words. */
export function kindOf(describes: string): VectorKind | undefined {
  if (/computePodActions/.test(describes)) return "computePodActions";
  if (/prober|doProbe/.test(describes)) return "proberWorker";
  if (/backoff/i.test(describes)) return "backoff";
  return undefined;
}

/** Reads synchronously: src/ outside the CLI never yields to the host scheduler. */
export function loadVectorFile(path: string): VectorFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new VectorFileError(`${path}: cannot read: ${(err as Error).message}`);
  }
  return parseVectorFile(path, text);
}

export function parseVectorFile(path: string, text: string): VectorFile {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new VectorFileError(`${path}: not valid YAML: ${(err as Error).message}`);
  }
  const parsed = fileSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new VectorFileError(`${path}: not a vector file: ${issue.path.join(".") || "(top)"}: ${issue.message}`);
  }
  const kind = kindOf(parsed.data.meta.describes);
  if (kind === undefined) {
    throw new VectorFileError(`${path}: meta.describes names nothing kubelet-sim can check: ${parsed.data.meta.describes}`);
  }
  return { path, kind, describes: parsed.data.meta.describes, vectors: parsed.data.vectors };
}
