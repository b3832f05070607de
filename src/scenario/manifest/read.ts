// Reading the manifest file a scenario's pod names with `manifestFile` (file loading: the one part
// of the scenario layer that touches the file system). The path is relative to the scenario file.
import { dirname, join, resolve } from "node:path";
import { readSource } from "../source.ts";
import { classifyInput } from "./documents.ts";
import type { ManifestReader } from "./entries.ts";
import { SCENARIO_KEYS } from "../schema/scenario.ts";

export function manifestReader(scenarioPath: string): ManifestReader {
  return (relative) => {
    const shown = join(dirname(scenarioPath), relative);
    const source = readSource(resolve(dirname(scenarioPath), relative));
    if (!source.ok) return { ok: false, file: shown, issues: [{ ...source.issue, file: shown }] };
    const input = classifyInput(source.text, shown, SCENARIO_KEYS);
    if (input.kind === "error") return { ok: false, file: shown, issues: input.issues };
    if (input.kind === "scenario") {
      return { ok: false, file: shown, issues: [{ file: shown, line: 1, col: 1, path: "", message: "expected a Kubernetes manifest (apiVersion and kind), found a kubelet-sim scenario" }] };
    }
    return { ok: true, file: shown, objects: [...input.objects, ...input.skipped] };
  };
}
