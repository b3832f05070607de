// The simulated container runtime's configuration as the parsed scenario carries it
// (schema/runtime.ts parses it).
import type { RangeMs } from "./common.ts";

/** CRI RuntimeService and ImageService methods the simulated runtime serves (cri-api v1). */
export const CRI_METHODS = [
  "Version",
  "Status",
  "RunPodSandbox",
  "StopPodSandbox",
  "RemovePodSandbox",
  "PodSandboxStatus",
  "ListPodSandbox",
  "CreateContainer",
  "StartContainer",
  "StopContainer",
  "RemoveContainer",
  "ListContainers",
  "ContainerStatus",
  "UpdateContainerResources",
  "ExecSync",
  "GetContainerEvents",
  "ListImages",
  "ImageStatus",
  "PullImage",
  "RemoveImage",
] as const;
export type CriMethod = (typeof CRI_METHODS)[number];

/** Pulls of an image that fail: how, how often, and in which window of scenario time. */
export interface ImagePullFailure {
  error: "notFound" | "unauthorized" | "failed";
  message: string | null;
  times: number | null;
  fromMs: number;
  toMs: number | null;
}

export interface ImageConfig {
  pullTime: RangeMs | null;
  present: boolean;
  fail: ImagePullFailure | null;
}

/** An error injected into CRI calls, matched by method, pod, container, call count and time. */
export interface CriFault {
  method: CriMethod;
  pod: string | null;
  container: string | null;
  call: number;
  times: number | null;
  fromMs: number;
  toMs: number | null;
  kind: "error" | "timeout";
  message: string;
}

export interface RuntimeConfig {
  latency: Record<CriMethod, RangeMs>;
  pauseImage: string;
  images: Record<string, ImageConfig>;
  faults: CriFault[];
  containerEventDelay: RangeMs;
  podSandboxStatusTimestamp: boolean;
}
