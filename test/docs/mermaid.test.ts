// The Mermaid diagrams in the docs come from real runs: each equals a fresh render of the command
// written above it, and that render is what `kubelet-sim run ... --format mermaid --out` writes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runRequest } from "../../src/cli/commands/run.ts";
import { executeRun } from "../../src/cli/session.ts";
import { inProcess, tempDir } from "../cli/helpers.ts";
import { DIAGRAM_DOCS, docDiagrams, freshDiagram, readDoc } from "./mermaid_doc.ts";

const UPDATE = "node --import tsx scripts/update-golden.ts";

describe.each(DIAGRAM_DOCS)("%s", (doc) => {
  const diagrams = docDiagrams(readDoc(doc));

  it("embeds at least one generated diagram", () => {
    expect(diagrams.length).toBeGreaterThan(0);
  });

  it.each(diagrams.map((d) => [d.file, d] as const))("its diagram of %s equals a fresh run", (_file, d) => {
    const fresh = freshDiagram(d.file, d.maxMessages);
    expect(fresh.startsWith("sequenceDiagram\n")).toBe(true);
    expect(d.block, `${doc}: the diagram of ${d.file} is out of date; run ${UPDATE} and commit the doc`).toBe(fresh);
  });

  it.each(diagrams.map((d) => [d.file, d] as const))("its diagram of %s is what the CLI writes with --out", (_file, d) => {
    const out = join(tempDir(), "diagram.mmd");
    const args = { file: d.file, format: ["mermaid"], out, verbosity: "normal", explain: false, maxMessages: d.maxMessages };
    const r = inProcess((io) => executeRun(runRequest(args as Parameters<typeof runRequest>[0]), io).exitCode);
    expect(r.code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(freshDiagram(d.file, d.maxMessages));
  });
});
