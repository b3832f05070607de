// How a command finds the scenario a user named. A path that exists is taken as it is; otherwise a
// name of a bundled scenario is looked up in the package's own scenarios/ folder, so that
// `npx kubelet-sim run basics/01-pod-starts` or `kubelet-sim run r05` works from any folder, also
// where kubelet-sim is installed from npm and scenarios/ is not beside the user's files.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { packagePath } from "./package_files.ts";

/** The scenarios that ship with kubelet-sim, wherever it is installed. */
export const BUNDLED_SCENARIOS_DIR = fileURLToPath(new URL("../../scenarios", import.meta.url));

const RACE_ID = /^r(\d{2})$/i;

/** The file to read for what the user typed: the path itself, else the bundled scenario of that name. */
export function resolveScenarioArg(arg: string): string {
  if (isFile(arg)) return arg;
  // examples/manifests/job.yaml from a project that installed the package: the package's own file.
  const own = packagePath(arg);
  if (own !== arg && isFile(own)) return own;
  return bundledScenario(arg) ?? arg;
}

/**
 * A bundled scenario by name: `default`, `basics/01-pod-starts`, `scenarios/races/r05-....yaml`,
 * or a race id (`r05`); null when there is none of that name.
 */
export function bundledScenario(name: string): string | null {
  const rel = name.replace(/\\/g, "/").replace(/^(\.\/)?scenarios\//, "");
  if (rel.includes("..")) return null;
  for (const candidate of [rel, `${rel}.yaml`, `${rel}.yml`]) {
    const path = join(BUNDLED_SCENARIOS_DIR, candidate);
    if (isFile(path)) return path;
  }
  const race = RACE_ID.exec(rel);
  if (race === null) return null;
  const dir = join(BUNDLED_SCENARIOS_DIR, "races");
  if (!existsSync(dir)) return null;
  const prefix = `r${race[1]}-`;
  const hit = readdirSync(dir)
    .filter((f) => f.toLowerCase().startsWith(prefix) && /\.ya?ml$/.test(f))
    // The race's own scenario, not a variant of it (r05-x.yaml before r05-x-hunt.yaml).
    .sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return hit.length === 0 ? null : join(dir, hit[0]!);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
