// The continuation operations (ops.ts thenOp, genOp, awaitOp): a chain of functions that each map
// the result of the one below is one operation, performed by the kernel, resumed once.
import { describe, expect, it } from "vitest";
import {
  awaitOp, callOp, genOp, invoke, recvOp, sleep, thenOp, Op, type Proc,
} from "../../src/sim/index.ts";
import { harness } from "./helpers.ts";

/** What the caller got, when, and how many steps the kernel took (resumptions, from the end record). */
interface Outcome {
  got: unknown;
  atMs: number;
  events: number;
  verdict: string;
}

function runCaller(build: () => Op | unknown, before?: (h: ReturnType<typeof harness>) => void): Outcome {
  const h = harness();
  before?.(h);
  let got: unknown = "unset";
  let atMs = -1;
  h.sim.go("caller", function* () {
    try {
      got = yield* awaitOp(build());
    } catch (e) {
      got = `caught ${String(e)}`;
    }
    atMs = h.sim.nowMs;
  });
  const r = h.run();
  return { got, atMs, events: r.events, verdict: r.verdict };
}

describe("thenOp", () => {
  const rows: { name: string; build: () => Op | unknown; want: { got: unknown; atMs: number } }[] = [
    {
      name: "maps a call's result",
      build: () => thenOp(callOp(10, "c", () => 2), (v) => (v as number) * 10),
      want: { got: 20, atMs: 10 },
    },
    {
      name: "applies after a call's last stage, not its first",
      build: () => thenOp(callOp(10, "c", () => callOp(5, "c2", () => "late")), (v) => `mapped ${String(v)}`),
      want: { got: "mapped late", atMs: 15 },
    },
    {
      name: "nested: the innermost continuation runs first",
      build: () => thenOp(thenOp(callOp(1, "c", () => "a"), (v) => `${String(v)}b`), (v) => `${String(v)}c`),
      want: { got: "abc", atMs: 1 },
    },
    {
      name: "a continuation that gives an operation waits on it; the ones below it apply after (a retry)",
      build: () => {
        let tries = 0;
        const attempt = (): Op => callOp(7, "try", () => ++tries);
        const retry = (v: unknown): unknown => ((v as number) < 3 ? thenOp(attempt(), retry) : `after ${String(v)} tries`);
        return thenOp(thenOp(attempt(), retry), (v) => `[${String(v)}]`);
      },
      want: { got: "[after 3 tries]", atMs: 21 },
    },
    {
      name: "an operation's error skips the continuations above it on the way to the caller",
      build: () => thenOp(thenOp(callOp(4, "c", () => callOp(-1, "negative", () => 1)), () => "never"), () => "never either"),
      want: { got: "caught RangeError: negative: duration must be a whole number of ms >= 0, got -1", atMs: 4 },
    },
    {
      name: "a bad latency inside a continuation throws into the caller",
      build: () => thenOp(callOp(1.5, "odd", () => 1), () => "never"),
      want: { got: "caught RangeError: odd: duration must be a whole number of ms >= 0, got 1.5", atMs: 0 },
    },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const o = runCaller(row.build);
      expect(o.verdict).toBe("completed");
      expect({ got: o.got, atMs: o.atMs }).toEqual(row.want);
    });
  }

  it("a continuation or a handler that throws is a panic of the caller, which its own try does not see", () => {
    const boom = (): never => {
      throw new Error("boom");
    };
    for (const build of [() => thenOp(callOp(4, "c", () => 1), boom), () => thenOp(callOp(4, "c", boom), (v) => v)]) {
      const o = runCaller(build);
      expect(o.verdict).toBe("panic");
      expect(o.got).toBe("unset");
    }
  });

  it("around a receive: waits for the channel, then maps what came", () => {
    let ch: ReturnType<ReturnType<typeof harness>["sim"]["chan"]> | null = null;
    const o = runCaller(() => thenOp(recvOp(ch), (r) => ({ ...(r as object), mapped: true })), (h) => {
      ch = h.sim.chan<number>("c", 0);
      h.sim.go("sender", function* () {
        yield* sleep(9);
        ch!.close();
      });
    });
    expect({ got: o.got, atMs: o.atMs }).toEqual({ got: { value: undefined, ok: false, mapped: true }, atMs: 9 });
  });

  it("takes as many kernel steps as the generator chain it replaces", () => {
    // The chain as generators, frame by frame: three levels over one call.
    function* level1(): Proc<number> {
      return (yield* invoke<number>(callOp(5, "c", () => 1))) + 1;
    }
    function* level2(): Proc<number> {
      return (yield* level1()) * 10;
    }
    const asGenerators = runCaller(() => genOp(level2()));
    const asOps = runCaller(() => thenOp(thenOp(callOp(5, "c", () => 1), (v) => (v as number) + 1), (v) => (v as number) * 10));
    expect(asOps).toEqual(asGenerators);
    expect(asOps.got).toBe(20);
  });
});

describe("genOp", () => {
  it("runs a generator as a stage, its result mapped by the continuation over it", () => {
    function* callee(): Proc<string> {
      yield* sleep(3);
      yield* sleep(4);
      return "gen";
    }
    const o = runCaller(() => thenOp(genOp(callee()), (v) => `${String(v)}!`));
    expect({ got: o.got, atMs: o.atMs }).toEqual({ got: "gen!", atMs: 7 });
  });

  it("adds no scheduling point: a generator that returns at once takes no step", () => {
    function* immediate(): Proc<string> {
      return "now";
    }
    const viaGen = runCaller(() => thenOp(genOp(immediate()), (v) => v));
    const plain = runCaller(() => "now");
    expect(viaGen).toEqual(plain);
  });

  it("a throw from inside the generator reaches the caller; the generator's own catch sees one thrown into it", () => {
    function* throws(): Proc<string> {
      yield* sleep(2);
      throw new Error("in gen");
    }
    expect(runCaller(() => thenOp(genOp(throws()), () => "never")).got).toBe("caught Error: in gen");
    function* catches(): Proc<string> {
      try {
        yield* invoke(callOp(1.5, "odd", () => 1));
        return "no";
      } catch {
        return "caught in gen";
      }
    }
    expect(runCaller(() => genOp(catches())).got).toBe("caught in gen");
  });
});

describe("awaitOp", () => {
  it("an answer given at once is returned without a yield", () => {
    const direct = runCaller(() => ({ answer: 1 }));
    expect(direct.got).toEqual({ answer: 1 });
    expect(direct.atMs).toBe(0);
    // Only the caller's start and end: no operation was performed.
    expect(direct.events).toBe(1);
  });
});
