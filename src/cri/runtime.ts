// Models a CRI runtime (containerd's CRI plugin) serving the kubelet: RuntimeService and
// ImageManagerService over one state, every call in virtual time, with scripted container
// programs, injected faults and node faults (staging/src/k8s.io/cri-api/pkg/apis/services.go).
import { Op, type Chan, type Proc, type Sim } from "../sim/index.ts";
import type {
  AuthConfig, Container, ContainerConfig, ContainerEventResponse, ContainerFilter, ContainerStatus, ExecSyncResponse, Image,
  ImageFilter, ImageSpec, PodSandbox, PodSandboxConfig, PodSandboxFilter, PodSandboxStatus, RuntimeStatus, VersionResponse,
} from "./api.ts";
import { DEFAULT_RUNTIME_OPTIONS, resolveRuntimeConfig, type RuntimeConfig, type RuntimeOptions } from "./config.ts";
import * as containers from "./container_ops.ts";
import { RuntimeCore } from "./core.ts";
import type { ContainerRecord, SandboxRecord } from "./store.ts";
import { CriError } from "./errors.ts";
import { ExecSync, networkRequest, type ExecPurpose, type NetworkOutcome } from "./exec_ops.ts";
import * as images from "./image_ops.ts";
import type { CriMethod } from "./methods.ts";
import * as faults from "./node_faults.ts";
import type { ContainerBehaviour, HookType, ProbeType } from "./program.ts";
import * as sandboxes from "./sandbox_ops.ts";
import type { CallContext, ContainerNetwork, ImageManagerService, RuntimeService } from "./services.ts";
import type { RuntimeStore } from "./store.ts";

export type RuntimeConfigInput = Parameters<typeof resolveRuntimeConfig>[0];

export class SimRuntime implements RuntimeService, ImageManagerService, ContainerNetwork {
  private readonly core: RuntimeCore;

  constructor(sim: Sim, config: RuntimeConfig | RuntimeConfigInput = {}, options: Partial<RuntimeOptions> = {}) {
    this.core = new RuntimeCore(sim, resolveRuntimeConfig(config), { ...DEFAULT_RUNTIME_OPTIONS, ...options });
    images.preloadImages(this.core);
  }

  get runtimeName(): string {
    return this.core.options.runtimeName;
  }

  /** How many changes the runtime's records have had (RuntimeService.generation). */
  get generation(): number {
    return this.core.store.generation;
  }

  /** The runtime's state, read-only by convention: for tests and invariant checkers. */
  get store(): RuntimeStore {
    return this.core.store;
  }

  // ---- scripting ----------------------------------------------------------------------------

  /** What the named container of the pod ("namespace/name") does, by attempt. */
  setBehaviour(podKey: string, containerName: string, behaviour: ContainerBehaviour): void {
    this.core.setBehaviour(podKey, containerName, behaviour);
  }

  /** FakeRuntimeService.InjectError: the next call of `method` (optionally for a pod/container) fails once. */
  injectError(method: CriMethod, message: string, site: { pod?: string; container?: string } = {}): void {
    this.core.faults.injectError(method, message, site);
  }

  /** Puts an image on the node as if pulled long ago. */
  preloadImage(image: string): void {
    this.core.store.addImage(image);
  }

  // ---- node faults --------------------------------------------------------------------------

  sandboxDies(sandboxId: string): boolean {
    return faults.sandboxDies(this.core, sandboxId);
  }
  restartRuntime(r: faults.RuntimeRestart): void {
    faults.restartRuntime(this.core, r);
  }
  removeContainerBehindKubelet(containerId: string): boolean {
    return faults.removeContainerBehindKubelet(this.core, containerId);
  }
  nodeReboot(r: faults.NodeReboot): void {
    faults.nodeReboot(this.core, r);
  }
  /** The running container exits now with `code` (reason "" lets the code decide: Completed or Error). */
  endContainerNow(containerId: string, code: number, reason = ""): boolean {
    return faults.endContainerNow(this.core, containerId, code, reason);
  }

  // ---- lookups for scenarios and checkers (no CRI call, no virtual time) ---------------------

