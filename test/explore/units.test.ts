// The small parts of exploration: run seeds, shards, delta debugging, swarm draws, the determinism report.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { applySwarm, checkDeterminism, ddmin, failureHashSampled, FAILURE_HASH_EVERY, makePlan, makeRunner, parseShard, readRawScenario, reproduceRun, RunContext, runSeed, shardIndices } from "../../src/explore/index.ts";
import { loadScenarioText } from "../../src/scenario/index.ts";
import { ChoiceLog, parseDuration } from "../../src/sim/index.ts";

describe("run seeds", () => {
  it("are a function of (seed, index): the same every time, different across indices and seeds", () => {
    expect(runSeed(1, 0)).toBe(runSeed(1, 0));
    const seeds = new Set(Array.from({ length: 1000 }, (_, i) => runSeed(1, i)));
    expect(seeds.size).toBe(1000);
    expect(runSeed(2, 0)).not.toBe(runSeed(1, 0));
    expect(() => runSeed(1, -1)).toThrow(/bad run index/);
  });

  it("are uint32 (a valid scenario seed)", () => {
    fc.assert(fc.property(fc.nat(), fc.nat(10_000), (s, i) => {
      const r = runSeed(s, i);
      return Number.isInteger(r) && r >= 0 && r <= 2 ** 32 - 1;
    }));
  });
});

describe("shards", () => {
  it("split runs round robin; the shards of a split partition the runs", () => {
    expect(shardIndices(7, { index: 2, count: 3 })).toEqual([1, 4]);
    fc.assert(fc.property(fc.nat(200), fc.integer({ min: 1, max: 9 }), (runs, n) => {
      const all = Array.from({ length: n }, (_, i) => shardIndices(runs, { index: i + 1, count: n })).flat().sort((a, b) => a - b);
      expect(all).toEqual([...Array(runs).keys()]);
    }));
  });

  it("parse i/n and refuse anything else", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    for (const bad of ["0/4", "5/4", "1", "a/b", "1/0"]) expect(() => parseShard(bad)).toThrow(/bad shard/);
  });
});

describe("ddmin", () => {
  it("finds a 1-minimal failing subset", () => {
    fc.assert(fc.property(fc.uniqueArray(fc.nat(39), { minLength: 1, maxLength: 6 }), (needed) => {
      const items = [...Array(40).keys()];
      let tests = 0;
      const found = ddmin(items, (s) => (tests++, needed.every((x) => s.includes(x)) ? s : null), () => false);
      expect([...found].sort((a, b) => a - b)).toEqual([...needed].sort((a, b) => a - b));
      expect(tests).toBeLessThan(400);
    }));
  });

  it("reaches the empty set when nothing is needed, and stops when told", () => {
    expect(ddmin([1, 2, 3], (s) => s, () => false)).toEqual([]);
    expect(ddmin([1, 2, 3], (s) => s, () => true)).toEqual([1, 2, 3]);
  });
});

describe("swarm", () => {
  const { raw, scenario } = readRawScenario("test/explore/fixtures/swarm.yaml");
  const draw = (seed: number) => {
    const r = applySwarm(raw, scenario, seed);
    return { raw: r, scenario: loadScenarioText(JSON.stringify(r)).scenario };
  };

  it("draws each run's latencies within the declared bounds, from the run's seed", () => {
    expect(draw(5).raw).toEqual(draw(5).raw);
    const pulls = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const { scenario: s } = draw(seed);
      const pull = s.runtime.latency.PullImage;
      expect(pull.minMs).toBeGreaterThanOrEqual(100);
      expect(pull.maxMs).toBeLessThanOrEqual(3000);
      expect(pull.minMs).toBeLessThanOrEqual(pull.maxMs);
      pulls.add(`${pull.minMs}-${pull.maxMs}`);
      expect(s.swarm).toBeUndefined();
    }
    expect(pulls.size).toBeGreaterThan(30);
  });

  it("switches each fault on with its chance, and delays steps after 0s by at most the jitter", () => {
    let withFault = 0;
    for (let seed = 0; seed < 100; seed++) {
      const { scenario: s } = draw(seed);
      withFault += s.runtime.faults.length;
      expect(s.timeline[0]!.atMs).toBe(0);
      expect(s.timeline[1]!.atMs).toBeGreaterThanOrEqual(10_000);
      expect(s.timeline[1]!.atMs).toBeLessThanOrEqual(10_000 + parseDuration("2s"));
    }
    expect(withFault).toBeGreaterThan(25);
    expect(withFault).toBeLessThan(75);
  });
});

