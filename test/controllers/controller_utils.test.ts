import { describe, expect, it } from "vitest";
import { Sim, sleep, type Proc } from "../../src/sim/index.ts";
import { slowStartBatch } from "../../src/controllers/controller_utils.ts";

/** Runs slowStartBatch over `count` calls; `fails` are the call indexes that fail. */
function run(count: number, fails: readonly number[]): { ok: number; calls: number[]; batchStartsMs: number[] } {
  const sim = new Sim({ seed: 1, strategy: { name: "fifo" } });
  const calls: number[] = [];
  const batchStartsMs: number[] = [];
  let ok = -1;
  sim.go("test", function* () {
    ok = yield* slowStartBatch(sim, "test", count, function* (i: number): Proc<boolean> {
      if (!batchStartsMs.includes(sim.nowMs)) batchStartsMs.push(sim.nowMs);
      calls.push(i);
      yield* sleep(10, "create");
      return !fails.includes(i);
    });
  });
  sim.run();
  return { ok, calls, batchStartsMs };
}

describe("slowStartBatch (replica_set.go): batches of 1, 2, 4..., a failing batch ends the run", () => {
  it.each([
    { count: 0, fails: [], ok: 0, calls: 0, batches: 0 },
    { count: 1, fails: [], ok: 1, calls: 1, batches: 1 },
    { count: 7, fails: [], ok: 7, calls: 7, batches: 3 },
    { count: 10, fails: [], ok: 10, calls: 10, batches: 4 },
    { count: 10, fails: [0], ok: 0, calls: 1, batches: 1 },
    { count: 10, fails: [2], ok: 2, calls: 3, batches: 2 },
    { count: 10, fails: [4], ok: 6, calls: 7, batches: 3 },
  ])("count $count, failing $fails: $ok succeed in $calls calls over $batches batches", ({ count, fails, ok, calls, batches }) => {
    const r = run(count, fails);
    expect(r.ok).toBe(ok);
    expect(r.calls).toHaveLength(calls);
    expect([...r.calls].sort((a, b) => a - b)).toEqual([...Array(calls).keys()]);
    expect(r.batchStartsMs).toHaveLength(batches);
  });
});
