// The examples in docs/scenarios.md are scenarios people will copy: each must validate as written.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkScenarioText, formatIssue } from "../../src/scenario/index.ts";

const GUIDE = readFileSync(join(import.meta.dirname, "..", "..", "docs", "scenarios.md"), "utf8");
const examples = [...GUIDE.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe("docs/scenarios.md", () => {
  it("has examples", () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });

  it.each(examples.map((text, i) => [i + 1, text] as const))("example %i validates", (i, text) => {
    const result = checkScenarioText(text, `example-${i}.yaml`);
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([]);
  });
});
