import { describe, expect, it } from "vitest";
import { Sim, point, type StrategySpec } from "../../src/sim/index.ts";

/**
 * A planted ordering bug of depth 2 among 5 processes. A opens a window late in its run
 * (x = 1 at its step 40, x = 0 at step 45); B reads x in its first step. The bug needs two
 * orderings: A's step 40 before B's read, and B's read before A's step 45. Under fifo it never
 * happens; under random it needs B starved for ~40 steps; PCT finds it with one change point.
 */
function plantedBug(seed: number, strategy: StrategySpec): { hit: boolean; steps: number } {
  const sim = new Sim({ seed, strategy, hash: false });
  let x = 0;
  let hit = false;
  sim.go("A", function* () {
    for (let i = 0; i < 50; i++) {
      if (i === 40) x = 1;
      if (i === 45) x = 0;
      yield* point();
    }
  });
  sim.go("B", function* () {
    if (x === 1) hit = true;
    yield* point();
  });
  for (const name of ["C", "D", "E"]) {
    sim.go(name, function* () {
      for (let i = 0; i < 10; i++) yield* point();
    });
  }
  const r = sim.run();
  expect(r.verdict).toBe("completed");
  return { hit, steps: r.choices.length };
}

describe("pct finds a depth-2 bug as its bound promises, and more often than random", () => {
  it("planted ordering bug among 5 processes", () => {
    const n = 5;
    const d = 2;
    const k = plantedBug(0, { name: "fifo" }).steps; // scheduling steps of the run, measured under fifo
    expect(plantedBug(0, { name: "fifo" }).hit).toBe(false);
    const runs = 2000;
    let pctHits = 0;
    let randomHits = 0;
    for (let seed = 1; seed <= runs; seed++) {
      if (plantedBug(seed, { name: "pct", depth: d, steps: k }).hit) pctHits++;
      if (plantedBug(seed, { name: "random" }).hit) randomHits++;
    }
    const bound = 1 / (n * k ** (d - 1));
    const pctRate = pctHits / runs;
    const randomRate = randomHits / runs;
    console.info(
      `planted depth-2 bug, n=${n}, k=${k}: pct ${pctRate.toFixed(4)} (${pctHits}/${runs}), ` +
        `random ${randomRate.toFixed(4)} (${randomHits}/${runs}), PCT bound ${bound.toFixed(4)}`,
    );
    expect(pctRate).toBeGreaterThanOrEqual(bound);
    expect(pctRate).toBeGreaterThan(randomRate);
  });
});
