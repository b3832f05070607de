// docs/testing.md's "What the generated scenarios find today" is what a run of its own setup finds:
// the setup the page states is the one scripts/generated_findings.ts runs, and the invariants the
// page lists, with their counts, are exactly those that fire.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOCS_SETUP, generatedFindings } from "../../scripts/generated_findings.ts";

const PAGE = join(import.meta.dirname, "..", "..", "docs", "testing.md");

describe("docs/testing.md: what the generated scenarios find today", () => {
  const text = readFileSync(PAGE, "utf8");
  const section = text.slice(text.indexOf("## What the generated scenarios find today"));

  it("states the setup the script runs", () => {
    const flat = section.replace(/\s+/g, " ");
    const arb = DOCS_SETUP.arb;
    expect(flat).toContain(`Over ${DOCS_SETUP.scenarios} scenarios drawn from \`scenarioArb({ pods: { min: ${arb.pods!.min}, max: ${arb.pods!.max} }, untilMs: ${arb.untilMs!.toLocaleString("en").replace(",", "_")} })\``);
    expect(flat).toContain(`fast-check seed ${DOCS_SETUP.seed}`);
    expect(flat).toContain(`each run under ${DOCS_SETUP.schedules} schedules`);
  });

  it("lists exactly the invariants that fire, each with its count", () => {
    const found = generatedFindings(DOCS_SETUP);
    const listed = [...section.matchAll(/`([a-z][a-z0-9-]+)`\s+\((\d+) of (\d+)/g)].map((m) => [m[1]!, Number(m[2])] as const);
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries([...found].map(([id, s]) => [id, s.length])));
    for (const [, , of] of section.matchAll(/`[a-z][a-z0-9-]+`\s+\((\d+) of (\d+)/g)) expect(Number(of)).toBe(DOCS_SETUP.scenarios);
  });
});
