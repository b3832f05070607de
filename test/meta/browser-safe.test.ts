// The layers that issue 12 bundles for a browser (play mode's page) must not import Node's built-ins (ARCHITECTURE.md,
// "Browser-safe layers"): host crypto, files and threads stay in cli/, explore/ and bench/. The
// exceptions are the scenario layer's file loading: scenario/source.ts, scenario/read_file.ts (which
// reads only a regular file, within a cap), and scenario/manifest/read.ts (a pod's manifestFile
// beside the scenario).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const LAYERS = ["sim", "k8s", "apiserver", "cri", "kubelet", "node", "scheduler", "controllers", "scenario", "check", "report", "play", "record"];
const EXEMPT = new Set(["src/scenario/source.ts", "src/scenario/read_file.ts", "src/scenario/manifest/read.ts"]);
const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith("_")));

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)) out.push(m[1]!);
  return out;
}

export function nodeImports(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const rel = relative(ROOT, file).replaceAll("\\", "/");
    if (EXEMPT.has(rel)) return [];
    return specifiers(readFileSync(file, "utf8"))
      .filter((s) => s.startsWith("node:") || BUILTINS.has(s.split("/")[0]!))
      .map((s) => `${rel}: ${s}`);
  });
}

describe("browser-safe layers", () => {
  it("import no Node built-in (the scenario layer's file loading excepted)", () => {
    expect(nodeImports(LAYERS.flatMap((l) => tsFiles(join(ROOT, "src", l))))).toEqual([]);
  });

  it("the scan sees both spellings of a built-in", () => {
    expect(specifiers(`import { createHash } from "node:crypto";\nimport x from 'fs';\nexport { y } from "./y.ts";`)).toEqual(["node:crypto", "fs", "./y.ts"]);
  });
});

describe("the play page's bundle (src/play/client/: the kernel, the models, the controls)", () => {
  it("takes its sources only from the browser-safe layers and npm packages, none of them a file loader", () => {
    const require = createRequire(import.meta.url);
    const { buildSync } = require("esbuild") as typeof import("esbuild");
    const { CLIENT_BUILD_OPTIONS } = require(join(ROOT, "scripts", "html_client_options.cjs")) as { CLIENT_BUILD_OPTIONS: import("esbuild").BuildOptions };
    const built = buildSync({ ...CLIENT_BUILD_OPTIONS, absWorkingDir: ROOT, entryPoints: [join(ROOT, "src", "play", "client", "main.ts")], metafile: true });
    const sources = Object.keys(built.metafile!.inputs);
    const outside = sources.filter((f) => f.startsWith("src/") && !LAYERS.some((l) => f.startsWith(`src/${l}/`)) && !["src/simulate.ts", "src/version.ts"].includes(f));
    expect(outside).toEqual([]);
    expect(sources.filter((f) => EXEMPT.has(f))).toEqual([]);
    const imports = Object.values(built.metafile!.inputs).flatMap((i) => i.imports.map((x) => x.path));
    expect(imports.filter((p) => p.startsWith("node:") || BUILTINS.has(p))).toEqual([]);
  });
});
