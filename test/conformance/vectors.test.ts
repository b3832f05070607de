// Every public oracle vector, one `it` each, run from the copies under test/fixtures/oracle.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadVectorFile, runVectorFile } from "../../src/conformance/index.ts";

const DIR = join(import.meta.dirname, "..", "fixtures", "oracle");
const FILES = ["compute_pod_actions.yaml", "backoff.yaml", "prober_worker.yaml"];

for (const name of FILES) {
  const file = loadVectorFile(join(DIR, name));
  const results = runVectorFile(file).results;
  describe(`${name} (${file.kind})`, () => {
    it("holds vectors", () => {
      expect(results.length).toBeGreaterThan(0);
    });
    it.each(results.map((r) => [`#${r.index} ${r.name}`, r] as const))("%s", (_label, r) => {
      expect(r.diffs).toEqual([]);
      expect(r.passed).toBe(true);
    });
  });
}
