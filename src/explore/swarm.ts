// Swarm testing (as TigerBeetle's VOPR draws each run's fault settings from its seed): when a
// scenario declares `swarm` ranges, each run gets its own CRI latencies, faults, timeline jitter
// and apiserver latency, drawn from the run's seed within the declared ranges (this file); with
// `--swarm auto` (or `swarm: auto`) the knobs are derived from the scenario itself (swarm_auto.ts).
// Either way the knobs are a value (knobs.ts) applied to the compiled scenario for the run and to
// the raw one for a repro file, which then needs nothing but its scenario.
import type { Rng } from "../sim/rng.ts";
import { CRI_METHODS } from "../scenario/index.ts";
import type { Scenario } from "../scenario/index.ts";
import { applyKnobsRaw, drawKnobs, layoutOf, stepInstants, type KnobDef, type KnobSpace, type KnobValue } from "./knobs.ts";
import { autoKnobSpace } from "./swarm_auto.ts";
import type { RawScenario } from "./raw.ts";

/** Which knobs an exploration's runs draw: none, the file's `swarm` ranges, or the generic ones. */
export type SwarmMode = "none" | "declared" | "auto";

/** The knob space of a scenario under a swarm mode; null when its runs draw no knobs. */
export function knobSpaceFor(mode: SwarmMode, raw: RawScenario, scenario: Scenario): KnobSpace | null {
  if (mode === "none") return null;
  const layout = layoutOf(raw, scenario);
  if (mode === "auto") return autoKnobSpace(scenario, raw, layout);
  const defs = declaredKnobs(scenario, raw);
  return defs.length === 0 ? null : { kind: "declared", defs, layout };
}

/**
 * The file's ranges as knobs, in the order the draws have always been made (each CRI method in the
 * CRI's method order, each fault, each instant of the timeline in file order, the apiserver last),
 * so a seed draws the same knobs as before knobs were values.
 */
function declaredKnobs(scenario: Scenario, raw: RawScenario): KnobDef[] {
  const swarm = scenario.swarm;
  if (swarm === undefined || swarm.auto) return [];
  const defs: KnobDef[] = [];
  const between = (minMs: number, maxMs: number) => (rng: Rng): readonly [number, number] => {
    const a = rng.int(minMs, maxMs);
    return [a, rng.int(a, maxMs)];
  };
  // A declared range's boundaries: its ends, each alone or both.
  const ends = (minMs: number, maxMs: number): KnobValue[] => [[minMs, minMs], [maxMs, maxMs], [minMs, maxMs]];
  for (const method of CRI_METHODS) {
    const bounds = swarm.latency[method];
    if (bounds !== undefined) defs.push({ id: `latency.${method}`, target: { kind: "latency", method }, draw: between(bounds.minMs, bounds.maxMs), boundaries: ends(bounds.minMs, bounds.maxMs) });
  }
  swarm.faults.forEach((f, index) => defs.push({ id: `fault.${index}`, target: { kind: "fault", index }, draw: (rng) => rng.below(100) < f.percent }));
  if (swarm.jitterMs > 0) {
    // One draw per instant, in file order: steps written at one instant are one action of the
    // story (a delete and the create that replaces the pod) and move together.
    for (const atMs of stepInstants(raw)) {
      const maxMs = Math.max(0, Math.min(swarm.jitterMs, scenario.untilMs - 1 - atMs));
      defs.push({ id: `step@${atMs}`, target: { kind: "step", atMs }, draw: (rng) => rng.int(0, maxMs), boundaries: maxMs > 0 ? [maxMs] : [] });
    }
  }
  const api = swarm.apiserverLatency;
  if (api !== undefined) defs.push({ id: "apiserver.latency", target: { kind: "apiserver" }, draw: between(api.minMs, api.maxMs), boundaries: ends(api.minMs, api.maxMs) });
  return defs;
}

/** The run's raw scenario: `base` with knobs drawn from `seed` within its declared `swarm` ranges. */
export function applySwarm(base: RawScenario, scenario: Scenario, seed: number): RawScenario {
  const space = knobSpaceFor("declared", base, scenario);
  if (space === null) {
    const out = { ...base };
    delete out["swarm"];
    return out;
  }
  return applyKnobsRaw(base, space, drawKnobs(space, seed));
}
