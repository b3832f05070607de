// Reads the input of `kubelet-sim actions`: one pod and one runtime status in the vector schema.
import { formatIssue } from "../scenario/errors.ts";
import { locate } from "../scenario/positions.ts";
import { readSource } from "../scenario/source.ts";
import { parseYaml } from "../scenario/yaml.ts";
import { VectorFileError } from "./load.ts";
import { podActionsVectorSchema, snapshotFromVector, type PodActionsSnapshot, type PodActionsVector } from "./pod_actions_vectors.ts";

/**
 * Accepts either a single vector-shaped document ({pod, status, featureGates?}) or a vector file
 * holding exactly one vector; any `expected` block is ignored.
 */
export function loadActionsSnapshot(path: string): { vector: PodActionsVector; snapshot: PodActionsSnapshot } {
  // The scenario loader's reader and parser: a size cap, nesting and alias bounds, located errors.
  const source = readSource(path);
  if (!source.ok) throw new VectorFileError(formatIssue(source.issue));
  const yaml = parseYaml(source.text, path);
  if (!yaml.ok) throw new VectorFileError(yaml.issues.map(formatIssue).join("\n"));
  let doc: unknown = yaml.value;
  let base: PropertyKey[] = [];
  const vectors = (doc as { vectors?: unknown } | null)?.vectors;
  if (Array.isArray(vectors)) {
    const at = locate(yaml.doc, yaml.lineCounter, ["vectors"]);
    if (vectors.length !== 1) throw new VectorFileError(`${path}:${at.line}:${at.col}: holds ${vectors.length} vectors; actions takes one pod snapshot`);
    doc = vectors[0];
    base = ["vectors", 0];
  }
  const parsed = podActionsVectorSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = locate(yaml.doc, yaml.lineCounter, [...base, ...issue.path]);
    throw new VectorFileError(`${path}:${at.line}:${at.col}: not a pod snapshot: ${issue.path.join(".") || "(top)"}: ${issue.message}`);
  }
  return { vector: parsed.data, snapshot: snapshotFromVector(parsed.data) };
}
