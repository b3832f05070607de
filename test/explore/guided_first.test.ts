// Guided's spread run (src/explore/guided_first.ts): every range knob without a near draw at its
// widest range, the knobs with a near draw (the steps, the written latencies) and the others at
// their ordinary draw; a function of the run's seed.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileRawOrThrow, drawKnobs, knobSpaceFor, readRawScenario, type KnobDef, type KnobSpace } from "../../src/explore/index.ts";
import { drawSpreadKnobs, widestRange } from "../../src/explore/guided_first.ts";
import { ROOT } from "../cli/golden_table.ts";

function space(file: string): KnobSpace {
  const { raw } = readRawScenario(join(ROOT, file));
  const plain = (({ swarm: _s, ...rest }) => rest)(raw);
  return knobSpaceFor("auto", plain, compileRawOrThrow(plain, file))!;
}

const def = (boundaries: KnobDef["boundaries"]): KnobDef => ({ id: "k", target: { kind: "apiserver" }, draw: () => null, ...(boundaries === undefined ? {} : { boundaries }) });

describe("widestRange", () => {
  it.each([
    // boundaries, the widest range among them
    [[[25, 25], [25, 8000]], [25, 8000]],
    [[[0, 5000], [5000, 5000]], [0, 5000]],
    [[[10, 40], [0, 20], [5, 50]], [5, 50]],
    [[-999, 4000, 5000], null],
    [[], null],
    [undefined, null],
  ] as const)("%j: %j", (boundaries, widest) => {
    expect(widestRange(def(boundaries as KnobDef["boundaries"]))).toEqual(widest);
  });
});

describe("drawSpreadKnobs", () => {
  it.each(["scenarios/races/hunt/r01-hunt.yaml", "scenarios/races/hunt/r05-hunt.yaml", "scenarios/races/hunt/r11-hunt.yaml"])("%s: ranges at their widest, the story's knobs ordinary", (file) => {
    const s = space(file);
    const k = drawSpreadKnobs(s, 11);
    const ordinary = drawKnobs(s, 11);
    expect(k).toEqual(drawSpreadKnobs(s, 11));
    let spread = 0;
    for (const d of s.defs) {
      const wide = widestRange(d);
      if (d.near === undefined && wide !== null) {
        expect(k[d.id]).toEqual(wide);
        spread++;
      } else expect(k[d.id]).toEqual(ordinary[d.id]);
    }
    expect(spread).toBeGreaterThan(0);
  });
});
