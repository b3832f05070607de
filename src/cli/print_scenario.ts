// `run FILE --print-scenario` and `validate --print-scenario`: the scenario as YAML on stdout, the
// one kubelet-sim built around a manifest file included, for the user to save and edit.
import { ScenarioError, formatIssueList } from "../scenario/index.ts";
import { scenarioYaml } from "../scenario/manifest/print.ts";
import { loadScenarioWithOverrides, type KubeletOverrides } from "../scenario/overrides.ts";
import { EXIT_OK, EXIT_USAGE } from "./exit.ts";
import type { CliIo } from "./io.ts";
import { loadNotices } from "./session.ts";

/** `file` as the user named it; `readFrom` where it is (a bundled scenario, or a file the package ships). */
export function printScenario(file: string, kubelet: KubeletOverrides | undefined, io: CliIo, readFrom = file): number {
  try {
    const loaded = loadScenarioWithOverrides(readFrom, kubelet);
    for (const n of loadNotices(loaded, file)) io.stderr.write(`${n}\n`);
    io.stdout.write(scenarioYaml(loaded, file));
    return EXIT_OK;
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    io.stderr.write(`${formatIssueList(err.issues).join("\n")}\n`);
    io.stderr.write(`kubelet-sim: ${file} has ${err.issues.length} error${err.issues.length === 1 ? "" : "s"}; nothing was printed\n`);
    return EXIT_USAGE;
  }
}
