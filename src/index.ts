// The library entry point of kubelet-sim. The kernel is also exported alone as "kubelet-sim/sim".
export * as sim from "./sim/index.ts";
export { VERSION } from "./version.ts";
export { simulate, type SimulateOptions, type SimulationResult } from "./simulate.ts";
export { INVARIANTS, makeMonitors, type InvariantInfo, type InvariantMonitor, type Violation } from "./check/invariants.ts";
export { ALL_INVARIANTS, resolveInvariantIds } from "./check/invariants/index.ts";
export * from "./testing/index.ts";
