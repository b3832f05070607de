// compileScenarioValue: a scenario in value form (an exploration's swarm draw, a shrink candidate)
// compiles to what its JSON text compiles to, without changing the value, and refuses what the
// text path refuses (compileRaw then asks the text path, whose issues users see).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileScenarioValue } from "../../src/scenario/check_source.ts";
import { checkScenarioText } from "../../src/scenario/index.ts";
import { compileRaw, compileRawOrThrow, readRawScenario, type RawScenario } from "../../src/explore/raw.ts";
import { applySwarm } from "../../src/explore/swarm.ts";

const ROOT = join(import.meta.dirname, "..", "..");

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return name.endsWith(".yaml") ? [path] : [];
  });
}

/** Every object reachable from v, for checking that nothing of it was frozen. */
function anyFrozen(v: unknown): boolean {
  return typeof v === "object" && v !== null && (Object.isFrozen(v) || Object.values(v).some(anyFrozen));
}

const viaText = (raw: RawScenario, file: string) => {
  const r = checkScenarioText(JSON.stringify(raw), file);
  return r.ok ? r.scenario : null;
};

describe("compileScenarioValue", () => {
  const files = yamlFiles(join(ROOT, "scenarios"));

  it("compiles every bundled scenario, and three swarm draws of each that has a swarm, as its JSON text does", () => {
    let variants = 0;
    for (const file of files) {
      const { raw, scenario } = readRawScenario(file);
      for (const v of [raw, ...(scenario.swarm === undefined ? [] : [1, 2, 3].map((seed) => applySwarm(raw, scenario, seed)))]) {
        const before = JSON.stringify(v);
        const compiled = compileScenarioValue(v, file);
        expect(compiled, file).not.toBeNull();
        expect(compiled, file).toStrictEqual(viaText(v, file));
        // Read, never changed: exploration writes these values into repro files afterwards.
        expect(JSON.stringify(v), file).toBe(before);
        expect(anyFrozen(v), file).toBe(false);
        variants++;
      }
    }
    expect(files.length).toBeGreaterThan(50);
    expect(variants).toBeGreaterThan(files.length);
  });

  it("refuses what the text path refuses; compileRaw then gives null and compileRawOrThrow the text path's issues", () => {
    const { raw } = readRawScenario(join(ROOT, "scenarios/default.yaml"));
    const bad: RawScenario[] = [
      { ...raw, until: "soon" },
      { ...raw, pods: "web" },
      { ...raw, unknownField: 1 },
      { ...raw, timeline: [{ at: "1s", create: "nobody" }] },
    ];
    for (const v of bad) {
      expect(compileScenarioValue(v, "bad.yaml")).toBeNull();
      expect(compileRaw(v, "bad.yaml")).toBeNull();
      const text = checkScenarioText(JSON.stringify(v), "bad.yaml");
      expect(text.ok).toBe(false);
      expect(() => compileRawOrThrow(v, "bad.yaml")).toThrow(text.ok ? "" : text.issues[0]!.message);
    }
  });

  it("a key whose value is undefined, which JSON leaves out, compiles as the text did", () => {
    const { raw } = readRawScenario(join(ROOT, "scenarios/default.yaml"));
    const v = { ...raw, seed: undefined };
    expect(compileRawOrThrow(v, "u.yaml")).toStrictEqual(viaText(v, "u.yaml"));
  });
});
