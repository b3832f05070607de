// Strategy specs as users write them ("fifo", "random", "pct", "pct:3", "pct:3:5000", "pos") and the
// factory that builds a strategy for one run.
import { FifoStrategy } from "./fifo.ts";
import { RandomStrategy } from "./random.ts";
import { PctStrategy } from "./pct.ts";
import { PosStrategy } from "./pos.ts";
import { ReplayStrategy } from "./replay.ts";
import { TapeStrategy } from "./tape.ts";
import type { Strategy } from "./strategy.ts";
import type { RngStreams } from "../rng.ts";
import type { ChoiceLog } from "../choices.ts";

export type { Strategy, ProcRef, ProcList } from "./strategy.ts";
export { ReplayDivergence, StrategyPause } from "./strategy.ts";
export { FifoStrategy, RandomStrategy, PctStrategy, PosStrategy, ReplayStrategy, TapeStrategy };

export type StrategySpec =
  | { name: "fifo" }
  | { name: "random" }
  | { name: "pct"; depth: number; steps: number }
  | { name: "pos" }
  | { name: "replay"; tape: ChoiceLog; whenExhausted: "diverge" | "fifo" | "pause" }
  /** A tape followed while it fits, then `then` (explore's guided strategy; never parsed from text). */
  | { name: "tape"; tape: ChoiceLog; then: StrategySpec };

export const DEFAULT_PCT_DEPTH = 3;
export const DEFAULT_PCT_STEPS = 1000;

/** Parses "fifo" | "random" | "pct[:depth[:steps]]" | "pos". Throws a message fit for a user. */
export function parseStrategy(text: string): StrategySpec {
  const parts = text.trim().split(":");
  const name = parts[0];
  if (name === "fifo" && parts.length === 1) return { name: "fifo" };
  if (name === "random" && parts.length === 1) return { name: "random" };
  if (name === "pos" && parts.length === 1) return { name: "pos" };
  if (name === "pct" && parts.length <= 3) {
    const depth = parts[1] === undefined ? DEFAULT_PCT_DEPTH : Number(parts[1]);
    const steps = parts[2] === undefined ? DEFAULT_PCT_STEPS : Number(parts[2]);
    if (Number.isInteger(depth) && depth >= 1 && Number.isInteger(steps) && steps >= 1) {
      return { name: "pct", depth, steps };
    }
  }
  throw new Error(`unknown strategy "${text}": expected fifo, random, pct, pct:DEPTH, pct:DEPTH:STEPS or pos`);
}

export function formatStrategy(spec: StrategySpec): string {
  if (spec.name === "pct") return `pct:${spec.depth}:${spec.steps}`;
  if (spec.name === "tape") return `tape+${formatStrategy(spec.then)}`;
  return spec.name;
}

/** The scheduler's randomness comes from its own stream, apart from every model's. */
export function makeStrategy(spec: StrategySpec, streams: RngStreams): Strategy {
  switch (spec.name) {
    case "fifo":
      return new FifoStrategy();
    case "random":
      return new RandomStrategy(streams.get("sched"));
    case "pct":
      return new PctStrategy(streams.get("sched"), { depth: spec.depth, steps: spec.steps });
    case "pos":
      return new PosStrategy(streams.get("sched"));
    case "replay":
      return new ReplayStrategy(spec.tape, { whenExhausted: spec.whenExhausted });
    case "tape":
      return new TapeStrategy(spec.tape, makeStrategy(spec.then, streams));
  }
}
