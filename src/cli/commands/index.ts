// The registry of commands; one file per command in this folder.
import type { CommandModule } from "yargs";
import type { CommandContext } from "../main.ts";
import { actionsCommand } from "./actions.ts";
import { conformanceCommand } from "./conformance.ts";
import { diffCommand } from "./diff.ts";
import { exploreCommand } from "./explore.ts";
import { listCommand } from "./list.ts";
import { mergeCommand } from "./merge.ts";
import { playCommand } from "./play.ts";
import { replayCommand } from "./replay.ts";
import { runCommand } from "./run.ts";
import { serveCommand } from "./serve.ts";
import { validateCommand } from "./validate.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandFactory = (ctx: CommandContext) => CommandModule<any, any>;

export interface CommandEntry {
  make: CommandFactory;
  /** The one example a bare `kubelet-sim` shows for this command (`$0` is the program). */
  example: string;
}

/** In the order `--help` lists them: the everyday commands first. */
export const COMMANDS: readonly CommandEntry[] = [
  { make: runCommand, example: "$0 run scenarios/default.yaml" },
  { make: replayCommand, example: "$0 replay run.json" },
  { make: listCommand, example: "$0 list" },
  { make: exploreCommand, example: "$0 explore scenarios/races/r05-pw-kill-pinning.yaml --runs 2000" },
  { make: diffCommand, example: "$0 diff scenarios/races/r05-pw-kill-pinning.yaml --kubelet-version 1.20 --vs 1.22" },
  { make: mergeCommand, example: "$0 merge shards/shard-1 shards/shard-2 shards/shard-3 shards/shard-4" },
  { make: validateCommand, example: "$0 validate my-scenario.yaml" },
  { make: conformanceCommand, example: "$0 conformance test/fixtures/oracle/*.yaml" },
  { make: actionsCommand, example: "$0 actions examples/actions/liveness-failed.yaml" },
  { make: serveCommand, example: "$0 serve scenarios/default.yaml --at 30s" },
  { make: playCommand, example: "$0 play r05" },
];

export const commands: readonly CommandFactory[] = COMMANDS.map((c) => c.make);
