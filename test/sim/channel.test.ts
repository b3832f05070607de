import { describe, expect, it } from "vitest";
import { again, recv, send, sleep, select, selectOp, recvCase, sendCase, type SelectResult } from "../../src/sim/index.ts";
import { harness } from "./helpers.ts";

describe("channels (Go semantics)", () => {
  it("unbuffered: a send blocks until a receiver takes the value", () => {
    const h = harness();
    const ch = h.sim.chan<string>("c");
    h.sim.go("sender", function* () {
      yield* send(ch, "x");
      h.log("sent");
    });
    h.sim.go("receiver", function* () {
      yield* sleep(100);
      const r = yield* recv(ch);
      h.log(`got-${r.value}-${r.ok}`);
    });
    expect(h.run().verdict).toBe("completed");
    expect(h.lines()).toEqual(["100:got-x-true", "100:sent"]);
  });

  it("buffered: sends do not block until the buffer is full", () => {
    const h = harness();
    const ch = h.sim.chan<number>("c", 2);
    h.sim.go("sender", function* () {
      for (let i = 0; i < 3; i++) {
        yield* send(ch, i);
        h.log(`sent${i}`);
      }
    });
    h.sim.go("receiver", function* () {
      yield* sleep(50);
      for (let i = 0; i < 3; i++) h.log(`got${(yield* recv(ch)).value}`);
    });
    h.run();
    expect(h.lines()).toEqual(["0:sent0", "0:sent1", "50:got0", "50:got1", "50:got2", "50:sent2"]);
  });

  it("close: buffered values drain first, then zero value with ok=false", () => {
    const h = harness();
    const ch = h.sim.chan<number>("c", 2);
    h.sim.go("p", function* () {
      yield* send(ch, 7);
      ch.close();
      const a = yield* recv(ch);
      const b = yield* recv(ch);
      h.log(`${a.value}/${a.ok} ${b.value}/${b.ok}`);
    });
    h.run();
    expect(h.lines()).toEqual(["0:7/true undefined/false"]);
  });

  it("close wakes every blocked receiver", () => {
    const h = harness();
    const ch = h.sim.chan<number>("c");
    for (const n of ["a", "b"]) {
      h.sim.go(n, function* () {
        const r = yield* recv(ch);
        h.log(`${n}-${r.ok}`);
      });
    }
    h.sim.go("closer", function* () {
      yield* sleep(10);
      ch.close();
    });
    h.run();
    expect(h.lines()).toEqual(["10:a-false", "10:b-false"]);
  });

  it("send on a closed channel panics that process and ends the run with a diagnosis", () => {
    const h = harness();
    const ch = h.sim.chan<number>("updates");
    h.sim.go("writer", function* () {
      ch.close();
      yield* send(ch, 1);
    });
    const r = h.run();
    expect(r.verdict).toBe("panic");
    expect(r.diagnosis).toContain("panic in process writer at t=0ms: GoPanic: send on closed channel updates");
    expect(r.diagnosis).toContain("replay: kubelet-sim run");
  });

  it("a blocked sender panics when the channel is closed under it", () => {
    const h = harness();
    const ch = h.sim.chan<number>("c");
    h.sim.go("sender", function* () {
      yield* send(ch, 1);
    });
    h.sim.go("closer", function* () {
      yield* sleep(5);
      ch.close();
    });
    const r = h.run();
    expect(r.verdict).toBe("panic");
    expect(r.diagnosis).toContain("process sender at t=5ms");
  });

  it("close of a closed channel panics", () => {
    const h = harness();
    const ch = h.sim.chan<number>("c");
    h.sim.go("p", function* () {
      ch.close();
      ch.close();
      yield* sleep(1);
    });
    expect(h.run().diagnosis).toContain("close of closed channel c");
  });

  it("a nil channel blocks forever: a deadlock, listed like Go's", () => {
    const h = harness();
    h.sim.go("stuck", function* () {
      yield* recv(null);
    });
    const r = h.run();
    expect(r.verdict).toBe("deadlock");
    expect(r.diagnosis).toMatch(/all processes are asleep - deadlock!.*\n  stuck \[chan receive \(nil chan\)\]/);
  });

  it("a blocked daemon is not a deadlock: the run is quiescent", () => {
    const h = harness();
    const ch = h.sim.chan<number>("work");
    h.sim.go("worker", function* () {
      for (;;) yield* recv(ch);
    }, { daemon: true });
    expect(h.run().verdict).toBe("quiescent");
  });
});

