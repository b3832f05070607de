// Guided's first run: a spread run (issue 22). Many races of a scenario are broken by ordinary
// draws, not by a boundary of the steps: a delete landing while a pull or a sandbox is still under
// way, a kill meeting a create. Whether two calls overlap depends on how long each takes, and the
// generic swarm keeps a call's configured latency half the time (swarm_auto.ts). The spread run
// gives every call its widest range instead, from a quarter of its fastest to 32 times its slowest
// (the boundary `[min/4, 32·max]`): each call of the run draws its own duration from that range, so
// the calls' relative lengths, and with them the orders of the operations that overlap, are as
// varied as the swarm allows, in a single run. The knobs the story is about (those with a near
// draw: the steps, the latencies the file writes) keep their ordinary draw, as the covering rows'
// "ordinary" class does; so do watch trouble and faults. Measured: docs/exploring.md, "The first
// run: a spread run (2026-11-29)".
//
// A pure function of the space and the run's seed, so run i is still a function of the plan and i.
import { drawKnobs, type KnobDef, type Knobs, type KnobSpace, type KnobValue } from "./knobs.ts";

/** A range knob's widest boundary (the one with the largest max - min), or null when none is a range. */
export function widestRange(def: KnobDef): KnobValue {
  let best: KnobValue = null;
  let width = -1;
  for (const v of def.boundaries ?? []) {
    if (!Array.isArray(v)) continue;
    const w = (v as readonly [number, number])[1] - (v as readonly [number, number])[0];
    if (w > width) {
      width = w;
      best = v;
    }
  }
  return best;
}

/** The spread run's knobs: the ordinary draw of `seed`, every range knob without a near draw at its widest range. */
export function drawSpreadKnobs(space: KnobSpace, seed: number): Knobs {
  const out: Record<string, KnobValue> = { ...drawKnobs(space, seed) };
  for (const def of space.defs) {
    if (def.near !== undefined) continue;
    const wide = widestRange(def);
    if (wide !== null) out[def.id] = wide;
  }
  return out;
}
