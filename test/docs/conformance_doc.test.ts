// The counts the conformance pages state are what the runner reports on the files they name.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runVectorFiles, summarize } from "../../src/conformance/index.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const line = (paths: string[]) => {
  const s = summarize(runVectorFiles(paths.map((p) => join(ROOT, p))));
  return `${s.passed} passed, ${s.failed} failed, ${s.partial} partial, ${s.error} error`;
};

describe("the conformance counts the docs state", () => {
  it("docs/conformance.md: the public sets", () => {
    const said = /`(\d+ passed, \d+ failed, \d+ partial, \d+ error)` on the public sets/.exec(readFileSync(join(ROOT, "docs", "conformance.md"), "utf8"))![1];
    expect(line(["test/fixtures/oracle", "test/fixtures/oracle2"])).toBe(said);
  });

  it("docs/kuberuntime.md: the oracle set", () => {
    const said = /conformance test\/fixtures\/oracle\/\*\.yaml +# "([^"]+)"/.exec(readFileSync(join(ROOT, "docs", "kuberuntime.md"), "utf8"))![1];
    expect(line(["test/fixtures/oracle"])).toBe(said);
  });
});
