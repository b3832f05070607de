// `kubelet-sim diff FILE [FILE2]`: two runs side by side, and where their traces first differ.
import type { ArgumentsCamelCase, Argv } from "yargs";
import { UserError } from "../exit.ts";
import { processIo } from "../io.ts";
import type { CommandFactory } from "./index.ts";
import { kubeletOverridesOf } from "./run.ts";
import { resolveScenarioArg } from "../scenario_arg.ts";

interface Args {
  file: string;
  file2?: string;
  kubeletVersion?: string;
  variant?: string[];
  vs?: string;
  vsVariant?: string[];
  format: string;
  out?: string;
}

export const diffCommand: CommandFactory = (ctx) => ({
  command: "diff <file> [file2]",
  describe: "Run a scenario under two kubelets (or replay two run records) and show where the traces part",
  builder: (y: Argv) =>
    y
      .positional("file", { type: "string", describe: "a scenario (YAML, or a bundled scenario's name: r05) or a run record (JSON: `run --record`, an `explore` repro file)" })
      .positional("file2", { type: "string", describe: "the other side: a scenario or run record (default: FILE again, with --vs)" })
      .option("kubelet-version", { type: "string", describe: "side A's kubelet, e.g. 1.21 (default: the scenario's)" })
      .option("variant", { type: "string", array: true, describe: "side A's model variants: NAME or NAME=false; repeatable" })
      .option("vs", { type: "string", describe: "side B's kubelet, e.g. 1.22" })
      .option("vs-variant", { type: "string", array: true, describe: "side B's model variants: NAME or NAME=false; repeatable" })
      .option("format", { alias: "f", choices: ["text", "html"], default: "text", describe: "text: the first difference; html: both runs on one time axis (and the text on stderr without --out)" })
      .option("out", { alias: "o", type: "string", describe: "write the HTML to FILE (atomically)" })
      .example("$0 diff scenarios/races/r05-pw-kill-pinning.yaml --kubelet-version 1.20 --vs 1.22", "where the 1.20 and 1.22 pod workers part")
      .example("$0 diff scenarios/races/r05-pw-kill-pinning.yaml --kubelet-version 1.20 --vs 1.22 --format html --out r05-diff.html", "both runs, one time axis")
      .example("$0 diff r01 --vs-variant cancelImagePullOnTermination", "side B with a model variant switched on (R01's proposed fix)")
      .example("$0 diff run.json run2.json", "two run records (or explore's repro files), each replayed with its own choices")
      .epilogue("Exit codes: 0 the traces are identical, 1 they differ, 2 usage or scenario error, 3 a record did not replay."),
  handler: async (raw: ArgumentsCamelCase) => {
    const argv = raw as unknown as Args;
    const leftFile = resolveScenarioArg(argv.file);
    const rightFile = argv.file2 === undefined ? leftFile : resolveScenarioArg(argv.file2);
    const left = { file: leftFile, named: argv.file, ...kubeletOverridesOf({ kubeletVersion: argv.kubeletVersion, variant: argv.variant }) };
    const right = { file: rightFile, named: argv.file2 ?? argv.file, ...kubeletOverridesOf({ kubeletVersion: argv.vs ?? (argv.file2 === undefined ? argv.kubeletVersion : undefined), variant: [...(argv.file2 === undefined ? argv.variant ?? [] : []), ...(argv.vsVariant ?? [])] }) };
    if (argv.file2 !== undefined && (argv.vs !== undefined || argv.vsVariant !== undefined)) throw new UserError("diff: --vs and --vs-variant are for one scenario run twice; with two files each side is what its file says");
    if (argv.out !== undefined && argv.format !== "html") throw new UserError("diff: --out writes the HTML view; add --format html");
    const { diffSemiSpace, executeDiff } = await import("../diff.ts");
    const request = { left, right, html: argv.format === "html", outFile: argv.out ?? null };
    // Two big runs go to a `node` with a larger young generation (young.ts), as `run`'s does.
    const mb = ctx.respawn === null || ctx.respawn === undefined ? null : diffSemiSpace(request);
    if (mb !== null && ctx.respawn) {
      ctx.exitCode = await ctx.respawn(mb);
      return;
    }
    ctx.exitCode = executeDiff(request, processIo());
  },
});
