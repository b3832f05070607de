// `kubelet-sim conformance FILE...`: run Kubernetes' own test vectors through the simulator's ports.
import type { ArgumentsCamelCase, Argv } from "yargs";
import type { FileResult } from "../../conformance/index.ts";
import { EXIT_OK, EXIT_VIOLATION, UserError } from "../exit.ts";
import type { CommandFactory } from "./index.ts";
import { expandPackageArgs } from "../package_files.ts";

interface Args {
  files: string[];
  verbose: boolean;
}

export const conformanceCommand: CommandFactory = (ctx) => ({
  command: "conformance <files..>",
  describe: "Check the kubelet models against Kubernetes' own test vectors (oracle and oracle2 files)",
  builder: (y: Argv) =>
    y
      .positional("files", { type: "string", array: true, describe: "vector files, or folders of them (YAML; the format is in test/fixtures/oracle/README.md)" })
      .option("verbose", { alias: "v", type: "boolean", default: false, describe: "also list the vectors that pass" })
      .example("$0 conformance test/fixtures/oracle/*.yaml", "run every vector file; exit 1 if any vector fails")
      .example("$0 conformance test/fixtures/oracle2/*.yaml", "getPhase, the PLEG, the status manager, the API status and the pod workers")
      .example("$0 conformance test/fixtures/oracle2", "a folder: every .yaml file in it")
      .example("$0 conformance -v test/fixtures/oracle/compute_pod_actions.yaml", "list each vector with its verdict")
      .epilogue(
        "A vector outside the simulator's scope is skipped with its reason (listed as `skip`), never counted as passed.\n" +
          "Exit codes: 0 no vector failed, 1 some vector failed, 2 a file is not a valid vector file.",
      ),
  handler: async (raw: ArgumentsCamelCase) => {
    const argv = raw as unknown as Args;
    // Loaded here, not at the top: the models are needed only when something runs (--help stays fast).
    const { runVectorFiles, summarize, VectorFileError } = await import("../../conformance/index.ts");
    let files: FileResult[];
    try {
      files = runVectorFiles(expandPackageArgs(argv.files));
    } catch (err) {
      if (err instanceof VectorFileError) throw new UserError(err.message);
      throw err;
    }
    const summary = summarize(files);
    process.stdout.write(renderConformance(files, argv.verbose, summary));
    ctx.exitCode = summary.failed > 0 ? EXIT_VIOLATION : EXIT_OK;
  },
});

/**
 * One line per failing vector with its diff indented below, one per skipped vector with its reason,
 * then the `N passed, M failed` line (`, K skipped` added when some were).
 */
export function renderConformance(files: readonly FileResult[], verbose: boolean, summary: { passed: number; failed: number; skipped?: number }): string {
  const out: string[] = [];
  for (const f of files) {
    for (const r of f.results) {
      const label = `${f.file} #${r.index}${r.newerLine === true ? " (newer line)" : ""} ${r.name}`;
      if (r.passed) {
        if (verbose) out.push(`ok    ${label}`);
      } else if (r.skipped !== undefined) {
        out.push(`skip  ${label}`, `        ${r.skipped}`);
      } else {
        out.push(`FAIL  ${label}`);
        for (const d of r.diffs) out.push(`        ${d}`);
      }
    }
  }
  const { passed, failed, skipped = 0 } = summary;
  out.push(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`);
  return `${out.join("\n")}\n`;
}
