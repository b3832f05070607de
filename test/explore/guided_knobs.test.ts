// The guided strategy's boundary-value knob draws (src/explore/guided_knobs.ts, the boundaries in
// swarm_auto.ts and swarm.ts): which values are boundaries, how often a knob takes one, and that
// the draw is a function of the run's seed alone.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileRawOrThrow, drawKnobs, knobSpaceFor, readRawScenario, type KnobSpace } from "../../src/explore/index.ts";
import { BOUNDARY_ONE_IN, NEAR_ONE_IN, drawBoundaryKnobs } from "../../src/explore/guided_knobs.ts";
import { loopPeriods, nearShift, stepBoundaries, windowSpans } from "../../src/explore/swarm_auto.ts";
import { Rng } from "../../src/sim/rng.ts";
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

describe("windows and fault edges as meeting points", () => {
  it.each([
    // timeline (raw steps), the windows its steps after 0s open
    [[{ at: "0s", create: "a" }, { at: "70s", partition: { for: "40s" } }], [{ atMs: 70_000, forMs: 40_000 }]],
    [[{ at: "0s", partition: { for: "5s" } }], []],
    [[{ at: "2s", watchDelay: { for: "3s", delay: { min: "1ms", max: "2ms" } } }, { at: "9s", watchDrop: { for: "1500ms" } }], [{ atMs: 2000, forMs: 3000 }, { atMs: 9000, forMs: 1500 }]],
    [[{ at: "4s", rebootNode: { downtime: "10s" } }, { at: "5s", evict: { pod: "a", gracePeriodSeconds: 0 } }], []],
  ] as const)("timeline %j opens %j", (timeline, expected) => {
    expect(windowSpans({ timeline: timeline as unknown as unknown[] })).toEqual(expected);
  });

  it.each([
    // hunt form, step, the boundaries it gains: the end of another step's window, a fault window's edges
    ["scenarios/races/hunt/r18-hunt.yaml", "step@82000", [27_999, 28_000, 28_001]],
    ["scenarios/races/hunt/r18-hunt.yaml", "step@80000", [29_999, 30_000, 30_001]],
    ["scenarios/races/hunt/r24-hunt.yaml", "step@10000", [3999, 4000, 4001, 5999, 6000, 6001]],
  ] as const)("%s: %s meets %j", (file, id, gained) => {
    const def = space(file, "auto").defs.find((d) => d.id === id)!;
    for (const by of gained) expect(def.boundaries, `${by}`).toContain(by);
  });

  it("a partition's own end is no meeting point of its own step", () => {
    const def = space("scenarios/races/hunt/r18-hunt.yaml", "auto").defs.find((d) => d.id === "step@70000")!;
    expect(def.boundaries).toEqual([-69_999, 9999, 10_000, 10_001, 11_999, 12_000, 12_001, 45_000]);
  });

  it("a step lands near the end of another step's window, as the run's knobs move that step", () => {
    // r18-hunt: the partition at 70s for 40s. Moved 10s later, the restart's near draws cluster at
    // 120s, the partition's end, as often as at the exit (80s).
    const restart = space("scenarios/races/hunt/r18-hunt.yaml", "auto").defs.find((d) => d.id === "step@82000")!;
    const rng = new Rng("test-near", "7");
    let byEnd = 0;
    for (let i = 0; i < 800; i++) {
      const to = 82_000 + (restart.near!(rng, { "step@70000": 10_000 }) as number);
      if (Math.abs(to - 120_000) <= 1000 && to !== 127_000) byEnd++;
    }
    // Four anchors (0s, 80s, 80s, 120s: the partition at 80s too), a gap of 1s or less a third of a
    // log-uniform 1ms..45s: about 1 in 12 within 1s of 120s; uniform over the reach, 1 in 60.
    expect(byEnd / 800).toBeGreaterThan(0.05);
  });
});

describe("drawBoundaryKnobs", () => {
  const s = space("scenarios/races/hunt/r20-hunt.yaml", "auto");

  it("is a function of the seed", () => {
    expect(drawBoundaryKnobs(s, 7)).toEqual(drawBoundaryKnobs(s, 7));
    expect(drawBoundaryKnobs(s, 7)).not.toEqual(drawBoundaryKnobs(s, 8));
  });

  it(`keeps each knob's ordinary draw or takes one of its boundaries (a step: or its near draw, 1 time in ${NEAR_ONE_IN}), about 1 time in ${BOUNDARY_ONE_IN}`, () => {
    let withBoundaries = 0;
    let taken = 0;
    let steps = 0;
    let near = 0;
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
        const step = def.target.kind === "step" ? def.target.atMs : null;
        if (step !== null) steps++;
        if (JSON.stringify(v) !== JSON.stringify(ordinary[def.id])) {
          taken++;
          if (isBoundary) continue;
          // Not a boundary: a step's near draw, within the step's reach and never 0.
          expect(step, `${def.id} seed ${seed}: ${JSON.stringify(v)}`).not.toBeNull();
          expect(typeof v).toBe("number");
          expect(v as number).not.toBe(0);
          expect(step! + (v as number)).toBeGreaterThanOrEqual(1);
          near++;
        }
      }
    }
    const share = taken / withBoundaries;
    expect(share).toBeGreaterThan(1 / BOUNDARY_ONE_IN - 0.06);
    expect(share).toBeLessThan(1 / BOUNDARY_ONE_IN + 0.03);
    // A near draw may land on a boundary by chance, so its count is at most its share.
    const nearShare = near / steps;
    expect(nearShare).toBeGreaterThan(1 / BOUNDARY_ONE_IN / NEAR_ONE_IN - 0.06);
    expect(nearShare).toBeLessThan(1 / BOUNDARY_ONE_IN / NEAR_ONE_IN + 0.03);
  });
});

