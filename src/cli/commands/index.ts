// The registry of commands; one file per command in this folder.
import type { CommandModule } from "yargs";
import type { CommandContext } from "../main.ts";
import { actionsCommand } from "./actions.ts";
import { conformanceCommand } from "./conformance.ts";
import { exploreCommand } from "./explore.ts";
import { listCommand } from "./list.ts";
import { replayCommand } from "./replay.ts";
import { runCommand } from "./run.ts";
import { validateCommand } from "./validate.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandFactory = (ctx: CommandContext) => CommandModule<any, any>;

/** In the order `--help` lists them: the everyday commands first. */
export const commands: CommandFactory[] = [runCommand, replayCommand, listCommand, exploreCommand, validateCommand, conformanceCommand, actionsCommand];
