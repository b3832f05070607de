import { describe, expect, it } from "vitest";
import { recv, sleep, select, recvCase } from "../../src/sim/index.ts";
import { harness } from "./helpers.ts";

describe("timers and tickers", () => {
  it("a ticker nobody reads keeps one tick and drops the rest (capacity 1)", () => {
    const h = harness();
    const t = h.sim.newTicker("tick", 1000);
    h.sim.go("slow", function* () {
      yield* sleep(3500);
      for (let i = 0; i < 2; i++) h.log(`tick@${(yield* recv(t.C)).value}`);
      t.stop();
    });
    h.run();
    // Ticks at 1000 (kept), 2000 and 3000 (dropped), then 4000 read on time.
    expect(h.lines()).toEqual(["3500:tick@1000", "4000:tick@4000"]);
  });

  it("ticks keep their phase after a drop (900 waits in C, 1200 is dropped)", () => {
    const h = harness();
    const t = h.sim.newTicker("tick", 300);
    h.sim.go("reader", function* () {
      for (let i = 0; i < 3; i++) {
        const v = (yield* recv(t.C)).value;
        h.log(`got${v}`);
        yield* sleep(500);
      }
      t.stop();
    });
    h.run();
    expect(h.lines()).toEqual(["300:got300", "800:got600", "1300:got900"]);
  });

  it("Timer.Stop before it fires prevents the tick and reports true; after, false", () => {
    const h = harness();
    const t1 = h.sim.newTimer("t1", 100);
    const t2 = h.sim.newTimer("t2", 10);
    h.sim.go("p", function* () {
      h.log(`stop1=${t1.stop()}`);
      yield* sleep(20);
      h.log(`stop2=${t2.stop()}`);
      const r = yield* select([recvCase(t1.C), recvCase(t2.C)], { default: true });
      h.log(`case${r.index}`);
      yield* sleep(200);
      h.log(`t1-len=${t1.C.length}`);
    });
    h.run();
    expect(h.lines()).toEqual(["0:stop1=true", "20:stop2=false", "20:case1", "220:t1-len=0"]);
  });

  it("Timer.Reset re-arms from now", () => {
    const h = harness();
    const t = h.sim.newTimer("t", 100);
    h.sim.go("p", function* () {
      yield* sleep(50);
      h.log(`reset=${t.reset(100)}`);
      h.log(`fired@${(yield* recv(t.C)).value}`);
    });
    h.run();
    expect(h.lines()).toEqual(["50:reset=true", "150:fired@150"]);
  });

  it("after() fires once", () => {
    const h = harness();
    h.sim.go("p", function* () {
      const c = h.sim.after("deadline", 250);
      h.log(`at${(yield* recv(c)).value}`);
    });
    expect(h.run().verdict).toBe("completed");
    expect(h.lines()).toEqual(["250:at250"]);
  });

  it("the until bound stops the clock exactly there", () => {
    const h = harness({ name: "fifo" }, 1, 5000);
    h.sim.newTicker("tick", 1000);
    const r = h.run();
    expect(r.verdict).toBe("until");
    expect(r.endMs).toBe(5000);
  });

  // A tick re-arms the ticker: its next tick takes its place among the instant's entries as a new
  // entry would, after every entry scheduled before the tick (a ticker that re-arms in the entry
  // that fired, as tried in docs/BENCHMARKS-history.md "Cluster steady loops", must keep this order).
  it("a ticker's next tick fires after timers armed before the tick, before those armed after", () => {
    for (const armAtMs of [50, 150]) {
      const h = harness();
      const t = h.sim.newTicker("tick", 100);
      h.sim.go("p", function* () {
        yield* sleep(armAtMs);
        const other = h.sim.newTimer("other", 200 - armAtMs);
        if (armAtMs < 150) yield* sleep(150 - armAtMs);
        h.log(`buffered@${(yield* recv(t.C)).value}`);
        // Both are due at 200: the first to fire wakes the select.
        const r = yield* select([recvCase(t.C), recvCase(other.C)]);
        h.log(`first=${r.index === 0 ? "ticker" : "timer"}`);
        t.stop();
      });
      h.run();
      expect(h.lines()).toEqual(["150:buffered@100", `200:first=${armAtMs < 100 ? "timer" : "ticker"}`]);
    }
  });

  // A timer is its own entry in the kernel's queue (timer.ts SelfTimer): one stopped and armed
  // again before its old instant is still queued there, cancelled, so that arming takes a plain
  // entry; armed once the old instant has passed, the timer is queued itself again.
  it("a timer reset again and again before and after its old instant fires each time as armed", () => {
    const h = harness();
    h.sim.go("p", function* () {
      const t = h.sim.newTimer("t", 100);
      yield* sleep(10);
      t.reset(20); // due 30; the old entry (100) stays queued, cancelled
      h.log(`a@${(yield* recv(t.C)).value}`);
      t.reset(30); // due 60, before 100: again a plain entry
      t.stop();
      t.reset(50); // due 80
      h.log(`b@${(yield* recv(t.C)).value}`);
      yield* sleep(40); // 120: the old entry has gone
      t.reset(10);
      h.log(`c@${(yield* recv(t.C)).value}`);
    });
    expect(h.run().verdict).toBe("completed");
    expect(h.lines()).toEqual(["30:a@30", "80:b@80", "130:c@130"]);
  });

  it("a ticker reset before its armed tick keeps the new period's phase, in order with a timer", () => {
    const h = harness();
    const t = h.sim.newTicker("tick", 100);
    h.sim.go("p", function* () {
      yield* sleep(50);
      t.reset(30); // ticks at 80, 110, 140, ...; the old 100 entry stays queued, cancelled
      const other = h.sim.newTimer("other", 60); // due 110, armed after the ticker's 110 tick
      for (let i = 0; i < 3; i++) h.log(`tick@${(yield* recv(t.C)).value}`);
      const r = yield* select([recvCase(t.C), recvCase(other.C)]);
      h.log(`then=${r.index}@${r.value}`);
      t.stop();
    });
    h.run();
    expect(h.lines()).toEqual(["80:tick@80", "110:tick@110", "140:tick@140", "140:then=1@110"]);
  });
});
