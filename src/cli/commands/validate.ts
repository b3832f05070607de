// `kubelet-sim validate FILE...`: check scenario files and report every problem with its place.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ArgumentsCamelCase, Argv } from "yargs";
import { checkScenarioFile, formatIssue, formatIssueList, type CheckResult, type IgnoredFieldWarning, type LocatedIssue } from "../../scenario/index.ts";
import { scenarioYaml } from "../../scenario/manifest/print.ts";
import { EXIT_OK, EXIT_USAGE } from "../exit.ts";
import { resolveScenarioArg } from "../scenario_arg.ts";
import { kubeletOverridesOf } from "./run.ts";
import { packagePath } from "../package_files.ts";
import type { CommandFactory } from "./index.ts";

interface Args {
  files: string[];
  quiet: boolean;
  print: boolean;
  printScenario: boolean;
  node?: string;
}

export const validateCommand: CommandFactory = (ctx) => ({
  command: "validate <files..>",
  describe: "Check scenario and manifest files: every error with file:line:col, unmodelled manifest fields listed once",
  builder: (y: Argv) =>
    y
      .positional("files", { type: "string", array: true, describe: "scenario or manifest files, or folders to search for *.yaml" })
      .option("quiet", { alias: "q", type: "boolean", default: false, describe: "print only errors" })
      .option("print", { type: "boolean", default: false, describe: "print each valid scenario as parsed (JSON, defaults filled in)" })
      .option("print-scenario", { type: "boolean", default: false, describe: "print each valid file's scenario as YAML to edit (a manifest's built scenario too)" })
      .option("node", { type: "string", describe: "check as if run with --node NAME: the node the kubelet runs as, the node whose pods a manifest dump runs" })
      .example("$0 validate my.yaml", "check one file")
      .example("$0 validate scenarios", "check every .yaml file under scenarios/")
      .example("$0 validate --print my.yaml", "show the scenario with every default, durations in ms")
      .example("$0 validate examples/manifests", "check manifests: what kubelet-sim would run, and what it assumes")
      .epilogue("Exit codes: 0 every file is valid, 2 some file is not."),
  handler: async (raw: ArgumentsCamelCase) => {
    const argv = raw as unknown as Args;
    const nodeName = kubeletOverridesOf({ node: argv.node }).kubelet?.nodeName;
    const { files, empty } = expand(argv.files);
    const results = files.map((file) => ({ file, result: checkScenarioFile(file, nodeName === undefined ? {} : { nodeName }) }));
    const report = renderValidation(results, argv);
    process.stdout.write(report.stdout);
    process.stderr.write(report.stderr);
    // A folder with nothing to check is a mistake (a wrong path, a missing checkout), not a pass.
    for (const dir of empty) process.stderr.write(`kubelet-sim: ${dir}: no .yaml or .yml files in this folder or under it; nothing was validated\n`);
    ctx.exitCode = results.every((r) => r.result.ok) && empty.length === 0 ? EXIT_OK : EXIT_USAGE;
  },
});

/** Files as given; folders replaced by the .yaml/.yml files under them, sorted; the folders that had none. */
export function expand(paths: readonly string[]): { files: string[]; empty: string[] } {
  const files: string[] = [];
  const empty: string[] = [];
  for (const p of paths) {
    let dir = false;
    const folder = packagePath(p);
    try {
      dir = statSync(folder).isDirectory();
    } catch {
      // A missing file is reported by the loader, with the others.
    }
    if (!dir) {
      files.push(resolveScenarioArg(p));
      continue;
    }
    const found = yamlFilesUnder(folder, 0);
    if (found.length === 0) empty.push(p);
    files.push(...found);
  }
  return { files, empty };
}

function yamlFilesUnder(dir: string, depth: number): string[] {
  if (depth > 16) return [];
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.flatMap((e) => {
    const path = join(dir, e.name);
    // A folder named x.yaml is searched like any folder, never read as a file.
    if (e.isDirectory()) return yamlFilesUnder(path, depth + 1);
    return /\.ya?ml$/.test(e.name) ? [path] : [];
  });
}

/** `ok FILE` lines on stdout; errors on stderr; the ignored manifest fields once, at the end. */
export function renderValidation(
  results: ReadonlyArray<{ file: string; result: CheckResult }>,
  opts: { quiet: boolean; print: boolean; printScenario?: boolean },
): { stdout: string; stderr: string } {
  const out: string[] = [];
  const err: string[] = [];
  const ignored = new Map<string, LocatedIssue>();
  for (const { file, result } of results) {
    if (!result.ok) {
      err.push(...formatIssueList(result.issues));
      continue;
    }
    if (!opts.quiet) out.push(`ok ${file}`);
    for (const w of result.ignored) if (!ignored.has(w.field)) ignored.set(w.field, w);
    const others = result.warnings.filter((w) => !result.ignored.includes(w as IgnoredFieldWarning));
    if (!opts.quiet) out.push(...others.map((w) => `  warning: ${formatIssue(w)}`));
    if (!opts.quiet && result.built !== null) out.push(`  note: a manifest: kubelet-sim builds a scenario around it:`, ...result.built.assumptions.map((a) => `    ${a}`));
    if (!opts.quiet) out.push(...result.notes.map((n) => `  note: ${n}`));
    if (opts.print) out.push(JSON.stringify(result.scenario, null, 2));
    if (opts.printScenario === true) out.push(scenarioYaml(result, file).trimEnd());
  }
  if (ignored.size > 0 && !opts.quiet) {
    out.push(`${ignored.size} manifest field(s) accepted but not modelled by the simulator (ignored):`);
    const width = Math.max(...[...ignored.keys()].map((k) => k.length));
    for (const [field, w] of [...ignored.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      out.push(`  ${field.padEnd(width)}  ${w.file}:${w.line}:${w.col}`);
    }
  }
  const invalid = results.filter((r) => !r.result.ok).length;
  if (invalid > 0) err.push(`${invalid} of ${results.length} file${results.length === 1 ? "" : "s"} invalid`);
  const text = (lines: string[]) => (lines.length === 0 ? "" : `${lines.join("\n")}\n`);
  return { stdout: text(out), stderr: text(err) };
}
