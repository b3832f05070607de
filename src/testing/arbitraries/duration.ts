// Durations as scenario files write them ("1.5s"), drawn in whole steps and shrinking toward the
// shortest.
import fc from "fast-check";
import { formatDuration } from "../../sim/duration.ts";

/** Milliseconds in [minMs, maxMs], a multiple of stepMs; shrinks toward minMs. */
export function durationMsArb(minMs: number, maxMs: number, stepMs = 100): fc.Arbitrary<number> {
  if (!(stepMs > 0 && minMs >= 0 && maxMs >= minMs)) throw new RangeError(`durationMsArb: bad range [${minMs}, ${maxMs}] step ${stepMs}`);
  return fc.integer({ min: Math.ceil(minMs / stepMs), max: Math.floor(maxMs / stepMs) }).map((n) => n * stepMs);
}

/** The same, written as a duration string. */
export function durationArb(minMs: number, maxMs: number, stepMs = 100): fc.Arbitrary<string> {
  return durationMsArb(minMs, maxMs, stepMs).map(formatDuration);
}
