// (b) A TypeScript consumer under strict and exactOptionalPropertyTypes, with no special flags:
// every exported type it touches must come with the package.
import { checkScenarioText, simulate, render, explore, INVARIANTS, scenarioArb, type Scenario, type SimulationResult, type LocatedIssue, type ExploreReport, type Format } from "kubelet-sim";
import { Sim, Chan, sleep, type TraceRecord } from "kubelet-sim/sim";

export function runText(text: string): SimulationResult | readonly LocatedIssue[] {
  const checked = checkScenarioText(text, "inline.yaml");
  if (!checked.ok) return checked.issues;
  const scenario: Scenario = checked.scenario;
  return simulate(scenario, { seed: 7, untilMs: 30_000 });
}

export function timeline(result: SimulationResult, format: Format = "text"): string {
  const records: readonly TraceRecord[] = result.records ?? [];
  return render(format, records, { verbosity: "brief" });
}

export async function hunt(file: string): Promise<ExploreReport> {
  return explore({ source: { file }, runs: 10, strategy: "pct", outDir: null });
}

export const invariantIds: string[] = INVARIANTS.map((i) => i.id);
export const arb = scenarioArb({ pods: { min: 1, max: 1 } });
export const kernel = { Sim, Chan, sleep };
