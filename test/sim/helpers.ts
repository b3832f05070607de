// Shared helpers for kernel tests: build a Sim, run it, collect the "test" records.
import { Sim, MemorySink, type RunResult, type StrategySpec, type TraceRecord } from "../../src/sim/index.ts";

export interface Harness {
  sim: Sim;
  sink: MemorySink;
  log: (what: string, fields?: Record<string, unknown>) => void;
  run: () => RunResult;
  /** The "test" records as "t:what" strings, for compact assertions. */
  lines: () => string[];
}

export function harness(strategy: StrategySpec = { name: "fifo" }, seed: number | string = 1, untilMs = 60_000): Harness {
  const sink = new MemorySink();
  const sim = new Sim({ seed, strategy, sinks: [sink], bounds: { untilMs } });
  return {
    sim,
    sink,
    log: (what, fields) => void sim.emit("test", what, fields),
    run: () => sim.run(),
    lines: () =>
      sink.records
        .filter((r: TraceRecord) => r.component === "test")
        .map((r: TraceRecord) => `${r.t}:${r.kind}`),
  };
}
