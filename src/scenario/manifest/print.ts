// `--print-scenario`: the scenario as YAML to edit, opening with what was assumed when it was
// built around a manifest file. Loading the printed text gives the same scenario, the same run.
import { stringify } from "yaml";
import type { LoadResult } from "../load.ts";

export function scenarioYaml(loaded: Pick<LoadResult, "raw" | "built">, file: string): string {
  const head = loaded.built === null
    ? [`# The scenario ${file}, as kubelet-sim reads it (every manifestFile read in).`]
    : [
        `# Built by kubelet-sim around the manifest ${file}; edit it and run it as a scenario.`,
        "# Assumed:",
        ...loaded.built.assumptions.map((a) => `#   ${a}`),
        "# Timings, container programs and probe answers: docs/scenarios.md and docs/scenario-reference.md.",
      ];
  return `${head.join("\n")}\n${stringify(loaded.raw, { lineWidth: 0 })}`;
}
