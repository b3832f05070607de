// docs/manifests.md shows what each controller gives its pod: the same words as the table in
// src/scenario/manifest/controllers.ts, the one place that says it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTROLLERS } from "../../src/scenario/manifest/controllers.ts";
import { codeNames } from "../../src/scenario/reference.ts";

const PAGE = readFileSync(join(import.meta.dirname, "..", "..", "docs", "manifests.md"), "utf8");

describe("docs/manifests.md", () => {
  it.each(CONTROLLERS.map((c) => [c.kind, c]))("says what %s gives its pod, as controllers.ts does", (_kind, c) => {
    expect(PAGE).toContain(`| ${c.kind} | \`${c.templatePath.join(".")}\` | ${codeNames(c.assumes)} |`);
  });
});
