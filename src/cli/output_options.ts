// The output flags `run` and `replay` share: formats, filters, --out and --explain.
import type { Argv } from "yargs";
import { FORMATS, type Format } from "../report/index.ts";
import { UserError } from "./exit.ts";
import type { OutputRequest } from "./session.ts";

export const DEFAULT_FORMATS: readonly Format[] = ["text", "events"];
const VERBOSITIES = ["brief", "normal", "all"] as const;

export interface OutputArgs {
  format?: Format[];
  pod?: string;
  out?: string;
  verbosity: (typeof VERBOSITIES)[number];
  component?: string[];
  maxMessages?: number;
  explain: boolean;
  json: boolean;
}

/** Repeated and comma-separated values as one list: `--format text --format events,pods`. */
function list(value: unknown): string[] {
  return [value]
    .flat()
    .flatMap((v) => String(v).split(","))
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

function formats(value: unknown): Format[] {
  const out = list(value);
  for (const f of out) {
    if (!(FORMATS as readonly string[]).includes(f)) throw new UserError(`--format ${f}: expected one of ${FORMATS.join(", ")}`);
  }
  return out as Format[];
}

export function withOutputOptions(y: Argv): Argv {
  return y
    .option("format", {
      alias: "f",
      type: "string",
      coerce: formats,
      describe: `what to print, in order; repeat or comma-separate (${FORMATS.join(", ")}) [default: text, events]`,
    })
    .option("pod", { type: "string", describe: "only this pod (`name` or `namespace/name`)" })
    .option("out", { alias: "o", type: "string", describe: "write the outputs to FILE (atomically: a temp file, then rename)" })
    .option("verbosity", { choices: VERBOSITIES, default: "normal" as const, describe: "text: how many steps the timeline shows" })
    .option("component", { type: "string", coerce: list, describe: "text: only these lanes, e.g. podworker,pleg" })
    .option("max-messages", { type: "number", describe: "mermaid: the most arrows and notes drawn (default 150)" })
    .option("explain", { type: "boolean", default: false, describe: "say before each output how to read it" })
    .option("json", {
      type: "boolean",
      default: false,
      describe: "print the result as one JSON object (verdict, expectations with what was seen) instead of the outputs and summary",
    });
}

export function outputRequest(args: OutputArgs): OutputRequest {
  const maxMessages = args.maxMessages;
  if (maxMessages !== undefined && !(Number.isInteger(maxMessages) && maxMessages > 0)) {
    throw new UserError(`--max-messages ${String(maxMessages)}: expected a whole number above 0`);
  }
  const fmts = args.format === undefined || args.format.length === 0 ? DEFAULT_FORMATS : args.format;
  return {
    formats: fmts,
    render: {
      ...(args.pod === undefined ? {} : { pod: args.pod }),
      ...(args.component === undefined ? {} : { components: args.component }),
      verbosity: args.verbosity,
      ...(maxMessages === undefined ? {} : { maxMessages }),
    },
    outFile: args.out ?? null,
    explain: args.explain,
    json: args.json === true,
  };
}
