// The runtime's knobs: CRI latencies and injected faults, as a scenario's `runtime` section writes
// them. Shrinks toward the defaults (no latency set, no fault).
import fc from "fast-check";
import { durationArb } from "./duration.ts";

export const LATENCY_METHODS = ["PullImage", "RunPodSandbox", "CreateContainer", "StartContainer", "StopContainer"] as const;
export const FAULT_METHODS = ["PullImage", "CreateContainer", "StartContainer", "StopContainer", "RunPodSandbox", "ContainerStatus"] as const;

/** Some CRI latencies (each a fixed duration up to maxMs, default 5s). */
export function latencyArb(maxMs = 5000): fc.Arbitrary<Record<string, string>> {
  const entries = Object.fromEntries(LATENCY_METHODS.map((m) => [m, durationArb(0, maxMs, 50)])) as Record<(typeof LATENCY_METHODS)[number], fc.Arbitrary<string>>;
  return fc.record(entries, { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>;
}

/** One CRI fault, for one of the pods or any. */
export function faultArb(podNames: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record({
      method: fc.constantFrom(...FAULT_METHODS),
      pod: fc.option(fc.constantFrom(...(podNames.length > 0 ? podNames : ["none"])), { nil: undefined }),
      call: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      times: fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }),
      kind: fc.constantFrom("error", "timeout"),
    })
    .map((f) => ({
      method: f.method,
      ...(f.pod === undefined || podNames.length === 0 ? {} : { pod: f.pod }),
      ...(f.call === undefined ? {} : { call: f.call }),
      ...(f.times === undefined ? {} : { times: f.times }),
      kind: f.kind,
      message: `injected ${f.method} ${f.kind}`,
    }));
}
