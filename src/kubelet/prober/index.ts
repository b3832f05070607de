// pkg/kubelet/prober: the probe manager, its workers, the prober and the results managers.
export { ProberManager, type ProberManagerOptions, type ProberStatusManager } from "./prober_manager.ts";
export { Worker, toWorkerPodStatus, type WorkerHost } from "./worker.ts";
export { Prober, criProbeRunner, maxProbeRetries, probeSpec, type ProbeRunner, type ProbeRequest, type ProbeRunResult } from "./prober.ts";
export { ResultsManager, updatesChannelCapacity, type Update } from "./results/results_manager.ts";
export { proberEra, type ProberEra } from "./era.ts";
export type { ProbeType, Result, ProbeOutcome } from "./worker_core.ts";
