// The seeds of an exploration: run i's seed is a function of the exploration seed S and i alone,
// drawn from its own seeded stream, so the set of runs never depends on how many worker threads
// share them or how they are split into shards.
import { Rng, streamSeed } from "../sim/rng.ts";

/** Run i's seed, a uint32 from the stream "explore/run/i" of seed S (random access, no state). */
export function runSeed(exploreSeed: number, index: number): number {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`runSeed: bad run index ${index}`);
  return new Rng("explore", streamSeed(exploreSeed, `explore/run/${index}`)).uint32();
}

export interface Shard {
  /** 1-based, as written on the command line (`--shard 2/3`). */
  index: number;
  count: number;
}

/** "2/3" → { index: 2, count: 3 }; throws a message fit for a user. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(Number.isInteger(index) && Number.isInteger(count) && count >= 1 && index >= 1 && index <= count)) {
    throw new Error(`bad shard "${text}": expected i/n with 1 <= i <= n, such as 1/4`);
  }
  return { index, count };
}

/** The run indices of a shard among runs 0..runs-1: every n-th, starting at i-1 (round robin). */
export function shardIndices(runs: number, shard: Shard = { index: 1, count: 1 }): number[] {
  const out: number[] = [];
  for (let i = shard.index - 1; i < runs; i += shard.count) out.push(i);
  return out;
}
