// The simulated runtime's configuration: latency per CRI method, images, injected faults (no
// upstream file; the shape matches the scenario schema's `runtime` section, so a compiled scenario
// passes straight in).
import type { Rng } from "../sim/index.ts";
import { CRI_METHODS, type CriMethod } from "./methods.ts";
import type { BehaviourTemplates } from "./program.ts";

/** A fixed duration (minMs === maxMs) or a seeded uniform range, in virtual ms. */
export interface RangeMs {
  minMs: number;
  maxMs: number;
}

export type ImagePullError = "notFound" | "unauthorized" | "failed";

export interface ImagePullFailure {
  error: ImagePullError;
  /** The runtime's error text; a realistic one per kind when null. */
  message: string | null;
  /** Fail only the first N pulls, then succeed; every pull when null. */
  times: number | null;
  fromMs: number;
  toMs: number | null;
}

export interface ImageConfig {
  /** How long a pull takes; the PullImage latency when null. */
  pullTime: RangeMs | null;
  present: boolean;
  fail: ImagePullFailure | null;
}

/** One scripted fault, FakeRuntimeService.InjectError in time (see faults.ts for the matching rules). */
export interface CriFault {
  method: CriMethod;
  /** "namespace/name"; any pod when null. */
  pod: string | null;
  /** A container name (container methods only); any when null. */
  container: string | null;
  /** Start failing at the Nth matching call (1 = the first). */
  call: number;
  /** How many matching calls fail; every one from `call` on when null. */
  times: number | null;
  fromMs: number;
  toMs: number | null;
  /** error: fail after the call's latency; timeout: hang until the kubelet's request timeout. */
  kind: "error" | "timeout";
  message: string;
}

export interface RuntimeConfig {
  latency: Readonly<Record<CriMethod, RangeMs>>;
  pauseImage: string;
  images: Readonly<Record<string, ImageConfig>>;
  faults: readonly CriFault[];
  containerEventDelay: RangeMs;
  /**
   * Whether PodSandboxStatus carries its serving time (ns) and the sandbox's container statuses,
   * as CRI-O does for the Evented PLEG; containerd does not (its brief attempt, #10740, was
   * reverted in #11323 for setting the timestamp without the statuses).
   */
  podSandboxStatusTimestamp: boolean;
}

/** Options of the runtime itself, beyond what a scenario configures. */
export interface RuntimeOptions {
  /** The kubelet's ContainerID type ("containerd://c-1"). */
  runtimeName: string;
  /** The kubelet's --runtime-request-timeout (2m): how long a hung call takes to fail. */
  requestTimeoutMs: number;
  /** The first three octets of pod IPs; sandboxes get .2, .3, ... in creation order. */
  podSubnetPrefix: string;
  /** Prepended to sandbox and container IDs ("node-b-c-1"), so that IDs are unique in a cluster; "" for one node. */
  idPrefix?: string;
  /**
   * Docker behind dockershim (variant dockerFailedStartStaysCreated, race R07): a failed start
   * leaves the container "Created" with exit code 128 (see dockershim.ts). Off: containerd's EXITED
   * 128 StartError.
   */
  failedStartStaysCreated: boolean;
  /** A cluster's table of workload replicas' templates (node/adopted_behaviours.ts); none on one node. */
  templates?: BehaviourTemplates;
}

export const DEFAULT_RUNTIME_OPTIONS: RuntimeOptions = {
  runtimeName: "containerd",
  requestTimeoutMs: 120_000,
  podSubnetPrefix: "10.244.0",
  failedStartStaysCreated: false,
};

const fixed = (ms: number): RangeMs => ({ minMs: ms, maxMs: ms });

/**
 * Default latencies: fixed values of the order a local containerd shows (and the scenario schema's
 * defaults): sandboxes 500ms (netns + CNI), create/start 100ms, stop 10ms plus the time the process
 * takes to exit, list/status 1-2ms, a pull 1s.
 */
export const DEFAULT_LATENCY: Readonly<Record<CriMethod, RangeMs>> = {
  Version: fixed(1),
  Status: fixed(1),
  RunPodSandbox: fixed(500),
  StopPodSandbox: fixed(100),
  RemovePodSandbox: fixed(50),
  PodSandboxStatus: fixed(1),
  ListPodSandbox: fixed(2),
  CreateContainer: fixed(100),
  StartContainer: fixed(100),
  StopContainer: fixed(10),
  RemoveContainer: fixed(50),
  ListContainers: fixed(2),
  ContainerStatus: fixed(1),
  UpdateContainerResources: fixed(10),
  ExecSync: fixed(10),
  GetContainerEvents: fixed(0),
  ListImages: fixed(2),
  ImageStatus: fixed(1),
  PullImage: fixed(1000),
  RemoveImage: fixed(50),
};

export const DEFAULT_PAUSE_IMAGE = "registry.k8s.io/pause:3.9";

/** A full configuration from a partial one; latency may be given per method. */
export function resolveRuntimeConfig(partial: Partial<Omit<RuntimeConfig, "latency">> & { latency?: Partial<Record<CriMethod, RangeMs>> } = {}): RuntimeConfig {
  const latency = {} as Record<CriMethod, RangeMs>;
  for (const m of CRI_METHODS) latency[m] = checkRange(partial.latency?.[m] ?? DEFAULT_LATENCY[m], m);
  return {
    latency,
    pauseImage: partial.pauseImage ?? DEFAULT_PAUSE_IMAGE,
    images: partial.images ?? {},
    faults: partial.faults ?? [],
    containerEventDelay: partial.containerEventDelay ?? fixed(0),
    podSandboxStatusTimestamp: partial.podSandboxStatusTimestamp ?? false,
  };
}

/** Every method at one fixed latency (tests that want round numbers). */
export function uniformLatency(ms: number): Record<CriMethod, RangeMs> {
  const out = {} as Record<CriMethod, RangeMs>;
  for (const m of CRI_METHODS) out[m] = fixed(ms);
  return out;
}

/** A value from the range: fixed ranges draw nothing, so they never shift the stream. */
export function drawMs(rng: Rng, range: RangeMs): number {
  return range.minMs === range.maxMs ? range.minMs : rng.int(range.minMs, range.maxMs);
}

function checkRange(r: RangeMs, what: string): RangeMs {
  if (!Number.isInteger(r.minMs) || !Number.isInteger(r.maxMs) || r.minMs < 0 || r.maxMs < r.minMs) {
    throw new RangeError(`latency of ${what}: bad range [${r.minMs}, ${r.maxMs}]`);
  }
  return r;
}
