import { describe, expect, it } from "vitest";
import { Sim, recvCase, select, send } from "../../src/sim/index.ts";

describe("select under random is uniform over ready cases, as Go's", () => {
  it("chi-square over 8,000 selects with 4 ready cases stays below the 0.1% critical value", () => {
    const counts = [0, 0, 0, 0];
    const sim = new Sim({ seed: 2024, strategy: { name: "random" } });
    const chans = [0, 1, 2, 3].map((i) => sim.chan<number>(`c${i}`, 1));
    sim.go("selector", function* () {
      for (let t = 0; t < 8000; t++) {
        for (const c of chans) if (c.length === 0) yield* send(c, 1);
        const r = yield* select(chans.map((c) => recvCase(c)));
        counts[r.index]!++;
      }
    });
    expect(sim.run().verdict).toBe("completed");
    const expected = 8000 / 4;
    const chi2 = counts.reduce((acc, c) => acc + (c - expected) ** 2 / expected, 0);
    // df = 3: P(chi2 > 16.27) = 0.001 for a uniform choice.
    expect(chi2).toBeLessThan(16.27);
  });
});
