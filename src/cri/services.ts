// Models staging/src/k8s.io/cri-api/pkg/apis/services.go (RuntimeService, ImageManagerService) as
// kernel processes: every method is a generator the caller runs with `yield*`, taking virtual
// time, and returns its value or a CriError (never throws: a throw in a process is a panic).
import type { Chan, Op, Proc } from "../sim/index.ts";
import type {
  AuthConfig, Container, ContainerConfig, ContainerEventResponse, ContainerFilter, ContainerStatus,
  ExecSyncResponse, Image, ImageFilter, ImageSpec, PodSandbox, PodSandboxConfig, PodSandboxFilter,
  PodSandboxStatus, RuntimeStatus, VersionResponse,
} from "./api.ts";
import type { CriError } from "./errors.ts";
import type { ExecPurpose, NetworkOutcome } from "./exec_ops.ts";
import type { HookType, ProbeType } from "./program.ts";

export interface RuntimeService {
  Version(apiVersion: string): Proc<VersionResponse | CriError>;
  Status(): Proc<RuntimeStatus | CriError>;
  RunPodSandbox(config: PodSandboxConfig, runtimeHandler: string): Proc<string | CriError>;
  StopPodSandbox(podSandboxId: string): Proc<null | CriError>;
  RemovePodSandbox(podSandboxId: string): Proc<null | CriError>;
  PodSandboxStatus(podSandboxId: string): Proc<PodSandboxStatus | CriError>;
  ListPodSandbox(filter: PodSandboxFilter | null): Proc<PodSandbox[] | CriError>;
  CreateContainer(podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig): Proc<string | CriError>;
  StartContainer(containerId: string): Proc<null | CriError>;
  StopContainer(containerId: string, timeoutSeconds: number): Proc<null | CriError>;
  RemoveContainer(containerId: string): Proc<null | CriError>;
  ListContainers(filter: ContainerFilter | null): Proc<Container[] | CriError>;
  ContainerStatus(containerId: string): Proc<ContainerStatus | CriError>;
  UpdateContainerResources(containerId: string): Proc<null | CriError>;
  /** Simplified: `purpose` says what the command is for, so the container's program can answer. */
  ExecSync(containerId: string, cmd: readonly string[], timeoutSeconds: number, purpose?: ExecPurpose): Proc<ExecSyncResponse | CriError>;
  /**
   * Not part of the CRI: ExecSync as the one kernel operation that performs it (sim/ops.ts), or
   * its error at once, for a caller that maps the result with continuations (the prober).
   * Absent (fakes): callers run ExecSync.
   */
  ExecSyncOp?(containerId: string, cmd: readonly string[], timeoutSeconds: number, purpose?: ExecPurpose): Op | CriError;
  /** A stream of container events (the Evented PLEG's GetContainerEvents). */
  GetContainerEvents(): Chan<ContainerEventResponse>;
  /**
   * Not part of the CRI: the simulated runtime's change count (RuntimeStore.generation), for
   * host-side caches of what its listings report. Absent (fakes): nothing is reused.
   */
  readonly generation?: number;
}

/**
 * The part of Go's context.Context a CRI call honours: `done` is closed when the caller gives up
 * (ctx.Done()). gRPC then ends the call at once with Canceled, and the runtime stops the work.
 */
export interface CallContext {
  readonly done: Chan<never>;
}

export interface ImageManagerService {
  ListImages(filter: ImageFilter | null): Proc<Image[] | CriError>;
  /** The image, or null when it is not on the node. */
  ImageStatus(image: ImageSpec): Proc<Image | null | CriError>;
  /** The image reference (ID) of the pulled image. A cancelled ctx ends the pull with Canceled. */
  PullImage(image: ImageSpec, auth: AuthConfig | null, sandboxConfig: PodSandboxConfig | null, ctx?: CallContext | null): Proc<string | CriError>;
  RemoveImage(image: ImageSpec): Proc<null | CriError>;
}

/**
 * What the kubelet reaches over the pod network rather than the CRI: HTTP/TCP/gRPC probes and HTTP
 * lifecycle hooks. Served by the runtime because the container's program answers them.
 */
export interface ContainerNetwork {
  probe(containerId: string, probeType: ProbeType, timeoutMs: number): Proc<NetworkOutcome>;
  /** probe as the one kernel operation that performs it, or its outcome at once (refused). Absent (fakes): callers run probe. */
  probeOp?(containerId: string, probeType: ProbeType, timeoutMs: number): Op | NetworkOutcome;
  httpHook(containerId: string, hook: HookType, timeoutMs: number): Proc<NetworkOutcome>;
}
