// From a scenario object (what a file says) to the scenario simulate() runs, through the schema:
// the same validation a file gets, with every problem reported at once.
import type { Scenario } from "../scenario/index.ts";
import { compileRawOrThrow } from "../explore/raw.ts";

/** Validates a plain scenario object and returns the scenario simulate() runs; throws ScenarioError listing every problem. */
export function scenarioFromObject(raw: Record<string, unknown>, fileName = "<generated scenario>"): Scenario {
  return compileRawOrThrow(raw, fileName);
}
