// Models pkg/kubelet/container/runtime.go (PodStatus, Status, ContainerID, State) and the CRI sandbox status it embeds.
//
// Times are integer virtual milliseconds. Go's zero time.Time (an unset StartedAt/FinishedAt) is an
// absent field here; GO_ZERO_TIME_MS gives it a value where upstream arithmetic needs one.

/** kubecontainer.State: the runtime's view of a container. */
export type State = "created" | "running" | "exited" | "unknown";

export const ContainerStateCreated: State = "created";
export const ContainerStateRunning: State = "running";
export const ContainerStateExited: State = "exited";
export const ContainerStateUnknown: State = "unknown";

/** Go's zero time.Time (0001-01-01T00:00:00Z) as milliseconds relative to the Unix epoch. */
export const GO_ZERO_TIME_MS = -62_135_596_800_000;

/** kubecontainer.ContainerID: a runtime type ("containerd", "test") and the runtime's own ID. */
export interface ContainerID {
  type: string;
  id: string;
}

/** ContainerID.String(): "type://id", the form the API's containerStatuses[].containerID uses. */
export function containerIDString(cid: ContainerID): string {
  return `${cid.type}://${cid.id}`;
}

/** kubecontainer.ParseContainerID; an unparsable string yields an empty ID, as upstream logs and does. */
export function ParseContainerID(text: string): ContainerID {
  const sep = text.indexOf("://");
  if (sep < 0) return { type: "", id: "" };
  return { type: text.slice(0, sep), id: text.slice(sep + 3) };
}

/** ContainerID.IsEmpty */
export function containerIDIsEmpty(cid: ContainerID): boolean {
  return cid.type === "" && cid.id === "";
}

/** kubecontainer.Status: one container as the runtime reports it (a subset of the Go struct). */
export interface Status {
  id: ContainerID;
  name: string;
  state: State;
  createdAtMs: number;
  /** Set once the runtime tried to start the container (any state but created). */
  startedAtMs?: number;
  /** Set when the container exited. */
  finishedAtMs?: number;
  exitCode: number;
  image: string;
  imageID: string;
  /** HashContainer of the spec the container was created from (a container label upstream). */
  hash: number;
  restartCount: number;
  reason: string;
  message: string;
}

/** runtimeapi.NamespaceMode */
export type NamespaceMode = "POD" | "CONTAINER" | "NODE" | "TARGET";

/** runtimeapi.PodSandboxState */
export type PodSandboxState = "SANDBOX_READY" | "SANDBOX_NOTREADY";

/** runtimeapi.PodSandboxStatus, reduced to the fields the kubelet's decisions read. */
export interface PodSandboxStatus {
  id: string;
  metadata: { name: string; uid: string; namespace: string; attempt: number };
  state: PodSandboxState;
  createdAtMs: number;
  /** Absent models a nil Network (the runtime reported none). */
  network?: { ip: string; additionalIps?: string[] };
  /** linux.namespaces.options; an absent network mode reads as POD, the proto's zero value. */
  linux?: { namespaces?: { options?: { network?: NamespaceMode; pid?: NamespaceMode; ipc?: NamespaceMode } } };
}

/** kubecontainer.PodStatus: everything the runtime knows about one pod. */
export interface PodStatus {
  /** The pod UID. */
  id: string;
  name: string;
  namespace: string;
  ips: string[];
  /** Newest first, as the runtime sorts them (containerStatusByCreated). */
  containerStatuses: Status[];
  /**
   * ≥1.33 (#128516) ActiveContainerStatuses: the statuses of the containers of the active sandbox,
   * newest first. The active sandbox is the newest one, and only while it is ready; with none, the
   * list is empty. Absent is Go's nil slice: before 1.33, and in the Evented PLEG's
   * GeneratePodStatus, which does not fill it upstream either.
   */
  activeContainerStatuses?: Status[];
  /** Newest first; index 0 is the sandbox the kubelet reasons about. */
  sandboxStatuses: PodSandboxStatus[];
  timestampMs?: number;
}

/** PodStatus.FindContainerStatusByName: the FIRST (newest) status with that name. */
export function FindContainerStatusByName(podStatus: PodStatus, containerName: string): Status | undefined {
  return podStatus.containerStatuses.find((s) => s.name === containerName);
}

/** PodStatus.GetRunningContainerStatuses */
export function GetRunningContainerStatuses(podStatus: PodStatus): Status[] {
  return podStatus.containerStatuses.filter((s) => s.state === ContainerStateRunning);
}

/** The network namespace mode a sandbox status records (GetLinux().GetNamespaces().GetOptions().GetNetwork()). */
export function sandboxNetworkMode(s: PodSandboxStatus): NamespaceMode {
  return s.linux?.namespaces?.options?.network ?? "POD";
}
