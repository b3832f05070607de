// Models staging/src/k8s.io/cri-api/pkg/apis/runtime/v1/api.proto (the messages the kubelet's runtime manager uses).
//
// Field names follow the generated Go structs in lowerCamelCase. Times are integer virtual
// milliseconds (`createdAtMs`) where the proto carries int64 nanoseconds; 0 means unset, as in the
// proto. Simplified: security contexts, mounts, devices, resources, DNS and port mappings are left
// out, because no decision the simulator makes reads them.

export type PodSandboxState = "SANDBOX_READY" | "SANDBOX_NOTREADY";
export type ContainerState = "CONTAINER_CREATED" | "CONTAINER_RUNNING" | "CONTAINER_EXITED" | "CONTAINER_UNKNOWN";
export type NamespaceMode = "POD" | "CONTAINER" | "NODE" | "TARGET";

export type Labels = Readonly<Record<string, string>>;

export interface PodSandboxMetadata {
  name: string;
  uid: string;
  namespace: string;
  attempt: number;
}

export interface NamespaceOption {
  network?: NamespaceMode;
  pid?: NamespaceMode;
  ipc?: NamespaceMode;
}

export interface PodSandboxConfig {
  metadata: PodSandboxMetadata;
  hostname?: string;
  logDirectory?: string;
  labels: Labels;
  annotations: Labels;
  linux?: { securityContext?: { namespaceOptions?: NamespaceOption } };
}

export interface PodSandbox {
  id: string;
  metadata: PodSandboxMetadata;
  state: PodSandboxState;
  createdAtMs: number;
  labels: Labels;
  annotations: Labels;
  runtimeHandler: string;
}

export interface PodSandboxNetworkStatus {
  ip: string;
  additionalIps: { ip: string }[];
}

export interface PodSandboxStatus {
  id: string;
  metadata: PodSandboxMetadata;
  state: PodSandboxState;
  createdAtMs: number;
  network?: PodSandboxNetworkStatus;
  linux?: { namespaces?: { options?: NamespaceOption } };
  labels: Labels;
  annotations: Labels;
  runtimeHandler: string;
  /**
   * PodSandboxStatusResponse.timestamp, in nanoseconds (KEP-3386): when the runtime served the
   * status. Set only by a runtime that supports the Evented PLEG (CRI-O); containerd leaves it 0.
   * Simplified: the response's fields sit on the status here.
   */
  timestamp?: number;
  /** PodSandboxStatusResponse.containers_statuses: set together with the timestamp. */
  containersStatuses?: ContainerStatus[];
}

export interface PodSandboxFilter {
  id?: string;
  state?: PodSandboxState;
  labelSelector?: Labels;
}

export interface ImageSpec {
  image: string;
  annotations?: Labels;
}

export interface ContainerMetadata {
  name: string;
  attempt: number;
}

export interface ContainerConfig {
  metadata: ContainerMetadata;
  image: ImageSpec;
  command?: string[];
  args?: string[];
  workingDir?: string;
  labels: Labels;
  annotations: Labels;
  logPath?: string;
  stdin?: boolean;
  tty?: boolean;
}

export interface Container {
  id: string;
  podSandboxId: string;
  metadata: ContainerMetadata;
  image: ImageSpec;
  imageRef: string;
  state: ContainerState;
  createdAtMs: number;
  labels: Labels;
  annotations: Labels;
}

export interface ContainerStatus {
  id: string;
  metadata: ContainerMetadata;
  state: ContainerState;
  createdAtMs: number;
  startedAtMs: number;
  finishedAtMs: number;
  exitCode: number;
  image: ImageSpec;
  imageRef: string;
  reason: string;
  message: string;
  labels: Labels;
  annotations: Labels;
  logPath: string;
}

export interface ContainerFilter {
  id?: string;
  state?: ContainerState;
  podSandboxId?: string;
  labelSelector?: Labels;
}

export interface ExecSyncResponse {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface Image {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: number;
  pinned: boolean;
}

export interface ImageFilter {
  image?: ImageSpec;
}

export interface AuthConfig {
  username?: string;
  password?: string;
  auth?: string;
}

export interface VersionResponse {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

export interface RuntimeCondition {
  type: "RuntimeReady" | "NetworkReady";
  status: boolean;
  reason: string;
  message: string;
}

export interface RuntimeStatus {
  conditions: RuntimeCondition[];
}

/** ContainerEventType of GetContainerEvents (the Evented PLEG's stream). */
export type ContainerEventType =
  | "CONTAINER_CREATED_EVENT"
  | "CONTAINER_STARTED_EVENT"
  | "CONTAINER_STOPPED_EVENT"
  | "CONTAINER_DELETED_EVENT";

export interface ContainerEventResponse {
  containerId: string;
  containerEventType: ContainerEventType;
  createdAtMs: number;
  podSandboxStatus: PodSandboxStatus | null;
  containersStatuses: ContainerStatus[];
}

/** True when every key=value of the selector is among the labels (CRI label selectors are equality only). */
export function matchLabels(labels: Labels, selector: Labels | undefined): boolean {
  if (selector === undefined) return true;
  for (const key of Object.keys(selector)) {
    if (labels[key] !== selector[key]) return false;
  }
  return true;
}
