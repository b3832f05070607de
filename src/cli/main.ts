// The kubelet-sim command line: thin on purpose. Each command lives in its own file under commands/,
// parses its flags with yargs, calls the library, renders, and returns an exit code.
import yargs from "yargs";
import type { Argv } from "yargs";
import { EXIT_INTERNAL, EXIT_USAGE, InternalError, UserError } from "./exit.ts";
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
    .example("$0 run scenarios/default.yaml", "simulate the tour: a timeline, then kubectl-style Events")
    .example("$0 list", "the bundled scenarios, one line each")
    .example("$0 run x.yaml --record run.json && $0 replay run.json", "record a run, then reproduce it exactly")
    .example("$0 validate my.yaml", "check a scenario you wrote; every error with file:line:col")
    .epilogue(
      "Exit codes: 0 ok, 1 an expectation, invariant or vector failed, 2 usage or input error, " +
        "3 internal error (a deadlock, panic or bound in a run: printed with the replay key). See docs/cli.md.",
    )
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
