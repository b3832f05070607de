import { describe, expect, it } from "vitest";
import { Backoff, MaxContainerBackOffMs, backOffPeriodMs, hasExpired, newContainerRestartBackOff } from "../../../src/kubelet/util/backoff.ts";

class FakeClock {
  constructor(public t = 0) {}
  nowMs(): number {
    return this.t;
  }
}

describe("Backoff (flowcontrol)", () => {
  it("kubelet parameters: 10, 20, 40, 80, 160, 300, 300 s", () => {
    const clock = new FakeClock();
    const b = newContainerRestartBackOff(clock);
    expect([backOffPeriodMs, MaxContainerBackOffMs]).toEqual([10_000, 300_000]);
    const seen: number[] = [];
    for (let i = 0; i < 7; i++) {
      clock.t += 1000;
      b.Next("k", clock.t);
      seen.push(b.Get("k") / 1000);
    }
    expect(seen).toEqual([10, 20, 40, 80, 160, 300, 300]);
  });

  it("Get is 0 without an entry; Reset and DeleteEntry remove it", () => {
    const b = new Backoff(new FakeClock(), 1000, 5000);
    expect(b.Get("x")).toBe(0);
    b.Next("x", 0);
    expect(b.hasEntry("x")).toBe(true);
    b.Reset("x");
    expect(b.hasEntry("x")).toBe(false);
    b.Next("x", 0);
    b.DeleteEntry("x");
    expect(b.Get("x")).toBe(0);
  });

  it("IsInBackOffSince compares now - eventTime with the backoff (strictly)", () => {
    const clock = new FakeClock(0);
    const b = new Backoff(clock, 10_000, 300_000);
    expect(b.IsInBackOffSince("k", 0)).toBe(false);
    b.Next("k", 0);
    clock.t = 9_999;
    expect(b.IsInBackOffSince("k", 0)).toBe(true);
    clock.t = 10_000;
    expect(b.IsInBackOffSince("k", 0)).toBe(false);
  });

  it("an entry expires strictly after 2×max since lastUpdate (now, not eventTime)", () => {
    const clock = new FakeClock(100_000);
    const b = new Backoff(clock, 10_000, 300_000);
    b.Next("k", 0); // lastUpdate = 100 s, not 0
    b.Next("k", 0);
    expect(b.lastUpdateMs("k")).toBe(100_000);
    expect(hasExpired(700_000, 100_000, 300_000)).toBe(false);
    expect(hasExpired(700_001, 100_000, 300_000)).toBe(true);
    b.Next("k", 700_001);
    expect(b.Get("k")).toBe(10_000);
  });

  it("GC drops entries not updated for more than 2×max", () => {
    const clock = new FakeClock(0);
    const b = new Backoff(clock, 10_000, 300_000);
    b.Next("old", 0);
    clock.t = 400_000;
    b.Next("new", 400_000);
    clock.t = 600_000;
    b.GC();
    expect([b.hasEntry("old"), b.hasEntry("new")]).toEqual([true, true]);
    clock.t = 600_001;
    b.GC();
    expect([b.hasEntry("old"), b.hasEntry("new")]).toEqual([false, true]);
  });

  it("GC drops every expired entry in one pass, however they lie among the live ones", () => {
    const clock = new FakeClock(0);
    const b = new Backoff(clock, 10_000, 300_000);
    const ids = ["a", "b", "c", "d", "e", "f"];
    const live = new Set(["c", "f"]);
    for (const id of ids) if (!live.has(id)) b.Next(id, 0);
    clock.t = 500_000;
    for (const id of live) b.Next(id, 500_000);
    clock.t = 600_001;
    b.GC();
    expect(ids.filter((id) => b.hasEntry(id))).toEqual(["c", "f"]);
    b.GC();
    expect(ids.filter((id) => b.hasEntry(id))).toEqual(["c", "f"]);
  });

  it("jitter needs an injected random source and stays within the factor", () => {
    expect(() => new Backoff(new FakeClock(), 1000, 10_000, { maxJitterFactor: 0.5 })).toThrow(/random/);
    const b = new Backoff(new FakeClock(), 1000, 10_000, { maxJitterFactor: 0.5, random: () => 0.5 });
    b.Next("k", 0);
    expect(b.Get("k")).toBe(1250);
    b.Next("k", 0);
    expect(b.Get("k")).toBe(2500 + 312); // 2×1250 plus jitter of the old value, truncated to ms
  });

  it("HasExpiredFunc can replace the expiry rule", () => {
    const clock = new FakeClock(0);
    const b = new Backoff(clock, 1000, 10_000, { hasExpired: () => true });
    b.Next("k", 0);
    b.Next("k", 0);
    expect(b.Get("k")).toBe(1000);
  });
});
