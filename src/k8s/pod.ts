// Models k8s.io/api/core/v1 types.go: the Pod and the parts of it the kubelet reads, as the types
// the models share. pod_schema.ts parses manifests into them (zod schemas); the types are written
// out here, not inferred from the schemas, so that the package's declarations (what a consumer's
// tsc reads) carry no zod types. test/types/schema_types.test.ts checks each schema's output is
// exactly its type here, so the two cannot drift.
//
// Every object is open (`[field: string]: unknown`): a field the simulator does not model is kept,
// as the schemas keep it. Optional fields may hold undefined, as a parsed manifest's may.

/** Fields a manifest may carry that the simulator does not model. */
interface Open {
  [field: string]: unknown;
}

/** intstr.IntOrString: a port may be a number or a named port. */
export type IntOrString = number | string;
/** resource.Quantity as written in YAML: "100m", "64Mi", or a bare number. */
export type Quantity = string | number;
/** metav1.Time: RFC 3339 text; kubectl prints `creationTimestamp: null` for unset times. */
export type Time = string | null;

export interface ExecAction extends Open {
  command?: string[] | undefined;
}

export interface HTTPHeader extends Open {
  name: string;
  value: string;
}

export interface HTTPGetAction extends Open {
  path?: string | undefined;
  port: IntOrString;
  host?: string | undefined;
  scheme?: "HTTP" | "HTTPS" | undefined;
  httpHeaders?: HTTPHeader[] | undefined;
}

export interface TCPSocketAction extends Open {
  port: IntOrString;
  host?: string | undefined;
}

export interface GRPCAction extends Open {
  port: number;
  service?: string | null | undefined;
}

export interface SleepAction extends Open {
  seconds: number;
}

/** v1.ProbeHandler plus the probe's timing fields (v1.Probe embeds ProbeHandler). */
export interface Probe extends Open {
  exec?: ExecAction | undefined;
  httpGet?: HTTPGetAction | undefined;
  tcpSocket?: TCPSocketAction | undefined;
  grpc?: GRPCAction | undefined;
  initialDelaySeconds?: number | undefined;
  timeoutSeconds?: number | undefined;
  periodSeconds?: number | undefined;
  successThreshold?: number | undefined;
  failureThreshold?: number | undefined;
  terminationGracePeriodSeconds?: number | null | undefined;
}

/** v1.LifecycleHandler: what postStart/preStop run. */
export interface LifecycleHandler extends Open {
  exec?: ExecAction | undefined;
  httpGet?: HTTPGetAction | undefined;
  tcpSocket?: TCPSocketAction | undefined;
  sleep?: SleepAction | undefined;
}

export interface Lifecycle extends Open {
  postStart?: LifecycleHandler | undefined;
  preStop?: LifecycleHandler | undefined;
}

export interface ContainerPort extends Open {
  name?: string | undefined;
  containerPort: number;
  hostPort?: number | undefined;
  hostIP?: string | undefined;
  protocol?: "SCTP" | "TCP" | "UDP" | undefined;
}

export interface EnvVar extends Open {
  name: string;
  value?: string | undefined;
  /** Secrets and field references are accepted but not resolved by the simulator. */
  valueFrom?: Open | undefined;
}

export type ResourceList = Record<string, Quantity>;

export interface ResourceRequirements extends Open {
  requests?: ResourceList | undefined;
  limits?: ResourceList | undefined;
}

/** The fields Container and EphemeralContainer share (v1.EphemeralContainerCommon). */
export interface Container extends Open {
  name: string;
  image?: string | undefined;
  imagePullPolicy?: "Always" | "IfNotPresent" | "Never" | undefined;
  command?: string[] | undefined;
  args?: string[] | undefined;
  workingDir?: string | undefined;
  ports?: ContainerPort[] | undefined;
  env?: EnvVar[] | undefined;
  resources?: ResourceRequirements | undefined;
  livenessProbe?: Probe | undefined;
  readinessProbe?: Probe | undefined;
  startupProbe?: Probe | undefined;
  lifecycle?: Lifecycle | undefined;
  terminationMessagePath?: string | undefined;
  terminationMessagePolicy?: "File" | "FallbackToLogsOnError" | undefined;
  /** Only "Always", and only on init containers: it makes them sidecars (KEP-753). */
  restartPolicy?: "Always" | undefined;
  stdin?: boolean | undefined;
  tty?: boolean | undefined;
}

export interface EphemeralContainer extends Container {
  targetContainerName?: string | undefined;
}

export interface OwnerReference extends Open {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean | undefined;
  blockOwnerDeletion?: boolean | undefined;
}

export interface ObjectMeta extends Open {
  name: string;
  namespace?: string | undefined;
  uid?: string | undefined;
  labels?: Record<string, string> | undefined;
  annotations?: Record<string, string> | undefined;
  resourceVersion?: string | undefined;
  generation?: number | undefined;
  creationTimestamp?: Time | undefined;
  deletionTimestamp?: Time | undefined;
  deletionGracePeriodSeconds?: number | null | undefined;
  ownerReferences?: OwnerReference[] | undefined;
  finalizers?: string[] | undefined;
}