describe("swarm jitter of steps written at one instant", () => {
  it("moves them together, in file order, and others apart", () => {
    const raw = {
      name: "s",
      pods: [{ manifest: { apiVersion: "v1", kind: "Pod", metadata: { name: "web" }, spec: { containers: [{ name: "app", image: "x" }] } } }],
      timeline: [{ at: "0s", create: "web" }, { at: "5s", delete: "web" }, { at: "5s", create: "web" }, { at: "8s", delete: "web" }],
      swarm: { jitter: "2s" },
      until: "30s",
    };
    const scenario = loadScenarioText(JSON.stringify(raw)).scenario;
    let apart = 0;
    for (let seed = 0; seed < 30; seed++) {
      const at = loadScenarioText(JSON.stringify(applySwarm(raw, scenario, seed))).scenario.timeline.map((st) => st.atMs);
      expect(at[0]).toBe(0);
      expect(at[1]).toBe(at[2]);
      expect(at[1]).toBeGreaterThanOrEqual(5_000);
      expect(at[1]).toBeLessThanOrEqual(7_000);
      if (at[3]! - at[1]! !== 3_000) apart++;
    }
    expect(apart).toBeGreaterThan(20);
  });
});

describe("determinism check", () => {
  it("reports a run whose trace differs, with both versions of the first differing record", () => {
    const ctx = new RunContext(makePlan({ source: { file: "test/explore/fixtures/two-pods.yaml" }, strategy: "random", seed: 3 }));
    const runner = makeRunner(ctx, false);
    const honest = ctx.runIndex(0, true);
    expect(checkDeterminism(runner, [honest])).toEqual({ checked: 1, ok: true, mismatches: [] });
    const lines = [...honest.lines!];
    lines[5] = lines[5]!.replace('"t":', '"t":1');
    const report = checkDeterminism(runner, [{ ...honest, traceHash: "0".repeat(64), lines }]);
    expect(report.ok).toBe(false);
    expect(report.mismatches[0]).toMatchObject({ index: 0, record: 5, first: lines[5], second: honest.lines![5] });
  });
});

describe("a run's identity", () => {
  it("is the digest of its choices and its verdict; the trace hash is kept for full and failing runs only", () => {
    const ctx = new RunContext(makePlan({ source: { file: "test/explore/fixtures/two-pods.yaml" }, strategy: "random", seed: 3 }));
    const lazy = ctx.runIndex(0);
    const full = ctx.runIndex(0, true);
    expect(lazy.identity).toMatch(/^[0-9a-f]{16}\/(until|completed|quiescent)$/);
    expect(full.identity).toBe(lazy.identity);
    expect(lazy.traceHash).toBeNull();
    expect(full.traceHash).toMatch(/^[0-9a-f]{16}$/);
    expect(ctx.runIndex(1).identity).not.toBe(lazy.identity);
  });

  it("a failing lazy run is run again in full (its hash, the lazy-vs-full check) only when its index is sampled; a reported one gets its hash when reproduced", () => {
    // Every run of R05's hunt form fails (ready-with-terminal-phase).
    const ctx = new RunContext(makePlan({ source: { file: "scenarios/races/hunt/r05-hunt.yaml" }, strategy: "pos", seed: 1 }));
    const runner = makeRunner(ctx, false);
    expect(failureHashSampled(0)).toBe(true);
    expect(failureHashSampled(1)).toBe(false);
    expect(failureHashSampled(FAILURE_HASH_EVERY)).toBe(true);
    const sampled = ctx.runIndex(0);
    const unsampled = ctx.runIndex(1);
    expect(sampled.failure).not.toBeNull();
    expect(unsampled.failure).not.toBeNull();
    expect(sampled.traceHash).toMatch(/^[0-9a-f]{16}$/);
    expect(unsampled.traceHash).toBeNull();
    // The full run's hash is the one a sampled lazy run carries.
    expect(ctx.runIndex(1, true).traceHash).toMatch(/^[0-9a-f]{16}$/);
    for (const run of [sampled, unsampled]) {
      const r = reproduceRun(ctx, runner, run, { shrink: false, outDir: null });
      expect(r.found.failure).toEqual(run.failure);
    }
    // A reproduced run must be the same run (identity), hashed or not.
    expect(() => reproduceRun(ctx, runner, { ...unsampled, identity: `${"0".repeat(16)}/until` }, { shrink: false, outDir: null })).toThrow(/did not fail the same way/);
    expect(() => reproduceRun(ctx, runner, { ...sampled, traceHash: "0".repeat(16) }, { shrink: false, outDir: null })).toThrow(/did not fail the same way/);
  });

  it("names the tape: kind, options and answer all count", () => {
    const tape = (s: string) => ChoiceLog.decode(s).digest();
    expect(tape("p0/2 s1/3 v0/4")).toBe(tape("p0/2 s1/3 v0/4"));
    const others = ["p0/2 s1/3", "p0/2 s1/3 v0/4 v0/4", "p1/2 s1/3 v0/4", "p0/3 s1/3 v0/4", "s0/2 s1/3 v0/4"].map(tape);
    expect(new Set([tape("p0/2 s1/3 v0/4"), ...others]).size).toBe(6);
    expect(tape("")).toMatch(/^[0-9a-f]{16}$/);
  });
});
