// The simulated kubelet's configuration as the parsed scenario carries it (schema/kubelet.ts
// parses it): durations in milliseconds under `...Ms` names, every default filled in.
import type { RangeMs } from "./common.ts";

/** The feature gates the models read: the minor version that introduced each, and when it became on by default. */
export const FEATURE_GATES = {
  SidecarContainers: { since: 28, onByDefaultFrom: 29 },
  PodReadyToStartContainersCondition: { since: 28, onByDefaultFrom: 29 },
  PodLifecycleSleepAction: { since: 29, onByDefaultFrom: 30 },
  EventedPLEG: { since: 25, onByDefaultFrom: null },
} as const satisfies Record<string, { since: number; onByDefaultFrom: number | null }>;

export type FeatureGate = keyof typeof FEATURE_GATES;
export const FEATURE_GATE_NAMES = Object.keys(FEATURE_GATES) as FeatureGate[];

/** The gate's default in a kubelet of this minor version, as the kubelet's feature table sets it. */
export function featureGateDefault(gate: FeatureGate, minor: number): boolean {
  const from = FEATURE_GATES[gate].onByDefaultFrom;
  return from !== null && minor >= from;
}

/** The older spelling of node.capacity's cpu and memory, still read: each given value goes there. */
export interface Allocatable {
  cpuMilli: number | undefined;
  memoryBytes: number | undefined;
}

/** A device plugin on the node (pkg/kubelet/cm/devicemanager). */
export interface DevicePluginConfig {
  resource: string;
  devices: number;
  registerAfter: RangeMs;
}

/** The kubelet: its version (as written, and its minor and patch numbers) and KubeletConfiguration. */
export interface KubeletConfig {
  version: string;
  minor: number;
  patch: number;
  runOnce: boolean;
  nodeName: string;
  nodeIP: string;
  syncFrequencyMs: number;
  fileCheckFrequencyMs: number;
  httpCheckFrequencyMs: number;
  nodeStatusUpdateFrequencyMs: number;
  runtimeRequestTimeoutMs: number;
  maxPods: number;
  serializeImagePulls: boolean;
  housekeepingPeriodMs: number;
  plegRelistPeriodMs: number;
  plegRelistThresholdMs: number;
  statusSyncPeriodMs: number;
  backOffPeriodMs: number;
  maxContainerBackOffMs: number;
  allocatable?: Allocatable | undefined;
  devicePlugins: DevicePluginConfig[];
  /** Every gate the models read, set or defaulted for the version. */
  featureGates: Record<FeatureGate, boolean>;
  /** Model variants by name, as the scenario set them. */
  variants: Record<string, boolean | undefined>;
}
