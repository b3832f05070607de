// Scenarios as plain objects: the YAML value before the schema parses it. Exploration edits this
// form (swarm draws, shrinking), because it is what a scenario file says and what a repro file
// must write back; every edit is validated by the schema again before it runs.
import { checkScenarioText, loadScenarioFile, ScenarioError, type Scenario } from "../scenario/index.ts";
import { readSource } from "../scenario/source.ts";
import { parseYaml } from "../scenario/yaml.ts";

/** A scenario as the YAML value (durations as strings, pods by name). */
export type RawScenario = Record<string, unknown>;

/** A scenario file's raw value and its parsed form; a file that does not load throws the loader's ScenarioError. */
export function readRawScenario(path: string): { raw: RawScenario; scenario: Scenario } {
  const { scenario } = loadScenarioFile(path); // throws every problem, located in the file
  const source = readSource(path);
  const yaml = source.ok ? parseYaml(source.text, path) : null;
  if (yaml === null || !yaml.ok) throw new Error(`${path}: changed while it was read`);
  return { raw: yaml.value, scenario };
}

/** Validates a raw scenario through the schema; null when it is not a valid scenario. */
export function compileRaw(raw: RawScenario, fileName = "<scenario>"): Scenario | null {
  const r = checkScenarioText(JSON.stringify(raw), fileName);
  return r.ok ? r.scenario : null;
}

/** Like compileRaw, but a scenario that does not validate throws the schema's errors. */
export function compileRawOrThrow(raw: RawScenario, fileName = "<scenario>"): Scenario {
  const r = checkScenarioText(JSON.stringify(raw), fileName);
  if (!r.ok) throw new ScenarioError(r.issues);
  return r.scenario;
}

export function cloneRaw(raw: RawScenario): RawScenario {
  return structuredClone(raw);
}

/** The raw value's list under `key` (a copy), or [] when absent. */
export function rawList(raw: RawScenario, key: string): unknown[] {
  const v = raw[key];
  return Array.isArray(v) ? [...v] : [];
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Adds `never: <id>` for every invariant the scenario's expectations do not name yet, so the
 * Checker monitors them and a violation fails the run like any expectation. Invariants the
 * scenario already names (for instance `eventually: <id>`, a race that must show) are left as
 * written.
 */
export function withInvariantExpectations(raw: RawScenario, scenario: Scenario, ids: readonly string[]): RawScenario {
  const named = new Set(scenario.expect.flatMap((e) => (e.condition.invariant === undefined ? [] : [e.condition.invariant])));
  const extra = ids.filter((id) => !named.has(id)).map((id) => ({ never: { invariant: id } }));
  if (extra.length === 0) return raw;
  return { ...raw, expect: [...rawList(raw, "expect"), ...extra] };
}
