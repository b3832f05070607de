// Scenarios as plain objects: the YAML value before the schema parses it. Exploration edits this
// form (swarm draws, shrinking), because it is what a scenario file says and what a repro file
// must write back; every edit is validated by the schema again before it runs.
import { checkScenarioText, loadScenarioFile, ScenarioError, type Scenario } from "../scenario/index.ts";
import { compileScenarioValue } from "../scenario/check_source.ts";

/** A scenario as the YAML value (durations as strings, pods by name). */
export type RawScenario = Record<string, unknown>;

/** A scenario file's raw value and its parsed form; a file that does not load throws the loader's ScenarioError. */
export function readRawScenario(path: string): { raw: RawScenario; scenario: Scenario } {
  // Throws every problem, located in the file. The raw value is self-contained: a manifest file's
  // built scenario, or a scenario with its manifestFile pods read in, so repro files stand alone.
  const { scenario, raw } = loadScenarioFile(path);
  return { raw, scenario };
}

/**
 * Validates a raw scenario through the schema; null when it is not a valid scenario. The value is
 * compiled as it is (compileScenarioValue); only one it refuses goes through its JSON text, whose
 * checks decide (and place the issues) exactly as they always did.
 */
export function compileRaw(raw: RawScenario, fileName = "<scenario>"): Scenario | null {
  const compiled = compileScenarioValue(raw, fileName);
  if (compiled !== null) return compiled;
  const r = checkScenarioText(JSON.stringify(raw), fileName);
  return r.ok ? r.scenario : null;
}

/** Like compileRaw, but a scenario that does not validate throws the schema's errors. */
export function compileRawOrThrow(raw: RawScenario, fileName = "<scenario>"): Scenario {
  const compiled = compileScenarioValue(raw, fileName);
  if (compiled !== null) return compiled;
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