export type RestartPolicy = "Always" | "OnFailure" | "Never";

/** v1.NodeSelectorRequirement: the operator and values are checked where they are read (nodeaffinity parses them). */
export interface NodeSelectorRequirement extends Open {
  key: string;
  operator: string;
  values?: string[] | undefined;
}

/** v1.NodeSelectorTerm: requirements ANDed. */
export interface NodeSelectorTerm extends Open {
  matchExpressions?: NodeSelectorRequirement[] | undefined;
  matchFields?: NodeSelectorRequirement[] | undefined;
}

/** v1.NodeSelector: terms ORed. */
export interface NodeSelector extends Open {
  nodeSelectorTerms: NodeSelectorTerm[];
}

/**
 * v1.Affinity, the part the kubelet reads: required node affinity. Preferred terms and pod
 * (anti-)affinity are the scheduler's alone; they stay unmodelled fields, listed as ignored.
 */
export interface Affinity extends Open {
  nodeAffinity?: NodeAffinity | undefined;
}

/** v1.NodeAffinity, its required terms. */
export interface NodeAffinity extends Open {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector | undefined;
}

/** v1.PodOS. */
export interface PodOS extends Open {
  name: string;
}

/** v1.Toleration: values are checked by the apiserver's validation (validateTolerations). */
export interface PodToleration extends Open {
  key?: string | undefined;
  operator?: string | undefined;
  value?: string | undefined;
  effect?: string | undefined;
  tolerationSeconds?: number | null | undefined;
}

export interface PodSpec extends Open {
  containers: Container[];
  initContainers?: Container[] | undefined;
  ephemeralContainers?: EphemeralContainer[] | undefined;
  restartPolicy?: RestartPolicy | undefined;
  terminationGracePeriodSeconds?: number | null | undefined;
  activeDeadlineSeconds?: number | null | undefined;
  dnsPolicy?: string | undefined;
  hostNetwork?: boolean | undefined;
  hostPID?: boolean | undefined;
  hostIPC?: boolean | undefined;
  nodeName?: string | undefined;
  serviceAccountName?: string | undefined;
  schedulerName?: string | undefined;
  priority?: number | null | undefined;
  priorityClassName?: string | undefined;
  nodeSelector?: Record<string, string> | undefined;
  affinity?: Affinity | undefined;
  tolerations?: PodToleration[] | undefined;
  /** v1.PodOS: the kubelet refuses a pod whose OS is not its own (predicate.go, from 1.23). */
  os?: PodOS | undefined;
}

export interface ContainerStateWaiting extends Open {
  reason?: string | undefined;
  message?: string | undefined;
}

export interface ContainerStateRunning extends Open {
  startedAt?: Time | undefined;
}

export interface ContainerStateTerminated extends Open {
  exitCode: number;
  signal?: number | undefined;
  reason?: string | undefined;
  message?: string | undefined;
  startedAt?: Time | undefined;
  finishedAt?: Time | undefined;
  containerID?: string | undefined;
}

export interface ContainerState extends Open {
  waiting?: ContainerStateWaiting | undefined;
  running?: ContainerStateRunning | undefined;
  terminated?: ContainerStateTerminated | undefined;
}

export interface ContainerStatus extends Open {
  name: string;
  state?: ContainerState | undefined;
  lastState?: ContainerState | undefined;
  ready?: boolean | undefined;
  restartCount?: number | undefined;
  image?: string | undefined;
  imageID?: string | undefined;
  containerID?: string | undefined;
  started?: boolean | null | undefined;
}

export interface PodCondition extends Open {
  type: string;
  status: "True" | "False" | "Unknown";
  reason?: string | undefined;
  message?: string | undefined;
  lastProbeTime?: Time | undefined;
  lastTransitionTime?: Time | undefined;
}

export type PodPhase = "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown";

export interface PodIP extends Open {
  ip: string;
}

export interface PodStatus extends Open {
  phase?: PodPhase | undefined;
  conditions?: PodCondition[] | undefined;
  message?: string | undefined;
  reason?: string | undefined;
  hostIP?: string | undefined;
  hostIPs?: PodIP[] | undefined;
  podIP?: string | undefined;
  podIPs?: PodIP[] | undefined;
  startTime?: Time | undefined;
  qosClass?: string | undefined;
  initContainerStatuses?: ContainerStatus[] | undefined;
  containerStatuses?: ContainerStatus[] | undefined;
  ephemeralContainerStatuses?: ContainerStatus[] | undefined;
}

export interface Pod extends Open {
  apiVersion?: "v1" | undefined;
  kind?: "Pod" | undefined;
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: PodStatus | undefined;
}

export { defaultPod } from "./defaults.ts";
