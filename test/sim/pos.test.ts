// pos (partial order sampling): the race relation, the priority rule on a scripted random source,
// the resources the kernel hands it, replay of a pos run, and a planted race where pos beats a
// random walk.
import { describe, expect, it } from "vitest";
import { ChoiceLog, Sim, call, lock, point, recv, recvCase, select, send, sleep } from "../../src/sim/index.ts";
import type { ProcList, ProcRef } from "../../src/sim/strategy/index.ts";
import { PosStrategy, racing } from "../../src/sim/strategy/pos.ts";
import { formatStrategy, parseStrategy } from "../../src/sim/strategy/index.ts";
import type { Rng } from "../../src/sim/rng.ts";
import { objectPath } from "../../src/apiserver/apiserver.ts";

/** An Rng that answers below(n) from a script (each value taken modulo n). */
function scripted(values: number[]): Rng {
  let i = 0;
  return { below: (n: number) => values[i++]! % n } as unknown as Rng;
}
const list = (procs: ProcRef[]): ProcList => ({ length: procs.length, at: (i) => procs[i]! });

describe("racing(a, b)", () => {
  const ch = {};
  it.each([
    [ch, ch, true],
    ["GET /api/v1/pods/web", "GET /api/v1/pods/web", true],
    ["cri StartContainer", "cri StopContainer", false],
    [ch, {}, false],
    [null, null, false],
    [undefined, undefined, false],
    [null, ch, false],
  ])("%#: %j and %j → %s", (a, b, want) => {
    expect(racing(a, b)).toBe(want);
  });
});

describe("PosStrategy.choose", () => {
  const chA = { name: "a" };
  const chB = { name: "b" };
  // Spawned with priorities 10, 20, 30, 40 (in spawn order).
  const procs: ProcRef[] = [
    { id: 1, name: "p1", resumeOn: chA },
    { id: 2, name: "p2", resumeOn: chB },
    { id: 3, name: "p3", resumeOn: null },
    { id: 4, name: "p4", resumeOn: chA },
  ];

  it.each([
    // which processes are ready (ids), the draws after the spawns, the index chosen, the priorities after
    { name: "the highest priority runs; it and the ones racing with it draw again", ready: [1, 2, 3, 4], draws: [5, 6], chosen: 3, after: [5, 20, 30, 6] },
    { name: "no racing process: only the chosen one draws again", ready: [2, 3], draws: [7], chosen: 1, after: [20, 7] },
    { name: "a process with no resource races with nothing", ready: [3, 1], draws: [1], chosen: 0, after: [1, 10] },
  ])("$name", ({ ready, draws, chosen, after }) => {
    const s = new PosStrategy(scripted([10, 20, 30, 40, ...draws]));
    procs.forEach((p) => s.onSpawn(p));
    const l = list(ready.map((id) => procs[id - 1]!));
    expect(s.choose("proc", l.length, l)).toBe(chosen);
    expect(s.priorities(l)).toEqual(after);
  });

  it("a process it has not seen gets a priority when first offered; ties go to the lower id", () => {
    const s = new PosStrategy(scripted([50, 50, 0, 0]));
    const l = list([procs[3]!, procs[1]!]);
    expect(s.choose("proc", 2, l)).toBe(1); // both 50: p2 (id 2) before p4 (id 4)
  });

  it("select and value choices are uniform draws", () => {
    const s = new PosStrategy(scripted([7, 8]));
    expect([s.choose("select", 3, null), s.choose("value", 5, null)]).toEqual([1, 3]);
  });

  it('is spelled "pos" in a replay key', () => {
    expect(parseStrategy("pos")).toEqual({ name: "pos" });
    expect(formatStrategy({ name: "pos" })).toBe("pos");
    expect(() => parseStrategy("pos:3")).toThrow(/or pos/);
  });
});

