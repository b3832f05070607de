// pkg/kubelet/container/cache.go's contract, ported from cache_test.go's cases (TestGetNewerThan*,
// TestUpdateTime, TestDelete) and run in virtual time: GetNewerThan parks the calling process.
import { describe, expect, it } from "vitest";
import { MemorySink, Sim, sleep } from "../../../src/sim/index.ts";
import { Cache, emptyPodStatus } from "../../../src/kubelet/container/cache.ts";
import type { PodStatus } from "../../../src/kubelet/container/runtime.ts";
import type { PodCacheReader } from "../../../src/kubelet/pod_workers_types.ts";

// The pod workers read the cache through PodCacheReader: the Cache is one as it stands.
const _asReader: (c: Cache) => PodCacheReader = (c) => c;
void _asReader;

function setup(strategy: "fifo" | "random" = "fifo", seed = 1) {
  const sink = new MemorySink();
  const sim = new Sim({ seed, strategy: { name: strategy }, sinks: [sink], bounds: { untilMs: 60_000 } });
  const cache = new Cache(sim);
  const records = (kind: string) => sink.records.filter((r) => r.component === "cache" && r.kind === kind);
  return { sim, cache, records };
}

const ps = (id: string, tag: string): PodStatus => ({ ...emptyPodStatus(id), name: tag, namespace: "ns" });

/** A process that calls GetNewerThan(id, minTimeMs) at startMs and logs when and what it got. */
function waiter(sim: Sim, cache: Cache, id: string, minTimeMs: number, startMs: number, log: string[]): void {
  sim.go(`waiter/${id}/${minTimeMs}`, function* () {
    yield* sleep(startMs);
    const s = yield* cache.GetNewerThan(id, minTimeMs);
    log.push(`${sim.nowMs}:${id}:${s.name || "default"}`);
  });
}

/** A process that performs actions at given times. */
function at(sim: Sim, steps: [number, () => void][]): void {
  sim.go("actor", function* () {
    for (const [t, f] of steps) {
      yield* sleep(t - sim.nowMs);
      f();
    }
  });
}

describe("Get / Set / Delete", () => {
  it("a miss is an empty PodStatus with the ID; Set stores status and error", () => {
    const { cache, records } = setup();
    expect(cache.GetWithError("p")).toEqual([emptyPodStatus("p"), null]);
    expect(cache.Get("p")).toEqual(emptyPodStatus("p"));
    cache.Set("p", ps("p", "v1"), null, 10);
    expect(cache.Get("p")).toEqual(ps("p", "v1"));
    const err = new Error("inspect failed");
    cache.Set("q", null, err, 10);
    expect(cache.GetWithError("q")).toEqual([null, err]);
    expect(cache.Get("q")).toBeUndefined();
    cache.Delete("p");
    expect(cache.Get("p")).toEqual(emptyPodStatus("p"));
    expect(records("Set").map((r) => [r.uid, r.timeMs, r.err ?? null, r.pod ?? null])).toEqual([
      ["p", 10, null, "ns/v1"],
      ["q", 10, "inspect failed", null],
    ]);
    expect(cache.GetAll()).toEqual([null]);
  });
});

