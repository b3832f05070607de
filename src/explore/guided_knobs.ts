// The guided strategy's knob draws: boundary values. A fresh guided run (and the knobs a kept-knob
// run draws afresh) starts from the ordinary draw of its seed (knobs.ts, drawKnobs), then each knob
// that has boundary values takes one of them, uniformly, with probability 1 in BOUNDARY_ONE_IN:
// a latency pinned at the fast end of its range or spread over the whole range, a timeline step
// as early or as late as it may go, or just before, at or just after another step's instant; or,
// for a step, one time in NEAR_ONE_IN of those, a near draw instead: a log-uniform gap (1ms to the
// step's reach) before or after another instant of the run (0s, another step where this run's
// knobs put it, an edge of a runtime fault window), so two actions of the story land apart by a
// span of any scale, a call's latency or a controller's delay, not only 1ms apart; for a latency
// the scenario writes itself, the near draw pins every call near one of the kubelet's loop periods
// (swarm_auto.ts), so a loop's tick lands inside the call.
// Why: a race is two timings meeting (a delete landing while a container is being created, a
// relist taking longer than a probe's period), and the ends of a range and the points where two
// timings cross are where an order flips; uniform draws spend most runs in the middle of a range.
// This is boundary-value analysis (Myers, "The Art of Software Testing") applied to swarm
// testing's per-run configurations (Groce et al., ISSTA 2012). Measured: docs/exploring.md,
// "Discovery: the races with nobody pointing at them".
//
// Pure function of the seed, from its own stream: run i stays a function of the plan and i, and
// a genome carries its knobs anyway, so a failing run replays from its record.
import { Rng, streamSeed } from "../sim/rng.ts";
import { drawKnobs, type Knobs, type KnobSpace, type KnobValue } from "./knobs.ts";

/**
 * Each knob with boundary values takes one with probability 1 in this. Measured against 1 in 2 and
 * 1 in 6, and against step knobs and range knobs at different rates (docs/exploring.md).
 */
export const BOUNDARY_ONE_IN = 3;

/** The stream of the boundary choices, apart from the ordinary draw's (explore-swarm). */
export const BOUNDARY_STREAM = "explore-boundary";
/** The stream of the near draws (KnobDef.near), apart from the boundary choices'. */
export const NEAR_STREAM = "explore-near";
/** A knob with a near draw (a step; a latency the file writes) that takes a boundary takes the near draw instead 1 time in this. */
export const NEAR_ONE_IN = 2;

/** A run's knobs: the ordinary draw of `seed`, each knob moved to a boundary 1 time in BOUNDARY_ONE_IN. */
export function drawBoundaryKnobs(space: KnobSpace, seed: number): Knobs {
  const out: Record<string, KnobValue> = { ...drawKnobs(space, seed) };
  const rng = new Rng(BOUNDARY_STREAM, streamSeed(seed, BOUNDARY_STREAM));
  const near = new Rng(NEAR_STREAM, streamSeed(seed, NEAR_STREAM));
  for (const def of space.defs) {
    const at = def.boundaries;
    if (at === undefined || at.length === 0) continue;
    // Two draws for every knob with boundaries, whether taken or not, so one knob's choice does
    // not shift the next knob's.
    const take = rng.below(BOUNDARY_ONE_IN) === 0;
    const which = rng.below(at.length);
    if (!take) continue;
    if (def.near !== undefined && near.below(NEAR_ONE_IN) === 0) out[def.id] = def.near(near, out);
    else out[def.id] = at[which]!;
  }
  return out;
}
