// The scenario language's building blocks, as the parsed scenario carries them (schema/common.ts
// parses them). Types only, no zod: these are what the package declares.

/** A latency: either a fixed duration or a seeded range drawn uniformly per call. */
export interface RangeMs {
  minMs: number;
  maxMs: number;
}

/** An integer comparison: `2` means exactly 2, `{ min: 2 }` at least 2. */
export interface CountRange {
  min: number;
  max: number | null;
}
