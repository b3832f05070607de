// The registry of commands; one file per command in this folder.
import type { CommandModule } from "yargs";
import type { CommandContext } from "../main.ts";
import { actionsCommand } from "./actions.ts";
import { conformanceCommand } from "./conformance.ts";
import { exploreCommand } from "./explore.ts";
import { validateCommand } from "./validate.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandFactory = (ctx: CommandContext) => CommandModule<any, any>;

export const commands: CommandFactory[] = [conformanceCommand, actionsCommand, validateCommand, exploreCommand];