  /** The newest sandbox of a pod ("namespace/name"), if any. */
  newestSandboxOf(podKey: string): SandboxRecord | undefined {
    return newest([...this.core.store.sandboxes.values()].filter((s) => s.podKey === podKey));
  }

  /** The newest container record of a pod's container, if any. */
  newestContainerOf(podKey: string, name: string): ContainerRecord | undefined {
    return newest([...this.core.store.containers.values()].filter((c) => c.podKey === podKey && c.name === name));
  }

  /** Every container record (for checkers), oldest first. */
  containerRecords(): readonly ContainerRecord[] {
    return [...this.core.store.containers.values()];
  }

  // ---- RuntimeService -----------------------------------------------------------------------

  *Version(_apiVersion: string): Proc<VersionResponse | CriError> {
    const name = this.core.options.runtimeName;
    const op = this.core.call({ method: "Version", pod: null, container: null }, null, () => (
      { version: "0.1.0", runtimeName: name, runtimeVersion: "sim", runtimeApiVersion: "v1" }
    ));
    return op instanceof CriError ? op : ((yield op) as VersionResponse | CriError);
  }

  *Status(): Proc<RuntimeStatus | CriError> {
    const op = this.core.call({ method: "Status", pod: null, container: null }, null, () => {
      const ready = (type: "RuntimeReady" | "NetworkReady") => ({ type, status: true, reason: "", message: "" });
      return { conditions: [ready("RuntimeReady"), ready("NetworkReady")] };
    });
    return op instanceof CriError ? op : ((yield op) as RuntimeStatus | CriError);
  }

  // Each method is one kernel operation (a call; core.ts): the caller's `yield*` resumes this
  // generator once, with the call's result.
  *RunPodSandbox(config: PodSandboxConfig, runtimeHandler: string): Proc<string | CriError> {
    const op = sandboxes.RunPodSandbox(this.core, config, runtimeHandler);
    return op instanceof CriError ? op : ((yield op) as string | CriError);
  }
  *StopPodSandbox(podSandboxId: string): Proc<null | CriError> {
    const op = sandboxes.StopPodSandbox(this.core, podSandboxId);
    return op instanceof CriError ? op : ((yield op) as null | CriError);
  }
  *RemovePodSandbox(podSandboxId: string): Proc<null | CriError> {
    const op = sandboxes.RemovePodSandbox(this.core, podSandboxId);
    return op instanceof CriError ? op : ((yield op) as null | CriError);
  }
  *PodSandboxStatus(podSandboxId: string): Proc<PodSandboxStatus | CriError> {
    const op = sandboxes.PodSandboxStatus(this.core, podSandboxId);
    return op instanceof CriError ? op : ((yield op) as PodSandboxStatus | CriError);
  }
  *ListPodSandbox(filter: PodSandboxFilter | null): Proc<PodSandbox[] | CriError> {
    const op = sandboxes.ListPodSandbox(this.core, filter);
    return op instanceof CriError ? op : ((yield op) as PodSandbox[] | CriError);
  }
  *CreateContainer(podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig): Proc<string | CriError> {
    const op = containers.CreateContainer(this.core, podSandboxId, config, sandboxConfig);
    return op instanceof CriError ? op : ((yield op) as string | CriError);
  }
  *StartContainer(containerId: string): Proc<null | CriError> {
    const op = containers.StartContainer(this.core, containerId);
    return op instanceof CriError ? op : ((yield op) as null | CriError);
  }
  *StopContainer(containerId: string, timeoutSeconds: number): Proc<null | CriError> {
    const op = containers.StopContainer(this.core, containerId, timeoutSeconds);
    return op instanceof CriError ? op : ((yield op) as null | CriError);
  }
  *RemoveContainer(containerId: string): Proc<null | CriError> {
    const op = containers.RemoveContainer(this.core, containerId);
    return op instanceof CriError ? op : ((yield op) as null | CriError);
  }
  *ListContainers(filter: ContainerFilter | null): Proc<Container[] | CriError> {
    const op = containers.ListContainers(this.core, filter);
    return op instanceof CriError ? op : ((yield op) as Container[] | CriError);
  }
  *ContainerStatus(containerId: string): Proc<ContainerStatus | CriError> {
    const op = containers.ContainerStatus(this.core, containerId);
    return op instanceof CriError ? op : ((yield op) as ContainerStatus | CriError);
  }
  *UpdateContainerResources(containerId: string): Proc<null | CriError> {
    const op = containers.UpdateContainerResources(this.core, containerId);
    return op instanceof CriError ? op : ((yield op) as null | CriError);
  }
  *ExecSync(containerId: string, cmd: readonly string[], timeoutSeconds: number, purpose: ExecPurpose = null): Proc<ExecSyncResponse | CriError> {
    const op = ExecSync(this.core, containerId, cmd, timeoutSeconds, purpose);
    return op instanceof CriError ? op : ((yield op) as ExecSyncResponse | CriError);
  }
  ExecSyncOp(containerId: string, cmd: readonly string[], timeoutSeconds: number, purpose: ExecPurpose = null): Op | CriError {
    return ExecSync(this.core, containerId, cmd, timeoutSeconds, purpose);
  }
  GetContainerEvents(): Chan<ContainerEventResponse> {
    return this.core.subscribeContainerEvents();
  }

