// Models a CRI runtime (containerd's CRI plugin) serving the kubelet: RuntimeService and
// ImageManagerService over one state, every call in virtual time, with scripted container
// programs, injected faults and node faults (staging/src/k8s.io/cri-api/pkg/apis/services.go).
import type { Chan, Proc, Sim } from "../sim/index.ts";
import type {
  AuthConfig, ContainerConfig, ContainerEventResponse, ContainerFilter, ImageFilter, ImageSpec,
  PodSandboxConfig, PodSandboxFilter, RuntimeStatus, VersionResponse,
} from "./api.ts";
import { DEFAULT_RUNTIME_OPTIONS, resolveRuntimeConfig, type RuntimeConfig, type RuntimeOptions } from "./config.ts";
import * as containers from "./container_ops.ts";
import { RuntimeCore } from "./core.ts";
import type { ContainerRecord, SandboxRecord } from "./store.ts";
import type { CriError } from "./errors.ts";
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
    return yield* this.core.invoke({ method: "Version", pod: null, container: null }, null, function* () {
      return { version: "0.1.0", runtimeName: name, runtimeVersion: "sim", runtimeApiVersion: "v1" };
    });
  }

  *Status(): Proc<RuntimeStatus | CriError> {
    return yield* this.core.invoke({ method: "Status", pod: null, container: null }, null, function* () {
      const ready = (type: "RuntimeReady" | "NetworkReady") => ({ type, status: true, reason: "", message: "" });
      return { conditions: [ready("RuntimeReady"), ready("NetworkReady")] };
    });
  }

  RunPodSandbox(config: PodSandboxConfig, runtimeHandler: string) {
    return sandboxes.RunPodSandbox(this.core, config, runtimeHandler);
  }
  StopPodSandbox(podSandboxId: string) {
    return sandboxes.StopPodSandbox(this.core, podSandboxId);
  }
  RemovePodSandbox(podSandboxId: string) {
    return sandboxes.RemovePodSandbox(this.core, podSandboxId);
  }
  PodSandboxStatus(podSandboxId: string) {
    return sandboxes.PodSandboxStatus(this.core, podSandboxId);
  }
  ListPodSandbox(filter: PodSandboxFilter | null) {
    return sandboxes.ListPodSandbox(this.core, filter);
  }
  CreateContainer(podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig) {
    return containers.CreateContainer(this.core, podSandboxId, config, sandboxConfig);
  }
  StartContainer(containerId: string) {
    return containers.StartContainer(this.core, containerId);
  }
  StopContainer(containerId: string, timeoutSeconds: number) {
    return containers.StopContainer(this.core, containerId, timeoutSeconds);
  }
  RemoveContainer(containerId: string) {
    return containers.RemoveContainer(this.core, containerId);
  }
  ListContainers(filter: ContainerFilter | null) {
    return containers.ListContainers(this.core, filter);
  }
  ContainerStatus(containerId: string) {
    return containers.ContainerStatus(this.core, containerId);
  }
  UpdateContainerResources(containerId: string) {
    return containers.UpdateContainerResources(this.core, containerId);
  }
  ExecSync(containerId: string, cmd: readonly string[], timeoutSeconds: number, purpose: ExecPurpose = null) {
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

  ListImages(filter: ImageFilter | null) {
    return images.ListImages(this.core, filter);
  }
  ImageStatus(image: ImageSpec) {
    return images.ImageStatus(this.core, image);
  }
  PullImage(image: ImageSpec, auth: AuthConfig | null, sandboxConfig: PodSandboxConfig | null, ctx: CallContext | null = null) {
    return images.PullImage(this.core, image, auth, sandboxConfig, ctx);
  }
  RemoveImage(image: ImageSpec) {
    return images.RemoveImage(this.core, image);
  }

  // ---- ContainerNetwork ---------------------------------------------------------------------

  probe(containerId: string, probeType: ProbeType, timeoutMs: number): Proc<NetworkOutcome> {
    return networkRequest(this.core, containerId, { probe: probeType }, timeoutMs);
  }
  httpHook(containerId: string, hook: HookType, timeoutMs: number): Proc<NetworkOutcome> {
    return networkRequest(this.core, containerId, { hook }, timeoutMs);
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