describe("the resource a process resumes from", () => {
  it("is the channel it received from, the case that fired, the lock, the call's label; a sleep names none", () => {
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, hash: false });
    const ch = sim.chan<number>("ch");
    const other = sim.chan<number>("other", 1);
    const mu = sim.mutex("mu");
    const seen: Record<string, unknown> = {};
    const p = sim.go("receiver", function* () {
      yield* recv(ch);
      seen.recv = p.resumeOn;
      yield* select([recvCase(ch), recvCase(other)]);
      seen.select = p.resumeOn;
      yield* call(5, "GET /api/v1/pods/web");
      seen.call = p.resumeOn;
      yield* sleep(5);
      seen.sleep = p.resumeOn;
      yield* lock(mu);
      mu.unlock();
    });
    sim.go("sender", function* () {
      yield* send(ch, 1);
      yield* sleep(1);
      yield* send(other, 2);
    });
    expect(sim.run().verdict).toBe("completed");
    expect(seen).toEqual({ recv: ch, select: other, call: "GET /api/v1/pods/web", sleep: null });
  });
});

/**
 * A planted race on one channel among many independent processes: "late" must send on `ch` before
 * "early" does, though early is ready first. Eight noise processes step through points on their
 * own resources in between. A random walk favours the many noise steps; pos keeps the order of
 * non-racing steps and flips the racing pair about half the time.
 */
function plantedRace(seed: number, strategy: "pos" | "random"): boolean {
  const sim = new Sim({ seed, strategy: { name: strategy }, hash: false });
  const ch = sim.chan<string>("ch", 2);
  sim.go("early", function* () {
    yield* point("warm-up");
    yield* send(ch, "early");
  });
  for (let n = 0; n < 8; n++) {
    sim.go(`noise${n}`, function* () {
      for (let i = 0; i < 6; i++) yield* point(`noise${n}`);
    });
  }
  sim.go("late", function* () {
    for (let i = 0; i < 6; i++) yield* point("late-work");
    yield* send(ch, "late");
  });
  let first = "";
  sim.go("reader", function* () {
    first = (yield* recv(ch)).value!;
  });
  expect(sim.run().verdict).toBe("completed");
  return first === "late";
}

describe("pos runs replay and find a planted race", () => {
  it("a pos run replays from its tape to the same trace", () => {
    const run = (strategy: ConstructorParameters<typeof Sim>[0]["strategy"]) => {
      // A replay keeps the name of the run it replays (the "run" record is part of the trace).
      const sim = new Sim({ seed: 9, strategy, runInfo: { strategy: "pos" } });
      const ch = sim.chan<number>("ch");
      for (let i = 0; i < 4; i++) sim.go(`w${i}`, function* () { yield* point("shared"); yield* send(ch, i); });
      sim.go("r", function* () { for (let i = 0; i < 4; i++) sim.emit("test", "got", { v: (yield* recv(ch)).value }); });
      return sim.run();
    };
    const original = run({ name: "pos" });
    const again = run({ name: "replay", tape: ChoiceLog.from(original.choices.toArray()), whenExhausted: "diverge" });
    expect(original.choices.deviations()).toBeGreaterThan(0);
    expect(again.traceHash).toBe(original.traceHash);
  });

  it("finds the race in more seeds than a random walk", () => {
    let pos = 0;
    let random = 0;
    for (let seed = 1; seed <= 300; seed++) {
      if (plantedRace(seed, "pos")) pos++;
      if (plantedRace(seed, "random")) random++;
    }
    console.info(`planted channel race: pos ${pos}/300, random ${random}/300`);
    expect(pos).toBeGreaterThan(random);
    expect(pos).toBeGreaterThan(0);
  });
});

describe("apiserver requests name the object they touch", () => {
  it.each([
    ["/api/v1/namespaces/default/pods/web-0", "/api/v1/namespaces/default/pods/web-0"],
    ["/api/v1/namespaces/default/pods/web-0/status", "/api/v1/namespaces/default/pods/web-0"],
    ["/api/v1/pods?watch=1", "/api/v1/pods"],
  ])("%s → %s", (path, want) => {
    expect(objectPath(path)).toBe(want);
  });

  it("a call's resource is what its caller resumes on", () => {
    const sim = new Sim({ seed: 1, strategy: { name: "fifo" }, hash: false });
    let seen: unknown = "unset";
    const p = sim.go("client", function* () {
      yield* call(5, "PATCH /api/v1/namespaces/default/pods/web/status", "/api/v1/namespaces/default/pods/web");
      seen = p.resumeOn;
    });
    sim.run();
    expect(seen).toBe("/api/v1/namespaces/default/pods/web");
  });
});