  /** The running containers' labels now, without a call's latency (a device manager's start snapshot). */
  runningContainerLabels(): Readonly<Record<string, string>>[] {
    return [...this.core.store.containers.values()].filter((c) => c.state === "CONTAINER_RUNNING").map((c) => c.config.labels ?? {});
  }

  // ---- ImageManagerService ------------------------------------------------------------------

  *ListImages(filter: ImageFilter | null): Proc<Image[] | CriError> {
    const op = images.ListImages(this.core, filter);
    return op instanceof CriError ? op : ((yield op) as Image[] | CriError);
  }
  *ImageStatus(image: ImageSpec): Proc<Image | null | CriError> {
    const op = images.ImageStatus(this.core, image);
    return op instanceof CriError ? op : ((yield op) as Image | null | CriError);
  }
  *PullImage(image: ImageSpec, auth: AuthConfig | null, sandboxConfig: PodSandboxConfig | null, ctx: CallContext | null = null): Proc<string | CriError> {
    const op = images.PullImage(this.core, image, auth, sandboxConfig, ctx);
    return op instanceof CriError ? op : ((yield op) as string | CriError);
  }
  *RemoveImage(image: ImageSpec): Proc<null | CriError> {
    const op = images.RemoveImage(this.core, image);
    return op instanceof CriError ? op : ((yield op) as null | CriError);
  }

  // ---- ContainerNetwork ---------------------------------------------------------------------

  *probe(containerId: string, probeType: ProbeType, timeoutMs: number): Proc<NetworkOutcome> {
    const op = networkRequest(this.core, containerId, probePurpose(probeType), timeoutMs);
    return op instanceof Op ? ((yield op) as NetworkOutcome) : op;
  }
  probeOp(containerId: string, probeType: ProbeType, timeoutMs: number): Op | NetworkOutcome {
    return networkRequest(this.core, containerId, probePurpose(probeType), timeoutMs);
  }
  *httpHook(containerId: string, hook: HookType, timeoutMs: number): Proc<NetworkOutcome> {
    const op = networkRequest(this.core, containerId, { hook }, timeoutMs);
    return op instanceof Op ? ((yield op) as NetworkOutcome) : op;
  }
}

/** The record created last; IDs break ties, since they are handed out in creation order. */
function newest<T extends { createdAtMs: number; id: string }>(items: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const it of items) {
    if (best === undefined || it.createdAtMs > best.createdAtMs || (it.createdAtMs === best.createdAtMs && idNumber(it.id) > idNumber(best.id))) best = it;
  }
  return best;
}

function idNumber(id: string): number {
  return Number(id.slice(id.indexOf("-") + 1));
}

/** A network probe's purpose, one object per probe type (nothing writes one): not one per probe. */
const PROBE_PURPOSES: Readonly<Record<ProbeType, { readonly probe: ProbeType }>> = {
  liveness: { probe: "liveness" },
  readiness: { probe: "readiness" },
  startup: { probe: "startup" },
};

function probePurpose(probeType: ProbeType): { readonly probe: ProbeType } {
  return PROBE_PURPOSES[probeType];
}
