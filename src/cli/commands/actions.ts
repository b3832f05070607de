// `kubelet-sim actions FILE`: what the kubelet's computePodActions decides for one pod snapshot, and why.
import type { ArgumentsCamelCase, Argv } from "yargs";
import { EXIT_OK, UserError } from "../exit.ts";
import type { CommandFactory } from "./index.ts";
import { packagePath } from "../package_files.ts";

interface Args {
  file: string;
  sidecars?: boolean;
}

export const actionsCommand: CommandFactory = (ctx) => ({
  command: "actions <file>",
  describe: "Print what the kubelet will do for one pod and its runtime status (computePodActions), one line per action",
  builder: (y: Argv) =>
    y
      .positional("file", { type: "string", describe: "a pod + runtime status snapshot in the vector schema (no `expected`)" })
      .option("sidecars", {
        type: "boolean",
        describe: "override the SidecarContainers feature gate (default: the file's featureGates, else on as in v1.29)",
      })
      .example("$0 actions examples/actions/liveness-failed.yaml", "a running container failed its liveness probe")
      .example("$0 actions --no-sidecars snapshot.yaml", "decide with the pre-sidecar init-container logic")
      .epilogue("Exit codes: 0 the decision was printed, 2 the file is not a valid snapshot."),
  handler: async (raw: ArgumentsCamelCase) => {
    const argv = raw as unknown as Args;
    // Loaded here, not at the top: the models are needed only when something runs (--help stays fast).
    const { explainSnapshot, loadActionsSnapshot, VectorFileError } = await import("../../conformance/index.ts");
    let loaded;
    try {
      loaded = loadActionsSnapshot(packagePath(argv.file));
    } catch (err) {
      if (err instanceof VectorFileError) throw new UserError(err.message);
      throw err;
    }
    const { snapshot } = loaded;
    if (argv.sidecars !== undefined) snapshot.deps.features = { ...snapshot.deps.features, SidecarContainers: argv.sidecars };
    const { lines } = explainSnapshot(snapshot);
    process.stdout.write(`${lines.join("\n")}\n`);
    ctx.exitCode = EXIT_OK;
  },
});
