// `kubelet-sim conformance FILE...`: run Kubernetes' own test vectors through the simulator's ports.
import type { ArgumentsCamelCase, Argv } from "yargs";
import type { FileResult, Summary } from "../../conformance/index.ts";
import { EXIT_OK, EXIT_USAGE, EXIT_VIOLATION } from "../exit.ts";
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
        "Each vector is ok (every field checked, all agreeing), FAIL, partial (a field no check reads, or one the simulator does not model, listed with why; never counted as passed) or error (it could not run; the others still do).\n" +
          "Exit codes: 0 no vector failed or errored, 1 some vector failed or errored, 2 a file is not a vector file.",
      ),
  handler: async (raw: ArgumentsCamelCase) => {
    const argv = raw as unknown as Args;
    // Loaded here, not at the top: the models are needed only when something runs (--help stays fast).
    const { runVectorFiles, summarize } = await import("../../conformance/index.ts");
    const files = runVectorFiles(expandPackageArgs(argv.files));
    const summary = summarize(files);
    process.stdout.write(renderConformance(files, argv.verbose, summary));
    const unreadable = files.filter((f) => f.error !== undefined);
    for (const f of unreadable) process.stderr.write(`kubelet-sim: ${f.error}\n`);
    ctx.exitCode = unreadable.length > 0 ? EXIT_USAGE : summary.failed > 0 || summary.error > 0 ? EXIT_VIOLATION : EXIT_OK;
  },
});

const PAD = 8;

/**
 * One line per vector that did not pass, with what went wrong indented below it (a failed
 * vector's differences, a partial vector's unread and not-modelled fields, an error's cause),
 * a line per file that could not be read, then the counts: `N passed, N failed, N partial, N error`.
 */
export function renderConformance(files: readonly FileResult[], verbose: boolean, summary: Summary): string {
  const out: string[] = [];
  const detail = (line: string) => out.push(`${" ".repeat(PAD)}${line}`);
  for (const f of files) {
    if (f.error !== undefined) {
      out.push(`${"error".padEnd(PAD)}${f.error}`);
      continue;
    }
    for (const r of f.results) {
      const label = `${f.file} #${r.index}${r.newerLine === true ? " (newer line)" : ""} ${r.name}`;
      if (r.verdict === "ok") {
        if (verbose) out.push(`${"ok".padEnd(PAD)}${label}`);
        continue;
      }
      out.push(`${(r.verdict === "failed" ? "FAIL" : r.verdict).padEnd(PAD)}${label}`);
      if (r.verdict === "error") detail(r.error ?? "");
      for (const d of r.diffs) detail(d);
      if (r.unread.length > 0) detail(`not read by any check: ${r.unread.join(", ")}`);
      for (const n of r.notModelled) detail(`not modelled: ${n.fields.join(", ")}: ${n.why}`);
    }
  }
  out.push(`${summary.passed} passed, ${summary.failed} failed, ${summary.partial} partial, ${summary.error} error`);
  return `${out.join("\n")}\n`;
}
