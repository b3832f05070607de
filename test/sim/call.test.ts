// The call operation (ops.ts callOp): one yield for work that takes virtual time and then acts on
// another component's state. A small generic callee stands for the CRI and the apiserver here: a
// service with a latency, faults, an unavailable window and a deadline for calls that hang.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  MemorySink, Sim, callOp, invoke, recvOp, sleep, thenOp, type Chan, type Op, type Proc, type TraceRecord,
} from "../../src/sim/index.ts";
import { harness } from "./helpers.ts";

type Fault = "none" | "error" | "hang";

/** What a caller gets: a value or an error, with the instant the handler ran. */
interface Reply {
  value: string | null;
  err: string | null;
  atMs: number;
}

/** A callee in the shape of core.ts: builds the call, or refuses at once when it is down. */
class Service {
  handled = 0;
  constructor(
    private readonly sim: Sim,
    readonly latencyMs: number,
    readonly deadlineMs: number,
    public fault: Fault = "none",
    public downUntilMs = -1,
  ) {}

  build(what: string, done: Chan<never> | null = null): Op | Reply {
    const startMs = this.sim.nowMs;
    if (startMs < this.downUntilMs) return this.reply(null, "unavailable");
    const fault = this.fault;
    return callOp(this.latencyMs, `svc ${what}`, (cancelled) => {
      if (cancelled) return this.reply(null, "canceled");
      if (fault === "error") return this.reply(null, "injected");
      if (fault === "hang") {
        return callOp(Math.max(0, startMs + this.deadlineMs - this.sim.nowMs), `svc ${what} (hung)`, () => this.reply(null, "deadline exceeded"));
      }
      this.handled++;
      return this.reply(`${what} done`, null);
    }, null, done);
  }

  *call(what: string, done: Chan<never> | null = null): Proc<Reply> {
    const op = this.build(what, done);
    return "atMs" in op ? op : yield* invoke<Reply>(op);
  }

  private reply(value: string | null, err: string | null): Reply {
    return { value, err, atMs: this.sim.nowMs };
  }
}

interface Row {
  name: string;
  latencyMs: number;
  fault?: Fault;
  downUntilMs?: number;
  /** When the caller's context is cancelled (null: never). */
  cancelAtMs?: number | null;
  want: { value: string | null; err: string | null; handlerAtMs: number; returnedAtMs: number };
  /** When the run ends: a cancelled call leaves no timer behind. */
  endMs: number;
}

describe("callOp", () => {
  const rows: Row[] = [
    { name: "takes its latency, then the handler's result resumes the caller", latencyMs: 30, want: { value: "get done", err: null, handlerAtMs: 30, returnedAtMs: 30 }, endMs: 30 },
    { name: "zero latency: the handler runs in the same instant", latencyMs: 0, want: { value: "get done", err: null, handlerAtMs: 0, returnedAtMs: 0 }, endMs: 0 },
    { name: "a fault after the latency: the handler returns the error", latencyMs: 30, fault: "error", want: { value: null, err: "injected", handlerAtMs: 30, returnedAtMs: 30 }, endMs: 30 },
    { name: "unavailable: refused at once, no time passes", latencyMs: 30, downUntilMs: 100, want: { value: null, err: "unavailable", handlerAtMs: 0, returnedAtMs: 0 }, endMs: 0 },
    { name: "a hung call ends at the deadline, counted from its start", latencyMs: 30, fault: "hang", want: { value: null, err: "deadline exceeded", handlerAtMs: 500, returnedAtMs: 500 }, endMs: 500 },
    { name: "cancelled before the latency: Canceled then, and no timer left", latencyMs: 30, cancelAtMs: 10, want: { value: null, err: "canceled", handlerAtMs: 10, returnedAtMs: 10 }, endMs: 10 },
    { name: "cancelled after the latency: the call had already ended", latencyMs: 30, cancelAtMs: 50, want: { value: "get done", err: null, handlerAtMs: 30, returnedAtMs: 30 }, endMs: 50 },
    { name: "cancelled in the instant the latency ends: the latency's timer fires before the canceller runs", latencyMs: 30, cancelAtMs: 30, want: { value: "get done", err: null, handlerAtMs: 30, returnedAtMs: 30 }, endMs: 30 },
    { name: "cancelled before the call starts: Canceled at once", latencyMs: 30, cancelAtMs: -1, want: { value: null, err: "canceled", handlerAtMs: 0, returnedAtMs: 0 }, endMs: 0 },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const h = harness();
      const svc = new Service(h.sim, row.latencyMs, 500, row.fault ?? "none", row.downUntilMs ?? -1);
      const cancelAt = row.cancelAtMs ?? null;
      const done = cancelAt === null ? null : h.sim.chan<never>("ctx.Done");
      if (done !== null && cancelAt! < 0) done.close();
      if (done !== null && cancelAt! >= 0) {
        h.sim.go("canceller", function* () {
          yield* sleep(cancelAt!);
          done.close();
        });
      }
      let got: Reply | null = null;
      let returnedAtMs = -1;
      h.sim.go("caller", function* () {
        got = yield* svc.call("get", done);
        returnedAtMs = h.sim.nowMs;
      });
      const r = h.run();
      expect(r.verdict).toBe("completed");
      expect(got).toEqual({ value: row.want.value, err: row.want.err, atMs: row.want.handlerAtMs });
      expect(returnedAtMs).toBe(row.want.returnedAtMs);
      expect(r.endMs).toBe(row.endMs);
    });
  }

  it("a stage after a plain operation: waits for the channel, then its result ends the call", () => {
    const h = harness();
    const exited = h.sim.chan<number>("exited", 1);
    let got: unknown = null;
    h.sim.go("caller", function* () {
      got = yield* invoke(callOp(10, "stop", () => thenOp(recvOp(exited), (r) => ({ stoppedAtMs: h.sim.nowMs, r }))));
    });
    h.sim.go("process", function* () {
      yield* sleep(25);
      exited.close();
    });
    const r = h.run();
    expect(r.verdict).toBe("completed");
    expect(got).toEqual({ stoppedAtMs: 25, r: { value: undefined, ok: false } });
  });

  it("a zero-latency call is a scheduling point, and its handler runs when the caller is next stepped", () => {
    // Some schedule runs the other goroutine between the call and its handler: the handler then
    // sees what the other wrote (were it run when the call is yielded, it never would).
    const seen: string[] = [];
    let shared = "before";
    for (let seed = 0; seed < 40 && !(seen.includes("before") && seen.includes("after")); seed++) {
      const g = harness({ name: "random" }, seed);
      shared = "before";
      g.sim.go("caller", function* () {
        const v = yield* invoke<string>(callOp(0, "read", () => shared));
        seen.push(v);
      });
      g.sim.go("writer", function* () {
        shared = "after";
      });
      g.run();
    }
    expect(seen).toContain("before");
    expect(seen).toContain("after");
  });

  it("a bad latency throws into the caller, as a bad sleep does", () => {
    const h = harness();
    let err: unknown = null;
    h.sim.go("caller", function* () {
      try {
        yield* invoke(callOp(1.5, "odd", () => "never"));
      } catch (e) {
        err = e;
      }
    });
    h.run();
    expect(String(err)).toMatch(/odd: duration must be a whole number of ms >= 0, got 1.5/);
  });

  it("a handler that throws is a panic of the caller", () => {
    const h = harness();
    h.sim.go("caller", function* () {
      yield* invoke(callOp(5, "boom", () => {
        throw new Error("handler failed");
      }));
    });
    const r = h.run();
    expect(r.verdict).toBe("panic");
    expect(r.diagnosis).toMatch(/panic in process caller at t=5ms: Error: handler failed/);
  });

  it("a killed caller's handler never runs", () => {
    const h = harness();
    let ran = false;
    h.sim.go("caller", function* () {
      yield* invoke(callOp(30, "slow", () => {
        ran = true;
        return null;
      }));
    }, { group: "kubelet" });
    h.sim.go("killer", function* () {
      yield* sleep(10);
      h.sim.killGroup("kubelet");
    });
    h.run();
    expect(ran).toBe(false);
  });
});

