// wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0) as the reflector uses it.
import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/sim/index.ts";
import { ExponentialBackoffManager, REFLECTOR_BACKOFF } from "../../../src/kubelet/config/index.ts";
import { jitter } from "../../../src/kubelet/config/wait_backoff.ts";

function manager(jitterFactor: number) {
  let now = 0;
  const m = new ExponentialBackoffManager({ ...REFLECTOR_BACKOFF, jitter: jitterFactor }, () => now, new Rng("t", "seed"));
  return { m, at: (ms: number) => { now = ms; } };
}

describe("reflector backoff", () => {
  it("doubles from 800 ms and stops at the 30 s cap (no jitter)", () => {
    const { m, at } = manager(0);
    const out: number[] = [];
    for (let i = 0; i < 9; i++) {
      at(i * 1000);
      out.push(m.next());
    }
    expect(out).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000]);
  });

  it("starts over at 800 ms after more than 2 minutes without a backoff", () => {
    const { m, at } = manager(0);
    at(0); m.next(); at(1000); m.next(); at(2000); m.next();
    at(2000 + 120_000);
    expect(m.next()).toBe(6400); // exactly 2 min is not "more than"
    at(2000 + 120_000 + 120_001);
    expect(m.next()).toBe(800);
  });

  it("with upstream's jitter 1.0 every delay is in [d, 2d), and the cap is [30 s, 60 s)", () => {
    const { m, at } = manager(1.0);
    const base = [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000];
    base.forEach((d, i) => {
      at(i);
      const got = m.next();
      expect(got).toBeGreaterThanOrEqual(d);
      expect(got).toBeLessThan(2 * d);
    });
  });

  it("wait.Jitter treats a non-positive factor as 1.0", () => {
    const rng = new Rng("t", "x");
    for (let i = 0; i < 50; i++) {
      const v = jitter(1000, 0, rng);
      expect(v >= 1000 && v < 2000).toBe(true);
    }
  });
});