describe("GetNewerThan", () => {
  it("returns at once when the entry was modified after minTime (strictly)", () => {
    const { sim, cache } = setup();
    const log: string[] = [];
    cache.Set("p", ps("p", "v1"), null, 100);
    waiter(sim, cache, "p", 99, 0, log);
    waiter(sim, cache, "p", 100, 0, log); // modified == minTime is not newer: it blocks
    sim.run();
    expect(log).toEqual(["0:p:v1"]);
    expect(cache.subscriberCount).toBe(1);
  });

  it("blocks until a Set at or after minTime (notify is not strict, subscribe is)", () => {
    const { sim, cache, records } = setup();
    const log: string[] = [];
    cache.Set("p", ps("p", "v1"), null, 100);
    waiter(sim, cache, "p", 200, 0, log);
    at(sim, [
      [150, () => cache.Set("p", ps("p", "v2"), null, 150)], // older than required: keeps waiting
      [300, () => cache.Set("p", ps("p", "v3"), null, 200)], // timestamp == minTime: notified
    ]);
    sim.run();
    expect(log).toEqual(["300:p:v3"]);
    expect(records("GetNewerThan")).toMatchObject([{ t: 300, uid: "p", minTimeMs: 200, statusTimeMs: 200, globalTimeMs: null, waitedMs: 300 }]);
  });

  it("blocks until the global timestamp reaches minTime, then returns the (possibly older) entry", () => {
    const { sim, cache, records } = setup();
    const log: string[] = [];
    cache.Set("p", ps("p", "old"), null, 50);
    waiter(sim, cache, "p", 100, 0, log);
    waiter(sim, cache, "missing", 100, 0, log);
    at(sim, [
      [90, () => cache.UpdateTime(90)],
      [100, () => cache.UpdateTime(100)],
    ]);
    sim.run();
    expect(log.sort()).toEqual(["100:missing:default", "100:p:old"]);
    expect(records("GetNewerThan").map((r) => [r.uid, r.statusTimeMs])).toEqual(
      expect.arrayContaining([
        ["p", 50],
        ["missing", null],
      ]),
    );
  });

  it("with a global timestamp already newer, a missing entry is the default status at once", () => {
    const { sim, cache } = setup();
    const log: string[] = [];
    cache.UpdateTime(500);
    waiter(sim, cache, "p", 499, 0, log);
    waiter(sim, cache, "p", 500, 0, log); // not strictly newer: waits
    sim.run();
    expect(log).toEqual(["0:p:default"]);
  });

  it("notifies only the subscribers whose time requirement is met; Delete notifies nobody", () => {
    const { sim, cache } = setup();
    const log: string[] = [];
    waiter(sim, cache, "p", 100, 0, log);
    waiter(sim, cache, "p", 300, 0, log);
    at(sim, [
      [10, () => cache.Delete("p")],
      [200, () => cache.Set("p", ps("p", "v"), null, 200)],
    ]);
    sim.run();
    expect(log).toEqual(["200:p:v"]);
    expect(cache.subscriberCount).toBe(1);
  });

  it("GetNewerThanWithError hands back the cached error", () => {
    const { sim, cache } = setup();
    const got: string[] = [];
    cache.Set("p", null, new Error("boom"), 10);
    sim.go("w", function* () {
      const [status, err] = yield* cache.GetNewerThanWithError("p", 5);
      got.push(`${String(status)}:${err?.message}`);
      got.push(JSON.stringify(yield* cache.GetNewerThan("p", 5)));
    });
    sim.run();
    expect(got).toEqual(["null:boom", JSON.stringify(emptyPodStatus("p"))]);
  });

  it("UpdateTime wakes the waiting pods in a Go map order the strategy chooses and records", () => {
    const orders = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const { sim, cache, records } = setup("random", seed);
      const log: string[] = [];
      for (const id of ["a", "b", "c"]) waiter(sim, cache, id, 10, 0, log);
      at(sim, [[20, () => cache.UpdateTime(20)]]);
      const r = sim.run();
      expect(log).toHaveLength(3);
      expect(records("GetNewerThan")).toHaveLength(3);
      expect(r.choices.length).toBeGreaterThan(0);
      orders.add(log.join(","));
    }
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe("ported from cache_test.go", () => {
  const T = 10_000;
  it.each([
    ["both the global timestamp and the modified time are newer", T + 1_000, T, true],
    ["only the global timestamp is newer: up to date though unchanged for a while", T + 1_000, T - 10_000, true],
    ["only the entry is newer: up to date while the rest is still being updated", T - 1_000, T + 3_000, true],
    ["both are older", T - 1_000, T - 1_000, false],
  ])("TestGetIfNewerThanWhenPodExists: %s", (_name, cacheTimeMs, modifiedMs, expected) => {
    const { sim, cache } = setup();
    const log: string[] = [];
    cache.UpdateTime(cacheTimeMs);
    cache.Set("p", ps("p", "v"), null, modifiedMs);
    waiter(sim, cache, "p", T, 0, log);
    sim.run();
    expect(log.length === 1).toBe(expected);
  });

  it.each([
    [T - 1_000, true],
    [T + 1_000, false],
  ])("TestGetPodNewerThanWhenPodDoesNotExist: minTime %i", (minTimeMs, expected) => {
    const { sim, cache } = setup();
    const log: string[] = [];
    cache.UpdateTime(T);
    waiter(sim, cache, "1234", minTimeMs, 0, log);
    sim.run();
    expect(log.length === 1).toBe(expected);
  });

  it("TestCacheNotInitialized: with no global timestamp, nothing is newer than the zero time", () => {
    const { sim, cache } = setup();
    const log: string[] = [];
    waiter(sim, cache, "1234", -62_135_596_800_000, 0, log);
    sim.run();
    expect(log).toEqual([]);
  });

  it("TestRegisterNotification: a Set at the subscribed time, then an UpdateTime past it, notify", () => {
    const { sim, cache } = setup();
    const log: string[] = [];
    cache.UpdateTime(T);
    waiter(sim, cache, "a", T + 1_000, 0, log);
    waiter(sim, cache, "b", T + 1_000, 0, log);
    at(sim, [
      [1, () => cache.Set("a", ps("a", "va"), null, T + 1_000)],
      [2, () => cache.UpdateTime(T + 2_000)],
    ]);
    sim.run();
    expect(log).toEqual(["1:a:va", "2:b:default"]);
  });
});
