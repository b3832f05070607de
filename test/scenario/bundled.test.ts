// Every bundled scenario must validate, explain itself, and expect something.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/scenario/index.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const SCENARIOS = join(ROOT, "scenarios");
function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return yamlFiles(p);
      return /\.ya?ml$/.test(name) ? [p] : [];
    });
}

const files = yamlFiles(SCENARIOS).map((f) => relative(ROOT, f));

describe("bundled scenarios", () => {
  it("include the default and the twelve basics", () => {
    expect(files).toContain("scenarios/default.yaml");
    expect(files.filter((f) => f.startsWith("scenarios/basics/"))).toHaveLength(12);
  });

  it.each(files)("%s validates, with a description and expectations", (file) => {
    const { scenario, warnings } = loadScenarioFile(join(ROOT, file));
    expect(warnings).toEqual([]);
    expect(scenario.description.length).toBeGreaterThan(100);
    expect(scenario.expect.length).toBeGreaterThan(0);
    expect(scenario.timeline.length).toBeGreaterThan(0);
  });

  it("have unique names", () => {
    const names = files.map((f) => loadScenarioFile(join(ROOT, f)).scenario.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
