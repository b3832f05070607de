// Directed feedback (src/explore/guided_distance.ts, guided_island.ts): a run that came closer to
// breaking a watched invariant than any before it joins the corpus even with no new coverage, and
// is the entry worked on next; without the distance it would not be.
import { describe, expect, it } from "vitest";
import { Island } from "../../src/explore/guided_island.ts";
import { ChoiceLog } from "../../src/sim/choices.ts";
import type { Genome } from "../../src/explore/guided.ts";

const genome = (seed: number): Genome => ({ seed, knobs: null, tape: null, how: "fresh", parent: null });
const INV = "container-start-after-pod-deleted";

function island(): Island {
  const isl = new Island(0, null);
  isl.learn(0, genome(0), ChoiceLog.from([]), new Set(["a"]), new Map([[INV, 400]]));
  while (isl.focused() !== null); // run 0 came closer than nothing: its burst is spent
  return isl;
}

describe("guided directed feedback", () => {
  it("a run closer to breaking the invariant, with no new feature, joins the corpus and is focused next", () => {
    const isl = island();
    const r = isl.learn(1, genome(1), ChoiceLog.from([]), new Set(["a"]), new Map([[INV, 50]]));
    expect(r).toEqual({ fresh: [], closer: true });
    expect(isl.corpus.map((e) => e.index)).toEqual([0, 1]);
    expect(isl.focused()?.index).toBe(1);
    expect(isl.isClosest(isl.corpus[1]!)).toBe(true);
    expect(isl.isClosest(isl.corpus[0]!)).toBe(false);
  });

  it("a run no closer, and one with no distance, change nothing", () => {
    const isl = island();
    expect(isl.learn(1, genome(1), ChoiceLog.from([]), new Set(["a"]), new Map([[INV, 400]]))).toEqual({ fresh: [], closer: false });
    expect(isl.learn(2, genome(2), ChoiceLog.from([]), new Set(["a"]))).toEqual({ fresh: [], closer: false });
    expect(isl.corpus.map((e) => e.index)).toEqual([0]);
    expect(isl.focused()).toBeNull();
  });
});
