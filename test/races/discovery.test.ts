// The discovery table's arithmetic (src/races/discovery.ts): medians and counts per strategy, the
// goal's two numbers, which moves made guided's finds, and one real cell.
import { describe, expect, it } from "vitest";
import { RACES } from "../../src/races/catalog.ts";
import { discoveryGoal, discoveryRows, discoveryTableMarkdown, guidedFinds, guidedFindsText, guidedMove, measureCell, type DiscoveryCell, type DiscoveryStrategy } from "../../src/races/discovery.ts";

const race = (id: string) => RACES.find((r) => r.id === id)!;
const cell = (id: string, strategy: DiscoveryStrategy, seed: number, runs: number | null, foundBy?: DiscoveryCell["foundBy"]): DiscoveryCell => ({
  race: id, strategy, seed, maxRuns: 100, runs, ms: 0, ...(foundBy === undefined ? {} : { foundBy }),
});

describe("guidedMove", () => {
  it.each([
    ["fresh", "fresh"],
    ["flip #12", "flip"],
    ["nudge step@4000", "knob"],
    ["draw latency.PullImage, nudge step@4000, reseeded", "knob"],
    ["keep step@4000, latency.PullImage", "keep"],
    ["splice #3 with run 8", "splice"],
    ["reseed", "reseed"],
  ])("%s is a %s move", (how, move) => {
    expect(guidedMove(how)).toBe(move);
  });

  it("refuses a move it does not know", () => {
    expect(() => guidedMove("teleport")).toThrow(/unknown move/);
  });
});

describe("discoveryRows and discoveryGoal", () => {
  const races = [race("R01"), race("R02")];
  const cells = [
    // R01: guided 2, 4, 6 (median 4) against pos 10, 20, 30 (median 20): at most half.
    cell("R01", "guided", 1, 2, "fresh"), cell("R01", "guided", 2, 4, "knob"), cell("R01", "guided", 3, 6, "flip"),
    cell("R01", "pos", 1, 10), cell("R01", "pos", 2, 20), cell("R01", "pos", 3, 30),
    cell("R01", "random", 1, 9), cell("R01", "random", 2, null), cell("R01", "random", 3, null),
    // R02: guided misses one seed, and its median 5 is more than half of random's 8.
    cell("R02", "guided", 1, 5, "fresh"), cell("R02", "guided", 2, null), cell("R02", "guided", 3, 3, "fresh"),
    cell("R02", "random", 1, 8), cell("R02", "random", 2, 8), cell("R02", "random", 3, 8),
    // Another maxRuns is another table.
    cell("R02", "pct", 1, 1), { ...cell("R02", "pct", 2, 1), maxRuns: 50 },
  ];
  const rows = discoveryRows(races, cells, 100);

  it("give each strategy's median, found count and seeds measured", () => {
    const r01 = Object.fromEntries(rows[0]!.cells.map((c) => [c.strategy, c]));
    expect(r01["guided"]).toEqual({ strategy: "guided", median: 4, found: 3, seeds: 3 });
    expect(r01["random"]).toEqual({ strategy: "random", median: null, found: 1, seeds: 3 });
    expect(r01["pct"]!.seeds).toBe(0);
    const r02 = Object.fromEntries(rows[1]!.cells.map((c) => [c.strategy, c]));
    expect(r02["guided"]).toEqual({ strategy: "guided", median: 5, found: 2, seeds: 3 });
    expect(r02["pct"]).toEqual({ strategy: "pct", median: 1, found: 1, seeds: 1 });
  });

  it("count the races guided found in every seed, and those where it needed at most half the best other's runs", () => {
    expect(discoveryGoal(rows)).toEqual({ guidedFoundAll: 1, guidedHalf: 1, races: 2 });
  });

  it("do not count a race where no other strategy was measured as guided's at half", () => {
    const only = discoveryRows([race("R03")], [cell("R03", "guided", 1, 2, "fresh")], 100);
    expect(discoveryGoal(only)).toEqual({ guidedFoundAll: 1, guidedHalf: 0, races: 1 });
    // One that was measured and found nothing in most seeds is slower than any count.
    const none = discoveryRows([race("R03")], [cell("R03", "guided", 1, 2, "fresh"), cell("R03", "pos", 1, null)], 100);
    expect(discoveryGoal(none).guidedHalf).toBe(1);
  });

  it("write the markdown rows", () => {
    const md = discoveryTableMarkdown(rows, 100).split("\n");
    expect(md[0]).toBe("| race | invariant | random | pct | pos | guided |");
    expect(md[2]).toBe(`| R01 | \`${race("R01").invariant}\` | > 100 (1/3) | not measured | 20 (3/3) | 4 (3/3) |`);
  });

  it("say which moves made guided's finds, or nothing when a find did not record it", () => {
    const finds = guidedFinds(cells, 100)!;
    expect(finds).toEqual({ fresh: 3, flip: 1, knob: 1, splice: 0, reseed: 0, keep: 0 });
    expect(guidedFindsText(finds)).toBe("3 of 5 by fresh runs (pos's seed of the same index, with covering-design or boundary-value knobs), the others by mutants (knob 1, flip 1)");
    expect(guidedFinds([...cells, cell("R02", "guided", 4, 7)], 100)).toBeNull();
  });
});

describe("measureCell", () => {
  it("explores a race under the generic swarm and says which guided move found it", () => {
    // R01 under its buggy kubelet, the delete landing during a slow pull or sandbox: found within a few runs.
    const c = measureCell(race("R01"), "guided", 1, 20, () => 0);
    expect(c).toMatchObject({ race: "R01", strategy: "guided", seed: 1, maxRuns: 20 });
    expect(c.runs).not.toBeNull();
    expect(["fresh", "flip", "knob", "splice", "reseed", "keep"]).toContain(c.foundBy);
    const pos = measureCell(race("R01"), "pos", 1, 20, () => 0);
    expect(pos.runs).not.toBeNull();
    expect(pos.foundBy).toBeUndefined();
  });
});