describe("select", () => {
  it("takes default when nothing is ready", () => {
    const h = harness();
    const ch = h.sim.chan<number>("c");
    h.sim.go("p", function* () {
      const r = yield* select([recvCase(ch)], { default: true });
      h.log(`idx${r.index}`);
    });
    h.run();
    expect(h.lines()).toEqual(["0:idx-1"]);
  });

  it("nil cases are never ready", () => {
    const h = harness();
    const ch = h.sim.chan<number>("c", 1);
    h.sim.go("p", function* () {
      yield* send(ch, 3);
      const r = yield* select([recvCase(null), sendCase(null, 1), recvCase(ch)]);
      h.log(`idx${r.index}=${r.value}`);
    });
    h.run();
    expect(h.lines()).toEqual(["0:idx2=3"]);
  });

  it("blocks until a case becomes ready, then reports that case", () => {
    const h = harness();
    const a = h.sim.chan<string>("a");
    const b = h.sim.chan<string>("b");
    h.sim.go("selector", function* () {
      const r = yield* select([recvCase(a), recvCase(b)]);
      h.log(`case${r.index}=${r.value}`);
    });
    h.sim.go("feeder", function* () {
      yield* sleep(30);
      yield* send(b, "hello");
      h.log("fed");
    });
    h.run();
    expect(h.lines()).toEqual(["30:fed", "30:case1=hello"]);
  });

  it("a select send case rendezvouses with a receiver", () => {
    const h = harness();
    const out = h.sim.chan<number>("out");
    h.sim.go("selector", function* () {
      const r = yield* select([sendCase(out, 42)]);
      h.log(`sent-case${r.index}`);
    });
    h.sim.go("receiver", function* () {
      yield* sleep(5);
      h.log(`got${(yield* recv(out)).value}`);
    });
    h.run();
    expect(h.lines()).toEqual(["5:got42", "5:sent-case0"]);
  });

  it("under fifo, the first ready case fires; under random, every ready case is taken sometimes", () => {
    const pick = (strategy: "fifo" | "random", seed: number) => {
      const h = harness({ name: strategy }, seed);
      const chans = [0, 1, 2].map((i) => h.sim.chan<number>(`c${i}`, 1));
      let idx = -2;
      h.sim.go("p", function* () {
        for (const c of chans) yield* send(c, 1);
        idx = (yield* select(chans.map((c) => recvCase(c)))).index;
      });
      h.run();
      return idx;
    };
    expect(new Set([1, 2, 3, 4, 5].map((s) => pick("fifo", s)))).toEqual(new Set([0]));
    expect(new Set(Array.from({ length: 40 }, (_, s) => pick("random", s)))).toEqual(new Set([0, 1, 2]));
  });

  it("a select whose other cases were abandoned does not steal later values", () => {
    const h = harness();
    const a = h.sim.chan<number>("a");
    const b = h.sim.chan<number>("b");
    h.sim.go("selector", function* () {
      yield* select([recvCase(a), recvCase(b)]);
      h.log("selected");
    });
    h.sim.go("feeder", function* () {
      yield* send(a, 1);
      yield* sleep(1);
      const r = yield* select([sendCase(b, 2)], { default: true });
      h.log(`b-send-index${r.index}`);
    });
    h.run();
    expect(h.lines()).toEqual(["0:selected", "1:b-send-index-1"]);
  });

  // A select on the same cases array again reuses its waiters (perform.ts requeueSelect): a waiter
  // out of its queue is queued again, one that is the last of its queue revives in place, and one
  // with another waiter behind it must not, or it would overtake that waiter.
  it("a select repeated on the same cases keeps its place behind waiters queued after its last one", () => {
    const h = harness();
    const a = h.sim.chan<number>("a");
    const b = h.sim.chan<number>("b");
    const cases = [recvCase(a), recvCase(b)];
    const wait = selectOp(cases);
    h.sim.go("looper", function* () {
      for (let i = 0; i < 3; i++) {
        const r = (yield again(wait)) as SelectResult;
        h.log(`looper-${r.index}-${String(r.value)}`);
      }
    });
    h.sim.go("other", function* () {
      yield* sleep(1);
      // Queued on b behind the looper's (dead after 2 ms) waiter, and on a after its waiter fired.
      const r = yield* select([recvCase(a), recvCase(b)]);
      h.log(`other-${r.index}-${String(r.value)}`);
    });
    h.sim.go("feeder", function* () {
      yield* sleep(2);
      yield* send(a, 1); // the looper (first on a)
      yield* sleep(1);
      yield* send(b, 2); // the other: the looper's waiter on b is not the last of b's queue
      yield* sleep(1);
      yield* send(b, 3); // the looper
      yield* sleep(1);
      yield* send(a, 4); // the looper, again the only one waiting
    });
    expect(h.run().verdict).toBe("completed");
    expect(h.lines()).toEqual(["2:looper-0-1", "3:other-1-2", "4:looper-1-3", "5:looper-0-4"]);
  });

  it("a repeated select's fired waiter queues again behind a waiter that came meanwhile", () => {
    const h = harness();
    const a = h.sim.chan<number>("a");
    const stop = h.sim.chan<number>("stop", 1);
    const cases = [recvCase(stop), recvCase(a)];
    const wait = selectOp(cases);
    h.sim.go("looper", function* () {
      for (let i = 0; i < 2; i++) {
        const r = (yield again(wait)) as SelectResult;
        h.log(`looper-${r.index}-${String(r.value)}`);
        yield* sleep(2);
      }
    });
    h.sim.go("other", function* () {
      yield* sleep(1);
      const r = yield* recv(a);
      h.log(`other-${String(r.value)}`);
    });
    h.sim.go("feeder", function* () {
      yield* send(a, 1); // the looper
      yield* sleep(3);
      yield* send(a, 2); // the other, queued at 1 ms; the looper queued again at 2 ms
      yield* send(a, 3); // the looper
    });
    expect(h.run().verdict).toBe("completed");
    expect(h.lines()).toEqual(["0:looper-1-1", "3:other-2", "3:looper-1-3"]);
  });
});
