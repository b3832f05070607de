// `kubelet-sim list [DIR]`: the bundled scenarios, one line each: path, name, first sentence.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { ArgumentsCamelCase, Argv } from "yargs";
import { checkScenarioFile } from "../../scenario/index.ts";
import { EXIT_OK, EXIT_USAGE, UserError } from "../exit.ts";
import { processIo, type CliIo } from "../io.ts";
import { BUNDLED_SCENARIOS_DIR } from "../scenario_arg.ts";
import type { CommandFactory } from "./index.ts";
import { packagePath } from "../package_files.ts";


interface Args {
  dir?: string;
}

export const listCommand: CommandFactory = (ctx) => ({
  command: "list [dir]",
  describe: "List the bundled scenarios (or those under DIR): path, name, and what each shows",
  builder: (y: Argv) =>
    y
      .positional("dir", { type: "string", describe: "a folder of scenarios (default: the bundled scenarios/)" })
      .example("$0 list", "every bundled scenario, one line each")
      .example("$0 list my-scenarios", "the scenarios under a folder of your own")
      .epilogue("Exit codes: 0 every scenario is valid, 2 some file is not (run `kubelet-sim validate` on it)."),
  handler: async (raw: ArgumentsCamelCase) => {
    const argv = raw as unknown as Args;
    ctx.exitCode = executeList(argv.dir === undefined ? BUNDLED_SCENARIOS_DIR : packagePath(argv.dir), processIo());
  },
});

export function executeList(dir: string, io: CliIo): number {
  const files = scenarioFiles(dir);
  const rows = files.map((abs) => {
    const path = relative(process.cwd(), abs) || abs;
    const r = checkScenarioFile(abs);
    if (!r.ok) return { path, name: "(invalid)", what: `${r.issues.length} error(s); run kubelet-sim validate ${path}`, ok: false };
    return { path, name: r.scenario.name, what: firstSentence(r.scenario.description), ok: true };
  });
  const pathWidth = Math.max(0, ...rows.map((r) => r.path.length));
  const nameWidth = Math.max(0, ...rows.map((r) => r.name.length));
  const p = io.stdout.palette;
  for (const r of rows) {
    const name = r.ok ? p.bold(r.name.padEnd(nameWidth)) : p.red(r.name.padEnd(nameWidth));
    io.stdout.write(`${r.path.padEnd(pathWidth)}  ${name}  ${r.what}\n`.replace(/ +\n$/, "\n"));
  }
  return rows.every((r) => r.ok) ? EXIT_OK : EXIT_USAGE;
}

/** The description's first sentence, on one line; "" when there is none. */
export function firstSentence(description: string): string {
  const text = description.replace(/\s+/g, " ").trim();
  const m = /^(.*?[.!?])(?=\s|$)/.exec(text);
  return m === null ? text : m[1]!;
}

/** .yaml/.yml files under dir, depth-first, in byte order of their names. */
function scenarioFiles(dir: string): string[] {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // Reported below.
  }
  if (!isDir) throw new UserError(`${dir}: not a folder of scenarios`);
  return walk(dir, 0);
}

function walk(dir: string, depth: number): string[] {
  if (depth > 16) return [];
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return walk(path, depth + 1);
    return /\.ya?ml$/.test(e.name) ? [path] : [];
  });
}
