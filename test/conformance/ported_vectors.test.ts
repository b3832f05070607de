// Upstream test cases beyond the public oracle sample, in the oracle's own schema, run by the same runner.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml, stringify } from "yaml";
import { parseVectorFile, runVectorFile } from "../../src/conformance/index.ts";

const doc = parseYaml(readFileSync(join(import.meta.dirname, "ported_vectors.yaml"), "utf8")) as Record<string, unknown>;

for (const [section, file] of Object.entries(doc)) {
  const loaded = parseVectorFile(`ported_vectors.yaml#${section}`, stringify(file));
  describe(`${section} (${loaded.kind})`, () => {
    it.each(runVectorFile(loaded).results.map((r) => [r.name, r] as const))("%s", (_name, r) => {
      expect(r.diffs).toEqual([]);
    });
  });
}
