// A code block in the docs marked `<!-- file: PATH -->` shows that file of the repository as it is,
// so an example users copy is the one a test runs.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const MARK = /<!-- file: (\S+) -->\n```\w*\n([\s\S]*?)```\n/g;

const pages = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md"));
const blocks = pages.flatMap((page) => [...readFileSync(join(ROOT, "docs", page), "utf8").matchAll(MARK)].map((m) => ({ page, file: m[1]!, body: m[2]! })));

describe("files shown in the docs", () => {
  it("are found (docs/library.md shows the consumer's script)", () => {
    expect(blocks.map((b) => `${b.page}:${b.file}`)).toContain("library.md:test/package/consumer/run-scenario.mjs");
  });
  it.each(blocks)("docs/$page shows $file as it is", ({ file, body }) => {
    expect(body).toBe(readFileSync(join(ROOT, file), "utf8"));
  });
});