describe("near draws", () => {
  it.each([
    // atMs, span, anchors: the step lands a gap of 1ms to the span before or after an anchor, within its reach
    [10_000, 1000, [0]],
    [10_000, 1000, [10_500]],
    [10_000, 5000, [0, 12_000, 14_000]],
    [3, 1000, [2]],
  ] as const)("step at %ims, span %ims, anchors %j: lands near an anchor, within reach, never unmoved", (atMs, spanMs, anchors) => {
    const rng = new Rng("test-near", "11");
    for (let i = 0; i < 500; i++) {
      const by = nearShift(rng, atMs, spanMs, anchors);
      expect(by).not.toBe(0);
      expect(by).toBeGreaterThanOrEqual(-(atMs - 1));
      expect(by).toBeLessThanOrEqual(spanMs);
      const to = atMs + by;
      // Clipped to the reach, or a gap of 1ms to the span from some anchor (after, for the anchor 0s).
      const clipped = by === -(atMs - 1) || by === spanMs || by === 1;
      const fromAnchor = anchors.some((a) => { const gap = Math.abs(to - a); return gap >= 1 && gap <= spanMs && (a > 0 || to > a); });
      expect(clipped || fromAnchor, `${by}`).toBe(true);
    }
  });

  it("a step lands near another step's instant as the run's knobs move it, and near a fault window's edges", () => {
    // r24-hunt: a force-delete at 10s, faults from 14s to 16s; one step, so its anchors are 0s and the edges.
    const s = space("scenarios/races/hunt/r24-hunt.yaml", "auto");
    const def = s.defs.find((d) => d.target.kind === "step")!;
    const rng = new Rng("test-near", "3");
    let byEdge = 0;
    for (let i = 0; i < 400; i++) {
      const to = 10_000 + (def.near!(rng, {}) as number);
      if (Math.abs(to - 14_000) <= 200 || Math.abs(to - 16_000) <= 200) byEdge++;
    }
    // Uniform over a 15s reach, 800ms of it is 5%; near the edges, far more.
    expect(byEdge / 400).toBeGreaterThan(0.15);
    // r18-hunt: the partition at 70s, the exit at 80s, the restart at 82s. Move the exit to 120s:
    // the restart's near draws now cluster around 120s, not 80s.
    const r18 = space("scenarios/races/hunt/r18-hunt.yaml", "auto");
    const restart = r18.defs.find((d) => d.id === "step@82000")!;
    const moved = { "step@80000": 40_000 };
    let by120 = 0;
    let by80 = 0;
    for (let i = 0; i < 600; i++) {
      const to = 82_000 + (restart.near!(rng, moved) as number);
      if (Math.abs(to - 120_000) <= 500) by120++;
      if (Math.abs(to - 80_000) <= 500) by80++;
    }
    expect(by120).toBeGreaterThan(3 * Math.max(1, by80));
  });
});

describe("a latency's near draw", () => {
  it("pins every call near one of the kubelet's loop periods, within the scaled range, for a latency the file writes; none for a default one", () => {
    // r07-hunt writes StartContainer 20ms and PullImage 1s; the other calls keep the simulator's defaults.
    const file = "scenarios/races/hunt/r07-hunt.yaml";
    const s = space(file, "auto");
    const { raw } = readRawScenario(join(ROOT, file));
    const periods = loopPeriods(compileRawOrThrow(raw, file));
    expect(periods).toContain(1000);
    const start = s.defs.find((d) => d.id === "latency.StartContainer")!;
    const pull = s.defs.find((d) => d.id === "latency.PullImage")!;
    const rng = new Rng("test-near", "5");
    const seen = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const v = start.near!(rng, {}) as [number, number];
      expect(v[0]).toBe(v[1]);
      // Scaled range of 20ms: 5ms to 640ms; every loop period is longer, so the slow end.
      expect(v[0]).toBe(640);
      const p = pull.near!(rng, {}) as [number, number];
      expect(p[0]).toBe(p[1]);
      expect(p[0]).toBeGreaterThanOrEqual(250);
      expect(p[0]).toBeLessThanOrEqual(32_000);
      // Within a factor 2^(1/2) of some period, or clipped at an end of the scaled range.
      expect(p[0] === 32_000 || periods.some((q) => p[0] >= q / Math.SQRT2 - 1 && p[0] <= q * Math.SQRT2 + 1), `${p[0]}`).toBe(true);
      seen.add(p[0]);
    }
    expect(seen.size).toBeGreaterThan(5);
    for (const def of s.defs) {
      if (def.target.kind === "latency" && def.id !== "latency.StartContainer" && def.id !== "latency.PullImage") expect(def.near, def.id).toBeUndefined();
      if (def.target.kind === "apiserver") expect(def.near, def.id).toBeUndefined();
    }
  });
});