describe("docs/kernel.md's call example", () => {
  const page = readFileSync(join(import.meta.dirname, "..", "..", "docs", "kernel.md"), "utf8");

  /** The example as the page writes it; `cancelAtMs` closes ctxDone from another process. */
  function example(cancelAtMs: number | null): { records: TraceRecord[]; latencyMs: number } {
    const sink = new MemorySink();
    const sim = new Sim({ seed: 7, strategy: { name: "fifo" }, bounds: { untilMs: 60_000 }, sinks: [sink] });
    const running = ["app"];
    const ctxDone = sim.chan<never>("ctx.Done");
    let latencyMs = -1;
    function listContainers() {
      latencyMs = sim.rng("runtime").int(5, 15);
      return callOp(latencyMs, "cri ListContainers", (cancelled) =>
        cancelled ? { err: "Canceled" } : { names: [...running] }, null, ctxDone);
    }
    sim.go("kubelet", function* () {
      const r = yield* invoke<{ names?: string[]; err?: string }>(listContainers());
      sim.emit("kubelet", "Listed", { ...r });
    });
    if (cancelAtMs !== null) {
      sim.go("canceller", function* () {
        yield* sleep(cancelAtMs);
        ctxDone.close();
      });
    }
    expect(sim.run().verdict).toBe("completed");
    return { records: sink.records, latencyMs };
  }

  it("is on the page as run here", () => {
    for (const line of [
      "const latencyMs = sim.rng(\"runtime\").int(5, 15);          // from the callee's named stream",
      "return callOp(latencyMs, \"cri ListContainers\", (cancelled) =>",
      "cancelled ? { err: \"Canceled\" } : { names: [...running] }, null, ctxDone);",
      "const r = yield* invoke<{ names?: string[]; err?: string }>(listContainers());  // one yield",
      "sim.run();   // a \"Listed\" record with names [\"app\"], 5 to 15 ms into the run",
    ]) expect(page).toContain(line);
  });

  it("lists the container after the drawn latency, 5 to 15 ms in", () => {
    const { records, latencyMs } = example(null);
    const listed = records.find((r) => r.kind === "Listed");
    expect(listed).toMatchObject({ t: latencyMs, names: ["app"] });
    expect(latencyMs).toBeGreaterThanOrEqual(5);
    expect(latencyMs).toBeLessThanOrEqual(15);
  });

  it("with ctx.Done() closed during the latency, the call ends Canceled then", () => {
    const { records } = example(2);
    expect(records.find((r) => r.kind === "Listed")).toMatchObject({ t: 2, err: "Canceled" });
  });
});
