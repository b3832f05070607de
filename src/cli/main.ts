// The kubelet-sim command line: thin on purpose. Each command lives in its own file under commands/,
// parses its flags with yargs, calls the library, renders, and returns an exit code.
import yargs from "yargs";
import type { Argv } from "yargs";
import { EXIT_INTERNAL, EXIT_USAGE, UserError } from "./exit.ts";
import { VERSION } from "../version.ts";
import { commands } from "./commands/index.ts";

/** The result slot a command handler fills; yargs' own exit handling is turned off. */
export interface CommandContext {
  exitCode: number;
}

export async function main(argv: readonly string[]): Promise<number> {
  const ctx: CommandContext = { exitCode: 0 };
  let parser: Argv = yargs([...argv])
    .scriptName("kubelet-sim")
    .usage("$0 <command> [options]\n\nA deterministic simulator of the Kubernetes kubelet's pod lifecycle.")
    .version(VERSION)
    .strict()
    .demandCommand(1, "Name a command; see the list above.")
    .recommendCommands()
    .exitProcess(false)
    .wrap(Math.min(100, process.stdout.columns || 100))
    .epilogue("Exit codes: 0 ok, 1 expectation/invariant/vector failed, 2 usage or input error, 3 internal error.")
    .fail((msg, err) => {
      throw err ?? new UserError(msg);
    });
  for (const make of commands) parser = parser.command(make(ctx));
  try {
    await parser.parseAsync();
    return ctx.exitCode;
  } catch (err) {
    return reportError(err);
  }
}

function reportError(err: unknown): number {
  if (err instanceof UserError) {
    process.stderr.write(`kubelet-sim: ${err.message}\n`);
    return err.exitCode;
  }
  if (err instanceof Error && err.name === "YError") {
    process.stderr.write(`kubelet-sim: ${err.message}\n(see kubelet-sim --help)\n`);
    return EXIT_USAGE;
  }
  process.stderr.write(`kubelet-sim: internal error (a bug in kubelet-sim; please report it)\n`);
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  return EXIT_INTERNAL;
}
