// Every path a --help example names exists in the repository (placeholders like x.yaml, run.json
// and my.yaml are what the user substitutes, and are allowed by name).
import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { commandDocs, helpText, ROOT } from "../../scripts/cli_doc.ts";

const PLACEHOLDERS = new Set(["x.yaml", "my.yaml", "my-scenario.yaml", "run.json", "run2.json", "trace.jsonl", "snapshot.yaml", "my-scenarios", "../old/x.yaml", "repros"]);

describe("--help examples", () => {
  it.each(commandDocs().map((d) => d.name))("of %s name only files that exist", (name) => {
    const examples = helpText(name).split("Examples:")[1] ?? "";
    const paths = [...examples.matchAll(/(?:^|\s)([\w./-]+\.(?:ya?ml|json|jsonl))\b/g)].map((m) => m[1]!);
    const missing = paths.filter((p) => !PLACEHOLDERS.has(p) && !existsSync(join(ROOT, p.replace("*", ""))) && !p.includes("*"));
    expect(missing).toEqual([]);
  });
});
