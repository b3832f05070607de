// Reads the input of `kubelet-sim actions`: one pod and one runtime status in the vector schema.
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { VectorFileError } from "./load.ts";
import { podActionsVectorSchema, snapshotFromVector, type PodActionsSnapshot, type PodActionsVector } from "./pod_actions_vectors.ts";

/**
 * Accepts either a single vector-shaped document ({pod, status, featureGates?}) or a vector file
 * holding exactly one vector; any `expected` block is ignored.
 */
export function loadActionsSnapshot(path: string): { vector: PodActionsVector; snapshot: PodActionsSnapshot } {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(path, "utf8"));
  } catch (err) {
    throw new VectorFileError(`${path}: ${(err as Error).message}`);
  }
  const vectors = (doc as { vectors?: unknown } | null)?.vectors;
  if (Array.isArray(vectors)) {
    if (vectors.length !== 1) throw new VectorFileError(`${path}: holds ${vectors.length} vectors; actions takes one pod snapshot`);
    doc = vectors[0];
  }
  const parsed = podActionsVectorSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new VectorFileError(`${path}: not a pod snapshot: ${issue.path.join(".") || "(top)"}: ${issue.message}`);
  }
  return { vector: parsed.data, snapshot: snapshotFromVector(parsed.data) };
}
