// Wall-clock timing for benchmarks only (src/bench is exempt from the host-time ban).
import { performance } from "node:perf_hooks";

export interface Timed<T> {
  value: T;
  seconds: number;
}

/** Runs fn `repeats` times and keeps the fastest: the least disturbed by the other core's load. */
export function best<T>(repeats: number, fn: () => T): Timed<T> {
  let bestRun: Timed<T> | null = null;
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    const value = fn();
    const seconds = (performance.now() - start) / 1000;
    if (bestRun === null || seconds < bestRun.seconds) bestRun = { value, seconds };
  }
  return bestRun!;
}
