// Models k8s.io/api/core/v1 types.go (Pod and the parts of it the kubelet reads), as zod schemas.
// The types they parse to are written out in pod.ts (so that the package's declarations carry no
// zod types); test/types/schema_types.test.ts checks each schema's output is exactly its type.
//
// Every object schema is a loose object: a field the simulator does not model is accepted and kept,
// never an error, because a manifest copied from `kubectl get pod -o yaml` must load unchanged. The
// scenario loader lists such fields as ignored by walking each schema's `.shape`, so object schemas
// stay plain (`z.looseObject`, no transforms, no preprocess). Defaulting lives in defaults.ts.
import { z } from "zod";

const int = () => z.number().int();
/** intstr.IntOrString: a port may be a number or a named port. */
const intOrString = () => z.union([z.number().int(), z.string()]);
/** resource.Quantity as written in YAML: "100m", "64Mi", or a bare number. */
const quantity = () => z.union([z.string(), z.number()]);
/** metav1.Time: RFC 3339 text; kubectl prints `creationTimestamp: null` for unset times. */
const time = () => z.string().nullable();

export const execActionSchema = z.looseObject({ command: z.array(z.string()).optional() });

export const httpHeaderSchema = z.looseObject({ name: z.string(), value: z.string() });

export const httpGetActionSchema = z.looseObject({
  path: z.string().optional(),
  port: intOrString(),
  host: z.string().optional(),
  scheme: z.enum(["HTTP", "HTTPS"]).optional(),
  httpHeaders: z.array(httpHeaderSchema).optional(),
});

export const tcpSocketActionSchema = z.looseObject({ port: intOrString(), host: z.string().optional() });

export const grpcActionSchema = z.looseObject({ port: int(), service: z.string().nullable().optional() });

export const sleepActionSchema = z.looseObject({ seconds: int() });

/** v1.ProbeHandler plus the probe's timing fields (v1.Probe embeds ProbeHandler). */
export const probeSchema = z.looseObject({
  exec: execActionSchema.optional(),
  httpGet: httpGetActionSchema.optional(),
  tcpSocket: tcpSocketActionSchema.optional(),
  grpc: grpcActionSchema.optional(),
  initialDelaySeconds: int().optional(),
  timeoutSeconds: int().optional(),
  periodSeconds: int().optional(),
  successThreshold: int().optional(),
  failureThreshold: int().optional(),
  terminationGracePeriodSeconds: int().nullable().optional(),
});

/** v1.LifecycleHandler: what postStart/preStop run. */
export const lifecycleHandlerSchema = z.looseObject({
  exec: execActionSchema.optional(),
  httpGet: httpGetActionSchema.optional(),
  tcpSocket: tcpSocketActionSchema.optional(),
  sleep: sleepActionSchema.optional(),
});

export const lifecycleSchema = z.looseObject({
  postStart: lifecycleHandlerSchema.optional(),
  preStop: lifecycleHandlerSchema.optional(),
});

export const containerPortSchema = z.looseObject({
  name: z.string().optional(),
  containerPort: int(),
  hostPort: int().optional(),
  hostIP: z.string().optional(),
  // In the order the apiserver lists them when it refuses another (sets.List: sorted).
  protocol: z.enum(["SCTP", "TCP", "UDP"]).optional(),
});

export const envVarSchema = z.looseObject({
  name: z.string(),
  value: z.string().optional(),
  // valueFrom (secrets, field refs) is accepted but not resolved by the simulator.
  valueFrom: z.looseObject({}).optional(),
});

export const resourceListSchema = z.record(z.string(), quantity());

export const resourceRequirementsSchema = z.looseObject({
  requests: resourceListSchema.optional(),
  limits: resourceListSchema.optional(),
});

/** The fields Container and EphemeralContainer share (v1.EphemeralContainerCommon). */
const containerShape = {
  name: z.string().min(1),
  image: z.string().optional(),
  imagePullPolicy: z.enum(["Always", "IfNotPresent", "Never"]).optional(),
  command: z.array(z.string()).optional(),
  args: z.array(z.string()).optional(),
  workingDir: z.string().optional(),
  ports: z.array(containerPortSchema).optional(),
  env: z.array(envVarSchema).optional(),
  resources: resourceRequirementsSchema.optional(),
  livenessProbe: probeSchema.optional(),
  readinessProbe: probeSchema.optional(),
  startupProbe: probeSchema.optional(),
  lifecycle: lifecycleSchema.optional(),
  terminationMessagePath: z.string().optional(),
  terminationMessagePolicy: z.enum(["File", "FallbackToLogsOnError"]).optional(),
  // Only "Always" is allowed, and only on init containers: it makes them sidecars (KEP-753).
  restartPolicy: z.enum(["Always"]).optional(),
  stdin: z.boolean().optional(),
  tty: z.boolean().optional(),
};

export const containerSchema = z.looseObject(containerShape);

export const ephemeralContainerSchema = z.looseObject({
  ...containerShape,
  targetContainerName: z.string().optional(),
});

export const ownerReferenceSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});

