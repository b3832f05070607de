// The kubelet-sim command line: thin on purpose. Each command lives in its own file under commands/,
// parses its flags with yargs, calls the library, renders, and returns an exit code.
import yargs from "yargs";
import type { Argv } from "yargs";
import { EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, InternalError, UserError } from "./exit.ts";
import { VERSION } from "../version.ts";
import { COMMANDS } from "./commands/index.ts";
import { docPath } from "./package_files.ts";
import { respawn as respawnCli, semiSpaceChosen } from "./young.ts";
import { lessInlining } from "./inlining.ts";

/** The result slot a command handler fills; yargs' own exit handling is turned off. */
export interface CommandContext {
  exitCode: number;
  /**
   * Runs the same command line again in a `node` with a semi-space of MB (young.ts), resolving with
   * its exit code; null where that is not to be done: in-process callers (tests, the library), or
   * when a size was chosen already (the user's NODE_OPTIONS, or this is the re-run).
   */
  respawn?: ((mb: number, flags?: readonly string[]) => Promise<number>) | null;
}

/** How the CLI was started: `script`, the file `node` ran (bin/kubelet-sim.mjs), lets a long run start it again (young.ts). */
export interface MainOptions {
  script?: string;
  /** How V8's flags are set when `script` is given (inlining.ts); a test's stand-in, else v8.setFlagsFromString. */
  setV8Flags?: (flags: string) => void;
}

const EPILOGUE =
  "Exit codes: 0 ok, 1 an expectation, invariant or vector failed, 2 usage or input error, " +
  `3 internal error (a deadlock, panic or bound in a run: printed with the replay key). See ${docPath("cli.md")}.`;

/** The examples `kubelet-sim --help` shows (test/package runs each from an installed tarball). */
export const TOP_EXAMPLES: readonly (readonly [string, string])[] = [
  ["$0 run scenarios/default.yaml", "simulate the tour: a timeline, then kubectl-style Events"],
  ["$0 list", "the bundled scenarios, one line each"],
  ["$0 run x.yaml --record run.json && $0 replay run.json", "record a run, then reproduce it exactly"],
  ["$0 validate my.yaml", "check a scenario you wrote; every error with file:line:col"],
];

export async function main(argv: readonly string[], write: (text: string) => void = (t) => void process.stdout.write(t), options: MainOptions = {}): Promise<number> {
  if (argv.length === 0) {
    write(overview());
    return EXIT_OK;
  }
  const unknown = unknownCommand(argv);
  if (unknown !== null) return reportError(new UserError(unknown));
  const script = options.script;
  // The command only, before anything is optimized: smaller inlining limits (inlining.ts).
  if (script !== undefined) lessInlining(argv[0], options.setV8Flags);
  const respawn = script === undefined || semiSpaceChosen() ? null : (mb: number, flags?: readonly string[]) => respawnCli(script, argv, mb, flags);
  const ctx: CommandContext = { exitCode: 0, respawn };
  let parser: Argv = yargs([...argv])
    .scriptName("kubelet-sim")
    .usage("$0 <command> [options]\n\nA deterministic simulator of the Kubernetes kubelet's pod lifecycle.")
    .version(VERSION)
    .strict()
    .demandCommand(1, "Name a command (kubelet-sim with no arguments lists them).")
    .recommendCommands()
    .exitProcess(false)
    .wrap(Math.min(100, process.stdout.columns || 100))
    .example(TOP_EXAMPLES.map(([cmd, what]) => [cmd, what]))
    .epilogue(EPILOGUE)
    .middleware(restoreNumberWords(argv))
    .fail((msg, err) => {
      throw err ?? new UserError(missingArgument(msg, argv) ?? msg);
    });
  for (const c of COMMANDS) parser = parser.command(c.make(ctx));
  try {
    await parser.parseAsync();
    return ctx.exitCode;
  } catch (err) {
    return reportError(err);
  }
}

/**
 * A number flag given a word (`--port abc`) reaches a command as NaN, and its message would say
 * "--port NaN". Put the word the user typed back, so that each command's own check quotes it
 * (`--port abc: expected a port number from 0 to 65535`).
 */
function restoreNumberWords(argv: readonly string[]): (parsed: Record<string, unknown>) => void {
  return (parsed) => {
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value === "number" && Number.isNaN(value)) parsed[key] = typedWord(argv, key) ?? "(not a number)";
    }
  };
}

