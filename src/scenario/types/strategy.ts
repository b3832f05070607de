// How a run explores interleavings, and swarm exploration's ranges, as the parsed scenario carries
// them (schema/strategy.ts parses them).
import type { RangeMs } from "./common.ts";
import type { CriFault, CriMethod } from "./runtime.ts";

export type ScenarioStrategy = { name: "fifo" } | { name: "random" } | { name: "pct"; depth: number; steps: number } | { name: "pos" };

/** A fault each run may switch on, with its chance. */
export interface SwarmFault {
  percent: number;
  fault: CriFault;
}

export interface SwarmConfig {
  /** `swarm: auto`: knobs derived from the scenario itself (explore/knobs.ts) rather than ranges of its own. */
  auto: boolean;
  latency: Partial<Record<CriMethod, RangeMs>>;
  faults: SwarmFault[];
  jitterMs: number;
  apiserverLatency?: RangeMs | undefined;
}
