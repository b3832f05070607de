// pkg/kubelet/status: the status manager (cache + sync loop), its pure helpers and generate.go.
export { StatusManager, syncPeriodMs, legacyPodStatusChannelCapacity, podRef } from "./status_manager.ts";
export type { StatusManagerOptions, VersionedPodStatus, PodStatusSyncRequest } from "./status_manager.ts";
export { statusSyncLoop, syncBatch, syncPod, needsUpdate, canBeDeleted, needsReconcile, PatchPodStatus, type PatchResult } from "./status_sync.ts";
export * from "./status_helpers.ts";
export * from "./generate.ts";
export { terminatedPodStatus, hasPodInitialized, initializedContainers } from "./terminate.ts";
export { statusEra, type StatusEra } from "./era.ts";
export { metav1Now, parseMetaTime, rfc3339Copy, formatRFC3339 } from "./metatime.ts";
export { podManagerWithoutStaticPods, type PodManager, type PodDeletionSafetyProvider, type StatusClient } from "./interfaces.ts";