/** The last word given to --KEY (kebab-case or as written), as `--key word` or `--key=word`. */
export function typedWord(argv: readonly string[], key: string): string | null {
  const names = [...new Set([key, key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)])].map((k) => `--${k}`);
  let word: string | null = null;
  argv.forEach((a, i) => {
    for (const name of names) {
      if (a === name) word = argv[i + 1] ?? "";
      else if (a.startsWith(`${name}=`)) word = a.slice(name.length + 1);
    }
  });
  return word;
}

/**
 * yargs says "Not enough non-option arguments: got 0, need at least 1" when a command's file is
 * missing; say instead what the command needs and show its example.
 */
function missingArgument(msg: string, argv: readonly string[]): string | null {
  if (!/^Not enough non-option arguments/.test(msg)) return null;
  const ctx: CommandContext = { exitCode: 0 };
  const entry = COMMANDS.find((c) => String(c.make(ctx).command).split(" ")[0] === argv[0]);
  if (entry === undefined) return null;
  const usage = String(entry.make(ctx).command);
  const needs = usage.split(" ").slice(1).filter((w) => w.startsWith("<")).join(" ");
  const bundled = ["run", "explore", "diff", "serve", "validate"].includes(argv[0]!) ? " (kubelet-sim list shows the bundled scenarios)" : "";
  return `${argv[0]} needs ${needs}, e.g. ${entry.example.replaceAll("$0", "kubelet-sim")}${bundled}; kubelet-sim ${argv[0]} --help lists its options`;
}

/** The command's name as it is typed: the first word of its yargs `command` string. */
export function commandNames(): string[] {
  const ctx: CommandContext = { exitCode: 0 };
  return COMMANDS.map((c) => String(c.make(ctx).command).split(" ")[0]!);
}

/** What a bare `kubelet-sim` prints: every command, what it does, and one example of it. */
export function overview(): string {
  const ctx: CommandContext = { exitCode: 0 };
  const rows = COMMANDS.map((c) => {
    const m = c.make(ctx);
    return { usage: String(m.command), describe: String(m.describe), example: c.example.replaceAll("$0", "kubelet-sim") };
  });
  const width = Math.max(...rows.map((r) => r.usage.length));
  const lines = rows.map((r) => `  ${r.usage.padEnd(width)}  ${r.describe}\n  ${"".padEnd(width)}  e.g. ${r.example}`);
  return (
    `kubelet-sim ${VERSION}: a deterministic simulator of the Kubernetes kubelet's pod lifecycle.\n\n` +
    `Usage: kubelet-sim <command> [options]\n\nCommands:\n${lines.join("\n")}\n\n` +
    "A scenario can be a file or the name of a bundled one (kubelet-sim list shows them).\n" +
    "kubelet-sim <command> --help lists a command's options; kubelet-sim --version prints the version.\n" +
    `${EPILOGUE}\n`
  );
}

/** A first word that is no option and no command: say so, and name the commands. */
function unknownCommand(argv: readonly string[]): string | null {
  const first = argv[0]!;
  if (first.startsWith("-")) return null;
  const names = commandNames();
  if (names.includes(first)) return null;
  const near = names.filter((n) => editDistance(n, first) <= 2);
  const hint = near.length === 0 ? "" : ` (did you mean ${near.join(" or ")}?)`;
  return `unknown command '${first}'${hint}; the commands are: ${names.join(", ")} (kubelet-sim with no arguments shows an example of each)`;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** Prints an error the way the CLI does and returns its exit code: a UserError as one message, anything else as a bug. */
export function reportError(err: unknown, write: (text: string) => void = (t) => void process.stderr.write(t)): number {
  if (err instanceof UserError) {
    write(`kubelet-sim: ${err.message}\n`);
    return err.exitCode;
  }
  if (err instanceof Error && err.name === "YError") {
    write(`kubelet-sim: ${err.message}\n(see kubelet-sim --help)\n`);
    return EXIT_USAGE;
  }
  write(`kubelet-sim: internal error (a bug in kubelet-sim; please report it)\n`);
  const cause = err instanceof InternalError ? err.cause : err;
  write(`${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}\n`);
  if (err instanceof InternalError) write(`replay: ${err.replayKey}\n`);
  return EXIT_INTERNAL;
}
