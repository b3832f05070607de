// Every race of the catalog: the buggy kubelet breaks the invariant at the scenario's seed, the
// fixed one does not, and the docs page's diagrams are fresh renders of those two runs.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RACES, raceScenario } from "../../src/races/catalog.ts";
import { loadScenarioWithOverrides, parseFeatureGateFlags, parseVariantFlags, type KubeletOverrides } from "../../src/scenario/overrides.ts";
import { screenshotPath, withFreshDiagrams } from "../../src/races/diagrams.ts";
import { simulate } from "../../src/simulate.ts";

const ROOT = join(import.meta.dirname, "..", "..");

describe.each(RACES.map((r) => [r.id, r] as const))("race %s", (_id, race) => {
  it(`breaks ${race.invariant} under the buggy kubelet (${race.buggy.label})`, () => {
    const r = simulate(raceScenario(race, "buggy"));
    expect(r.checks.violations.map((v) => v.invariant)).toContain(race.invariant);
  });

  it(`holds ${race.invariant} under the fixed kubelet (${race.fixed.label})`, () => {
    const r = simulate(raceScenario(race, "fixed"));
    expect(r.checks.violations.filter((v) => v.invariant === race.invariant)).toEqual([]);
  });

  it("has a docs page whose diagrams are current (node --import tsx scripts/update-race-docs.ts)", () => {
    const page = readFileSync(join(ROOT, "docs", "races", `${race.id.toLowerCase()}.md`), "utf8");
    expect(withFreshDiagrams(page, race)).toBe(page);
  });

  it("has the picture of the HTML view its page shows (node --import tsx scripts/update-screenshots.ts)", () => {
    const png = readFileSync(join(ROOT, "docs", "races", screenshotPath(race)));
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  });

  it("shows the commands that run both sides; its fixed-side flags run the fixed kubelet", () => {
    const page = readFileSync(join(ROOT, "docs", "races", `${race.id.toLowerCase()}.md`), "utf8");
    const lines = page.slice(page.indexOf("## Try it")).split("\n");
    const prefix = `kubelet-sim run ${race.file} --format text`;
    const runs = lines.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length).split("#")[0]!.trim());
    expect(runs[0], "the first command runs the file as it is: the buggy side").toBe("");
    const flags = overridesOf(runs[1] ?? "");
    const viaFlags = loadScenarioWithOverrides(join(ROOT, race.file), flags).scenario.kubelet;
    const fixed = raceScenario(race, "fixed").kubelet;
    expect({ version: viaFlags.version, variants: on(viaFlags.variants), gates: on(viaFlags.featureGates) }).toEqual({
      version: fixed.version, variants: on(fixed.variants), gates: on(fixed.featureGates),
    });
  });
});

/** "--kubelet-version 1.22 --variant x=false --feature-gate G=true" as overrides. */
function overridesOf(text: string): KubeletOverrides {
  const words = text.split(/\s+/).filter((w) => w !== "");
  const o: KubeletOverrides = {};
  const variants: string[] = [];
  const gates: string[] = [];
  for (let i = 0; i < words.length; i += 2) {
    if (words[i] === "--kubelet-version") o.version = words[i + 1]!;
    else if (words[i] === "--variant") variants.push(words[i + 1]!);
    else if (words[i] === "--feature-gate") gates.push(words[i + 1]!);
    else throw new Error(`unexpected word ${words[i]} in the page's command`);
  }
  return {
    ...o,
    ...(variants.length === 0 ? {} : { variants: parseVariantFlags(variants) }),
    ...(gates.length === 0 ? {} : { featureGates: parseFeatureGateFlags(gates) }),
  };
}

/** The variants switched on (off and absent read alike). */
const on = (v: Readonly<Record<string, boolean | undefined>>) => Object.keys(v).filter((k) => v[k] === true).sort();
