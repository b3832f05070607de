// The simulated container runtime (CRI): sandboxes, containers, images, scripted behaviours.
export * from "./api.ts";
export * from "./errors.ts";
export * from "./methods.ts";
export * from "./config.ts";
export * from "./program.ts";
export { FaultInjector, type CallSite } from "./faults.ts";
export type { ExecPurpose, NetworkOutcome } from "./exec_ops.ts";
export type { RuntimeRestart, NodeReboot } from "./node_faults.ts";
export type { RuntimeService, ImageManagerService, ContainerNetwork } from "./services.ts";
export { SimRuntime, type RuntimeConfigInput } from "./runtime.ts";
export { normalizeImage, imageRefOf, type RuntimeStore, type SandboxRecord, type ContainerRecord } from "./store.ts";
