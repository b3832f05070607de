// The package's own files, found from wherever kubelet-sim runs. The help and the docs name them
// as paths of a clone (`examples/manifests/job.yaml`, `test/fixtures/oracle/*.yaml`); where the
// package is installed (node_modules/kubelet-sim) those paths do not exist in the user's folder,
// so a path that is not there but names one of the folders the package ships is read from the
// package instead. A file of the user's always wins.
import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, isAbsolute, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The package's root: the clone, or node_modules/kubelet-sim (this file is in src/cli, dist/cli or dist/bundle). */
export const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The folders of its own that the package ships (package.json "files"), as a user's path names them. */
export const SHIPPED_FOLDERS: readonly string[] = ["scenarios", "examples", "docs", "test/fixtures/oracle", "test/fixtures/oracle2"];

/** The path to read for what the user typed: as typed when it exists, else the package's own file or folder of that name. */
export function packagePath(arg: string): string {
  if (existsSync(arg)) return arg;
  const shipped = shippedRelative(arg);
  if (shipped === null) return arg;
  const inPackage = join(PACKAGE_ROOT, shipped);
  return existsSync(inPackage) ? inPackage : arg;
}

/** `examples/x.yaml` (also `./examples/x.yaml`) relative to the package when it names a shipped folder, else null. */
function shippedRelative(arg: string): string | null {
  if (arg === "" || isAbsolute(arg)) return null;
  const rel = normalize(arg).replace(/\\/g, "/").replace(/\/$/, "");
  if (rel.startsWith("..")) return null;
  return SHIPPED_FOLDERS.some((d) => rel === d || rel.startsWith(`${d}/`)) ? rel : null;
}

/**
 * Arguments as files to read: each through packagePath, and a `*` pattern the shell left as it
 * was (nothing matched in the user's folder, or no shell expands globs) expanded among the
 * package's files, in name order. A pattern that matches nothing stays, for the command to report.
 */
export function expandPackageArgs(args: readonly string[]): string[] {
  return args.flatMap((arg) => {
    if (!basename(arg).includes("*") || existsSync(arg)) return [packagePath(arg)];
    const dir = packagePath(dirname(arg));
    if (!existsSync(dir)) return [arg];
    const pattern = new RegExp(`^${basename(arg).split("*").map(escapeRegExp).join(".*")}$`);
    const hits = readdirSync(dir).filter((name) => pattern.test(name)).sort().map((name) => join(dir, name));
    return hits.length > 0 ? hits : [arg];
  });
}

const escapeRegExp = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/**
 * How to name one of the package's docs to the user: `docs/cli.md` in the clone's root, else its
 * path from here (`node_modules/kubelet-sim/docs/cli.md` in a project that installed it).
 */
export function docPath(page: string, cwd = process.cwd()): string {
  const rel = relative(cwd, join(PACKAGE_ROOT, "docs", page)).replace(/\\/g, "/");
  return rel.startsWith("..") || isAbsolute(rel) ? join(PACKAGE_ROOT, "docs", page) : rel;
}