export const objectMetaSchema = z.looseObject({
  name: z.string().min(1),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  resourceVersion: z.string().optional(),
  generation: int().optional(),
  creationTimestamp: time().optional(),
  deletionTimestamp: time().optional(),
  deletionGracePeriodSeconds: int().nullable().optional(),
  ownerReferences: z.array(ownerReferenceSchema).optional(),
  finalizers: z.array(z.string()).optional(),
});

export const restartPolicySchema = z.enum(["Always", "OnFailure", "Never"]);

/** v1.NodeSelectorRequirement: the operator and values are checked where they are read (nodeaffinity parses them). */
export const nodeSelectorRequirementSchema = z.looseObject({
  key: z.string(),
  operator: z.string(),
  values: z.array(z.string()).optional(),
});

/** v1.NodeSelectorTerm: requirements ANDed. */
export const nodeSelectorTermSchema = z.looseObject({
  matchExpressions: z.array(nodeSelectorRequirementSchema).optional(),
  matchFields: z.array(nodeSelectorRequirementSchema).optional(),
});

/** v1.NodeSelector: terms ORed. */
export const nodeSelectorSchema = z.looseObject({ nodeSelectorTerms: z.array(nodeSelectorTermSchema) });

/** v1.Affinity, the part the kubelet reads: required node affinity (pod.ts says why). */
export const affinitySchema = z.looseObject({
  nodeAffinity: z.looseObject({ requiredDuringSchedulingIgnoredDuringExecution: nodeSelectorSchema.optional() }).optional(),
});

/** v1.Toleration: values are checked by the apiserver's validation (validateTolerations). */
export const tolerationSchema = z.looseObject({
  key: z.string().optional(),
  operator: z.string().optional(),
  value: z.string().optional(),
  effect: z.string().optional(),
  tolerationSeconds: int().nullable().optional(),
});

export const podSpecSchema = z.looseObject({
  containers: z.array(containerSchema).min(1),
  initContainers: z.array(containerSchema).optional(),
  ephemeralContainers: z.array(ephemeralContainerSchema).optional(),
  restartPolicy: restartPolicySchema.optional(),
  terminationGracePeriodSeconds: int().nullable().optional(),
  activeDeadlineSeconds: int().nullable().optional(),
  dnsPolicy: z.string().optional(),
  hostNetwork: z.boolean().optional(),
  hostPID: z.boolean().optional(),
  hostIPC: z.boolean().optional(),
  nodeName: z.string().optional(),
  serviceAccountName: z.string().optional(),
  schedulerName: z.string().optional(),
  priority: int().nullable().optional(),
  priorityClassName: z.string().optional(),
  nodeSelector: z.record(z.string(), z.string()).optional(),
  affinity: affinitySchema.optional(),
  tolerations: z.array(tolerationSchema).optional(),
  /** v1.PodOS: the kubelet refuses a pod whose OS is not its own (predicate.go, from 1.23). */
  os: z.looseObject({ name: z.string() }).optional(),
});

export const containerStateSchema = z.looseObject({
  waiting: z.looseObject({ reason: z.string().optional(), message: z.string().optional() }).optional(),
  running: z.looseObject({ startedAt: time().optional() }).optional(),
  terminated: z
    .looseObject({
      exitCode: int(),
      signal: int().optional(),
      reason: z.string().optional(),
      message: z.string().optional(),
      startedAt: time().optional(),
      finishedAt: time().optional(),
      containerID: z.string().optional(),
    })
    .optional(),
});

export const containerStatusSchema = z.looseObject({
  name: z.string(),
  state: containerStateSchema.optional(),
  lastState: containerStateSchema.optional(),
  ready: z.boolean().optional(),
  restartCount: int().optional(),
  image: z.string().optional(),
  imageID: z.string().optional(),
  containerID: z.string().optional(),
  started: z.boolean().nullable().optional(),
});

export const podConditionSchema = z.looseObject({
  type: z.string(),
  status: z.enum(["True", "False", "Unknown"]),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastProbeTime: time().optional(),
  lastTransitionTime: time().optional(),
});

export const podPhaseSchema = z.enum(["Pending", "Running", "Succeeded", "Failed", "Unknown"]);

export const podStatusSchema = z.looseObject({
  phase: podPhaseSchema.optional(),
  conditions: z.array(podConditionSchema).optional(),
  message: z.string().optional(),
  reason: z.string().optional(),
  hostIP: z.string().optional(),
  hostIPs: z.array(z.looseObject({ ip: z.string() })).optional(),
  podIP: z.string().optional(),
  podIPs: z.array(z.looseObject({ ip: z.string() })).optional(),
  startTime: time().optional(),
  qosClass: z.string().optional(),
  initContainerStatuses: z.array(containerStatusSchema).optional(),
  containerStatuses: z.array(containerStatusSchema).optional(),
  ephemeralContainerStatuses: z.array(containerStatusSchema).optional(),
});

export const podSchema = z.looseObject({
  apiVersion: z.literal("v1").optional(),
  kind: z.literal("Pod").optional(),
  metadata: objectMetaSchema,
  spec: podSpecSchema,
  status: podStatusSchema.optional(),
});
