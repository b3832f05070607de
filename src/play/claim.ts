// An order level's claim: at every timing its knobs allow, fifo keeps the invariant, so only an
// interleaving wins. The knobs' ranges are narrowed (scripts/update-play-levels.ts) until the claim
// can be checked exhaustively: every whole millisecond of every knob, in every combination, one
// fifo run each. The seed is no knob of an order level. This file enumerates those timings; the
// script and a test run them.
import type { TimingKnob, TimingValues } from "./timing.ts";

/** The most runs an order level's exhaustive check may take (the product of its knobs' range sizes). */
export const MAX_CLAIM_RUNS = 48;

/** The knobs an order level offers: its timing knobs, not the seed. */
export function claimKnobs(knobs: readonly TimingKnob[]): TimingKnob[] {
  return knobs.filter((k) => k.kind !== "seed");
}

/** How many timings the claim covers: the product of the knobs' range sizes. */
export function claimSize(knobs: readonly TimingKnob[]): number {
  return claimKnobs(knobs).reduce((n, k) => n * (k.maxMs - k.minMs + 1), 1);
}

/** Every timing the knobs allow, each knob at every whole millisecond of its range; throws past MAX_CLAIM_RUNS. */
export function claimTimings(knobs: readonly TimingKnob[]): TimingValues[] {
  const ks = claimKnobs(knobs);
  const size = claimSize(ks);
  if (size > MAX_CLAIM_RUNS) throw new RangeError(`the knobs allow ${size} timings, more than the ${MAX_CLAIM_RUNS} an exhaustive check runs`);
  let out: Record<string, number>[] = [{}];
  for (const k of ks) {
    const next: Record<string, number>[] = [];
    for (const v of out) for (let ms = k.minMs; ms <= k.maxMs; ms++) next.push({ ...v, [k.id]: ms });
    out = next;
  }
  return out;
}
