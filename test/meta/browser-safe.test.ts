// The layers that issue 12 bundles for a browser must not import Node's built-ins (ARCHITECTURE.md,
// "Browser-safe layers"): host crypto, files and threads stay in cli/, explore/ and bench/. The
// exceptions are the scenario layer's file loading: scenario/source.ts, and
// scenario/manifest/read.ts (a pod's manifestFile beside the scenario).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const LAYERS = ["sim", "k8s", "apiserver", "cri", "kubelet", "node", "scenario", "check", "report"];
const EXEMPT = new Set(["src/scenario/source.ts", "src/scenario/manifest/read.ts"]);
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
