// Loads a scenario file, or a plain Kubernetes manifest file around which a scenario is built:
// the file is read safely (source.ts), the manifests it names are read beside it, and the text
// goes through check.ts, which reports every problem at once as `file:line:col: path: message`.
import { unwrapResult, type CheckResult, type LoadOptions, type LoadResult } from "./check.ts";
import { checkSource } from "./check_source.ts";
import { manifestReader } from "./manifest/read.ts";
import { readSource } from "./source.ts";

export { checkScenarioText, loadScenarioText, type CheckResult, type IgnoredFieldWarning, type LoadOptions, type LoadResult } from "./check.ts";

/** Loads and validates a scenario (or manifest) file; throws ScenarioError listing every problem. */
export function loadScenarioFile(path: string, opts: LoadOptions = {}): LoadResult {
  return unwrapResult(checkScenarioFile(path, opts));
}

/** Like loadScenarioFile, but returns the problems instead of throwing. */
export function checkScenarioFile(path: string, opts: LoadOptions = {}): CheckResult {
  return checkSource(readSource(path), path, manifestReader(path), opts);
}
