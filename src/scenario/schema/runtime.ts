// The simulated container runtime (CRI): call latencies, images, and injected faults.
import { z } from "zod";
import { containerName, duration, durationRange, obj, podRef } from "./common.ts";
import { formatDuration } from "../../sim/duration.ts";

import { CRI_METHODS, type CriFault, type CriMethod, type ImageConfig, type RuntimeConfig } from "../types/runtime.ts";

export { CRI_METHODS, type CriFault, type CriMethod, type ImageConfig, type RuntimeConfig };

/** Methods that act on one container, so a fault may name a container. */
export const CONTAINER_METHODS: readonly CriMethod[] = [
  "CreateContainer",
  "StartContainer",
  "StopContainer",
  "RemoveContainer",
  "ContainerStatus",
  "UpdateContainerResources",
  "ExecSync",
];

/** Default latencies: small, fixed, and in the order of magnitude a local containerd shows. */
export const DEFAULT_LATENCY: Readonly<Record<CriMethod, string>> = {
  Version: "1ms",
  Status: "1ms",
  RunPodSandbox: "500ms",
  StopPodSandbox: "100ms",
  RemovePodSandbox: "50ms",
  PodSandboxStatus: "1ms",
  ListPodSandbox: "2ms",
  CreateContainer: "100ms",
  StartContainer: "100ms",
  StopContainer: "10ms",
  RemoveContainer: "50ms",
  ListContainers: "2ms",
  ContainerStatus: "1ms",
  UpdateContainerResources: "10ms",
  ExecSync: "10ms",
  GetContainerEvents: "0s",
  ListImages: "2ms",
  ImageStatus: "1ms",
  PullImage: "1s",
  RemoveImage: "50ms",
};

const criMethod = z.enum(CRI_METHODS).describe("A CRI method name, as in cri-api's RuntimeService/ImageService.");

const NOTES: Partial<Record<CriMethod, string>> = {
  PullImage: " Also the pull time of images `images` does not list.",
  StopContainer: " The time the container's program takes to exit after SIGTERM comes on top.",
  ExecSync: " The time the exec'd command takes (a probe's answer) comes on top.",
};

const latencyShape = Object.fromEntries(
  CRI_METHODS.map((m) => [m, durationRange(`Latency of ${m}.${NOTES[m] ?? ""}`).prefault(DEFAULT_LATENCY[m])]),
) as { [M in CriMethod]: z.ZodPrefault<ReturnType<typeof durationRange>> };

const latency = z
  .strictObject(latencyShape)
  .prefault({})
  .describe("Latency per CRI method: a fixed duration or a seeded range {min, max} drawn per call.");

const IMAGE_ERRORS = ["notFound", "unauthorized", "failed"] as const;

const window = {
  from: duration("Start of the window, in scenario time; from the beginning when omitted.").optional(),
  to: duration("End of the window (exclusive), in scenario time; no end when omitted.").optional(),
};

function checkWindow(w: { fromMs?: number | undefined; toMs?: number | undefined }, ctx: z.core.$RefinementCtx<unknown>) {
  if (w.fromMs !== undefined && w.toMs !== undefined && w.toMs <= w.fromMs) {
    ctx.addIssue({
      code: "custom",
      path: ["to"],
      message: `expected a window end after from (${formatDuration(w.fromMs)}), found ${formatDuration(w.toMs)}`,
    });
  }
}

const imagePullFailure = obj({
  error: z
    .enum(IMAGE_ERRORS)
    .default("failed")
    .describe("What the registry answers: notFound (manifest unknown), unauthorized (auth error), failed (any other error)."),
  message: z.string().optional().describe("The error text the runtime returns; a realistic one per kind when omitted."),
  times: z.number().int().min(1).optional().describe("Fail only the first N pulls, then succeed; every pull fails when omitted."),
  ...window,
})
  .superRefine(checkWindow)
  .transform((f) => ({
    error: f.error,
    message: f.message ?? null,
    times: f.times ?? null,
    fromMs: f.fromMs ?? 0,
    toMs: f.toMs ?? null,
  }))
  .describe("Make pulls of this image fail. With `from`/`to`, only pulls that start inside the window fail.");

const image = obj({
  pullTime: durationRange("How long a pull takes; runtime.latency.PullImage when omitted.").optional(),
  present: z.boolean().default(false).describe("The image is already on the node when the scenario starts."),
  fail: imagePullFailure.optional(),
}).transform((i) => ({ pullTime: i.pullTime ?? null, present: i.present, fail: i.fail ?? null }));

export const faultSchema = obj({
  method: criMethod,
  pod: podRef("Only calls for this pod; any pod when omitted.").optional(),
  container: containerName("Only calls for this container (container methods only); any when omitted.").optional(),
  call: z.number().int().min(1).optional().describe("Start failing at the Nth matching call (1 = the first)."),
  times: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("How many matching calls fail: 1 when `call` is given, every matching call otherwise."),
  ...window,
  kind: z
    .enum(["error", "timeout"])
    .default("error")
    .describe("error: the call returns an error at once; timeout: it hangs until kubelet.runtimeRequestTimeout."),
  message: z.string().default("injected fault").describe("The error text the call returns."),
})
  .superRefine(checkWindow)
  .superRefine((f, ctx) => {
    if (f.container !== undefined && !CONTAINER_METHODS.includes(f.method)) {
      ctx.addIssue({
        code: "custom",
        path: ["container"],
        message: `expected no container for ${f.method}, which acts on a pod sandbox or the whole runtime; container methods are ${CONTAINER_METHODS.join(", ")}`,
      });
    }
  })
  .transform((f) => ({
    method: f.method,
    pod: f.pod ?? null,
    container: f.container ?? null,
    call: f.call ?? 1,
    times: f.times ?? (f.call !== undefined ? 1 : null),
    fromMs: f.fromMs ?? 0,
    toMs: f.toMs ?? null,
    kind: f.kind,
    message: f.message,
  }));

export const runtimeSchema = obj({
  latency,
  pauseImage: z
    .string()
    .min(1)
    .default("registry.k8s.io/pause:3.9")
    .describe("The sandbox (pause) image. It is present on the node unless `images` lists it with `present: false`."),
  images: z
    .record(z.string().min(1), image)
    .default({})
    .describe("Images by reference as the pod spec writes it (\"nginx:1.25\"). Unlisted images pull fine, in latency.PullImage."),
  faults: z.array(faultSchema).default([]).describe("Errors injected into CRI calls, matched by method, pod, container, call count and time."),
  containerEventDelay: durationRange(
    "Delay of the runtime's container event stream (GetContainerEvents), read by the Evented PLEG.",
  ).prefault("0s"),
  podSandboxStatusTimestamp: z
    .boolean()
    .default(false)
    .describe(
      "PodSandboxStatus carries the time it was served (ns) and the sandbox's container statuses, as CRI-O does for the Evented PLEG; containerd (the default) does not.",
    ),
}).describe("The simulated container runtime.");
