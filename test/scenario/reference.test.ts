// docs/scenario-reference.md is generated from the schema; it must never drift from it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateReference } from "../../src/scenario/reference.ts";
import { generateInvariantsPage } from "../../src/check/invariants_doc.ts";

const PAGE = join(import.meta.dirname, "..", "..", "docs", "scenario-reference.md");

describe("docs/scenario-reference.md", () => {
  const generated = generateReference();

  it("is up to date with the schema (run `npm run docs:reference` after changing it)", () => {
    expect(readFileSync(PAGE, "utf8")).toBe(generated);
  });

  it("documents every top-level field and shows upstream defaults", () => {
    for (const field of ["name", "seed", "until", "kubelet", "runtime", "pods", "timeline", "expect", "strategy", "swarm"]) {
      expect(generated).toContain(`| \`${field}\` |`);
    }
    expect(generated).toContain("| `syncFrequency` | duration | `1m` |");
    expect(generated).toContain("| `maxPods` | integer | `110` |");
    expect(generated).toContain("| `plegRelistPeriod` | duration | `1s` |");
  });

  it("describes every field", () => {
    const rows = generated.split("\n").filter((l) => /^\| `[^`]+` \|/.test(l));
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows) {
      const description = row.split(" | ").at(-1)!.replace(/ \|$/, "").trim();
      expect(description, row).not.toBe("");
    }
  });

  it("links only to anchors it defines", () => {
    const anchors = new Set([...generated.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));
    for (const [, target] of generated.matchAll(/\]\(#([^)]+)\)/g)) expect(anchors.has(target), target).toBe(true);
  });
});

describe("docs/invariants.md", () => {
  it("is up to date with the invariant registry (run `npm run docs:reference` after changing it)", () => {
    const page = join(import.meta.dirname, "..", "..", "docs", "invariants.md");
    expect(readFileSync(page, "utf8")).toBe(generateInvariantsPage());
  });
});
