// The guided strategy's boundary-value knob draws (src/explore/guided_knobs.ts, the boundaries in
// swarm_auto.ts and swarm.ts): which values are boundaries, how often a knob takes one, and that
// the draw is a function of the run's seed alone.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileRawOrThrow, drawKnobs, knobSpaceFor, readRawScenario, type KnobSpace } from "../../src/explore/index.ts";
import { BOUNDARY_ONE_IN, drawBoundaryKnobs } from "../../src/explore/guided_knobs.ts";
import { stepBoundaries } from "../../src/explore/swarm_auto.ts";
import { ROOT } from "../cli/golden_table.ts";

function space(file: string, mode: "auto" | "declared"): KnobSpace {
  const { raw, scenario } = readRawScenario(join(ROOT, file));
  const plain = mode === "auto" ? (({ swarm: _s, ...rest }) => rest)(raw) : raw;
  return knobSpaceFor(mode, plain, mode === "auto" ? compileRawOrThrow(plain, file) : scenario)!;
}

describe("boundary values", () => {
  it.each([
    // atMs, span, other instants: as early as allowed, as late as allowed, and 1ms before, at, 1ms after each other instant in reach
    [10_000, 1000, [10_000], [-9999, 1000]],
    [10_000, 1000, [10_000, 10_500], [-9999, 499, 500, 501, 1000]],
    [10_000, 1000, [5_000, 10_000], [-9999, -5001, -5000, -4999, 1000]],
    // out of reach: 20s is past the span, 0s is before the earliest
    [10_000, 1000, [0, 10_000, 20_000], [-9999, 1000]],
    // a step at 1ms cannot move earlier; the shift that keeps it (0) is no boundary
    [1, 1000, [1, 2], [1, 2, 1000]],
  ] as const)("step at %ims, span %ims, instants %j: %j", (atMs, spanMs, instants, expected) => {
    expect(stepBoundaries(atMs, spanMs, instants)).toEqual(expected);
  });

  it("a generic latency's boundaries: pinned at its scaled range's fast end (1/4 of min), or spread to its slow end (32 times max)", () => {
    const s = space("scenarios/races/hunt/r20-hunt.yaml", "auto");
    const { scenario } = readRawScenario(join(ROOT, "scenarios/races/hunt/r20-hunt.yaml"));
    const latencies = s.defs.filter((d) => d.target.kind === "latency");
    expect(latencies.length).toBeGreaterThan(0);
    for (const def of latencies) {
      const t = def.target as { kind: "latency"; method: keyof typeof scenario.runtime.latency };
      const c = scenario.runtime.latency[t.method];
      const lo = Math.round(c.minMs / 4);
      const hi = Math.round(c.maxMs * 32);
      expect(def.boundaries, def.id).toEqual([[lo, lo], [lo, hi]]);
    }
  });

  it("a declared range's boundaries are its ends; a declared step's, its full jitter", () => {
    const s = space("scenarios/races/hunt/r20-hunt.yaml", "declared");
    for (const def of s.defs) {
      if (def.target.kind === "fault") expect(def.boundaries, def.id).toBeUndefined();
      else expect(def.boundaries!.length, def.id).toBeGreaterThan(0);
    }
  });
});

describe("drawBoundaryKnobs", () => {
  const s = space("scenarios/races/hunt/r20-hunt.yaml", "auto");

  it("is a function of the seed", () => {
    expect(drawBoundaryKnobs(s, 7)).toEqual(drawBoundaryKnobs(s, 7));
    expect(drawBoundaryKnobs(s, 7)).not.toEqual(drawBoundaryKnobs(s, 8));
  });

  it(`keeps each knob's ordinary draw or takes one of its boundaries, about 1 time in ${BOUNDARY_ONE_IN}`, () => {
    let withBoundaries = 0;
    let taken = 0;
    for (let seed = 0; seed < 300; seed++) {
      const ordinary = drawKnobs(s, seed);
      const drawn = drawBoundaryKnobs(s, seed);
      for (const def of s.defs) {
        const v = drawn[def.id];
        if (def.boundaries === undefined || def.boundaries.length === 0) {
          expect(v, def.id).toEqual(ordinary[def.id]);
          continue;
        }
        withBoundaries++;
        const isBoundary = def.boundaries.some((b) => JSON.stringify(b) === JSON.stringify(v));
        if (JSON.stringify(v) !== JSON.stringify(ordinary[def.id])) {
          expect(isBoundary, `${def.id} seed ${seed}: ${JSON.stringify(v)}`).toBe(true);
          taken++;
        }
      }
    }
    const share = taken / withBoundaries;
    expect(share).toBeGreaterThan(1 / BOUNDARY_ONE_IN - 0.06);
    expect(share).toBeLessThan(1 / BOUNDARY_ONE_IN + 0.03);
  });
});
