// Every malformed scenario under test/fixtures/scenarios/bad/ states, in trailing `# expect:`
// comments, the exact lines the loader must report: `file:line:col: path: message`, all of them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkScenarioText, formatIssue, loadScenarioFile, ScenarioError } from "../../src/scenario/index.ts";

const DIR = join(import.meta.dirname, "..", "fixtures", "scenarios", "bad");
const files = readdirSync(DIR).filter((f) => f.endsWith(".yaml")).sort();

function expectedLines(text: string): string[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("# expect: "))
    .map((l) => l.slice("# expect: ".length));
}

describe("malformed scenario files", () => {
  it("has at least 30 of them", () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  it.each(files)("%s reports exactly its expected errors", (file) => {
    const text = readFileSync(join(DIR, file), "utf8");
    const expected = expectedLines(text);
    expect(expected.length).toBeGreaterThan(0);
    const result = checkScenarioText(text, file);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map(formatIssue)).toEqual(expected);
  });

  it("throws a ScenarioError carrying every issue, prefixed with the path it was given", () => {
    const path = join(DIR, "many-errors-at-once.yaml");
    let caught: unknown;
    try {
      loadScenarioFile(path);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ScenarioError);
    const err = caught as ScenarioError;
    expect(err.issues.length).toBe(7);
    expect(err.message.split("\n")).toHaveLength(7);
    for (const line of err.message.split("\n")) expect(line.startsWith(`${path}:`)).toBe(true);
    expect(err.message).not.toMatch(/\n\s+at /);
  });
});
