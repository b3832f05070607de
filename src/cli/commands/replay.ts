// `kubelet-sim replay FILE`: re-run a recorded run with its own choices and demand the same trace.
import type { ArgumentsCamelCase, Argv } from "yargs";
import { processIo } from "../io.ts";
import { outputRequest, withOutputOptions, type OutputArgs } from "../output_options.ts";
import { semiSpaceFor } from "../young.ts";
import type { CommandFactory } from "./index.ts";

interface Args extends OutputArgs {
  file: string;
  scenario?: string;
}

export const replayCommand: CommandFactory = (ctx) => ({
  command: "replay <file>",
  describe: "Reproduce a recorded run exactly (a file from `run --record`): same choices, same trace hash",
  builder: (y: Argv) =>
    withOutputOptions(y.positional("file", { type: "string", describe: "a run record (JSON) written by `kubelet-sim run --record`" }))
      .option("scenario", { type: "string", describe: "read the scenario here instead of where the record says" })
      .example("$0 run x.yaml --strategy random --record run.json && $0 replay run.json", "record a run, then reproduce it")
      .example("$0 replay run.json --format pods --pod web", "look at the same run another way")
      .example("$0 replay run.json --scenario ../old/x.yaml", "the scenario moved; its text must be unchanged")
      .epilogue(
        "Exit codes: 0 reproduced and every expectation held, 1 reproduced and an expectation or invariant failed, " +
          "2 unreadable record or the scenario text changed, 3 the replay diverged or gave another trace hash.",
      ),
  handler: async (raw: ArgumentsCamelCase) => {
    const argv = raw as unknown as Args;
    // Loaded here, not at the top: the models are needed only when something runs (--help stays fast).
    const { executeReplayInterruptible } = await import("../replay.ts");
    const request = { recordFile: argv.file, scenario: argv.scenario ?? null, output: outputRequest(argv) };
    // A big recorded run goes to a `node` with a larger young generation (young.ts), as `run` does.
    const respawn = ctx.respawn ?? null;
    const outcome = await executeReplayInterruptible(respawn === null ? request : { ...request, elsewhere: semiSpaceFor }, processIo());
    ctx.exitCode = outcome.semiSpaceMb !== undefined && respawn !== null ? await respawn(outcome.semiSpaceMb) : outcome.exitCode;
  },
});
