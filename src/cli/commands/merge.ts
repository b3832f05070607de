// `kubelet-sim merge DIR...`: the shards of one exploration (`explore --shard i/n --out DIR`, on
// as many machines as there are shards) read together and summarized as the unsharded exploration
// would be: the same runs, the same first failure, the same repro. See docs/exploring.md.
import type { ArgumentsCamelCase, Argv } from "yargs";
import { humanSummary, jsonLine, mergeShards, MergeError, readShardFiles, type ExploreSummary } from "../../explore/index.ts";
import { EXIT_INTERNAL, EXIT_OK, EXIT_VIOLATION, UserError } from "../exit.ts";
import type { CommandFactory } from "./index.ts";

interface Args {
  dirs: string[];
  json: boolean;
}

export const mergeCommand: CommandFactory = (ctx) => ({
  command: "merge <dirs..>",
  describe: "Summarize the shards of an exploration (explore --shard i/n --out DIR) as one exploration",
  builder: (y: Argv) =>
    y
      .positional("dirs", { type: "string", array: true, describe: "the shards' --out folders (or their explore-shard-I-of-N.json files)" })
      .option("json", { type: "boolean", default: false, describe: "print one JSON line instead of the summary (as explore --json)" })
      .example("$0 merge out/1 out/2 out/3 out/4", "the four shards of a split, as one exploration")
      .example("$0 merge shards/*", "every shard folder a CI matrix or an Indexed Job left behind")
      .epilogue("Exit codes: 0 no failure, 1 a failure was found (its repro is in the shard that found it), 2 a missing, repeated or foreign shard, 3 nondeterminism (a bug in kubelet-sim)."),
  handler: (raw: ArgumentsCamelCase) => {
    const argv = raw as unknown as Args;
    let summary: ExploreSummary;
    try {
      summary = mergeShards(readShardFiles(argv.dirs));
    } catch (err) {
      if (err instanceof MergeError) throw new UserError(`merge: ${err.message}`);
      throw err;
    }
    process.stdout.write(argv.json ? `${JSON.stringify(jsonLine(summary))}\n` : humanSummary(summary));
    if (summary.determinism !== null && !summary.determinism.ok) ctx.exitCode = EXIT_INTERNAL;
    else ctx.exitCode = summary.failure === null ? EXIT_OK : EXIT_VIOLATION;
  },
});
