// Named pseudo-random streams derived from the run seed (seedrandom's Alea generator).
// One stream per component, so that a new draw in the prober never shifts the runtime's draws.
// Like TigerBeetle's stdx/prng, the facade offers integers, ratios, pick, shuffle and weighted
// choice, and never hands a raw float to a model.
import seedrandom from "seedrandom";

const TWO_32 = 0x1_0000_0000;

export class Rng {
  private readonly next: () => number;

  constructor(readonly streamName: string, seed: string) {
    const prng = seedrandom.alea(seed);
    this.next = () => prng.int32() >>> 0;
  }

  /** A uniform integer in [0, 2^32). */
  uint32(): number {
    return this.next();
  }

  /** A uniform integer in [0, n), without modulo bias. */
  below(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > TWO_32) throw new RangeError(`Rng.below: bad bound ${n}`);
    const limit = TWO_32 - (TWO_32 % n);
    for (let tries = 0; tries < 64; tries++) {
      const x = this.next();
      if (x < limit) return x % n;
    }
    // Probability of reaching here is below 2^-64; stay deterministic rather than loop forever.
    return this.next() % n;
  }

  /** A uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    if (hi < lo) throw new RangeError(`Rng.int: empty range [${lo}, ${hi}]`);
    return lo + this.below(hi - lo + 1);
  }

  /** True with probability numerator/denominator. */
  ratio(numerator: number, denominator: number): boolean {
    if (numerator < 0 || denominator <= 0 || numerator > denominator) {
      throw new RangeError(`Rng.ratio: bad ratio ${numerator}/${denominator}`);
    }
    return this.below(denominator) < numerator;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("Rng.pick: empty list");
    return items[this.below(items.length)]!;
  }

  /** A new array: a uniform permutation of items (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const tmp = out[i]!;
      out[i] = out[j]!;
      out[j] = tmp;
    }
    return out;
  }

  /** An index drawn with probability proportional to its (non-negative integer) weight. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) {
      if (!Number.isInteger(w) || w < 0) throw new RangeError(`Rng.weighted: bad weight ${w}`);
      total += w;
    }
    if (total === 0) throw new RangeError("Rng.weighted: all weights are zero");
    let x = this.below(total);
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i]!;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
}

/** The seed string of a named stream; changing a stream's name changes only that stream. */
export function streamSeed(runSeed: number | string, streamName: string): string {
  return `kubelet-sim/${String(runSeed)}/${streamName}`;
}

/** Hands out one Rng per stream name, created on first use. */
export class RngStreams {
  private readonly streams = new Map<string, Rng>();

  constructor(private readonly runSeed: number | string) {}

  get(streamName: string): Rng {
    let rng = this.streams.get(streamName);
    if (rng === undefined) {
      rng = new Rng(streamName, streamSeed(this.runSeed, streamName));
      this.streams.set(streamName, rng);
    }
    return rng;
  }
}
