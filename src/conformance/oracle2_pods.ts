// The oracle2 files' compact encodings of pods and API container statuses, built into real objects.
//
// phase.yaml and status_transitions.yaml write a container status as {name, state, exitCode,
// lastTerminationExitCode, started, ...}; pods as a name list or as a small spec. The Go tests'
// helpers are reproduced exactly: an absent `started` is a nil pointer, not false, and a present
// lastTerminationExitCode is a LastTerminationState.Terminated with that code.
import { z } from "zod";
import type { Container, ContainerState, ContainerStatus, Pod, PodStatus } from "../k8s/pod.ts";
import { metav1Now } from "../kubelet/status/metatime.ts";
import { ConfigSourceAnnotationKey } from "../kubelet/types.ts";

export const encodedStatusSchema = z.looseObject({
  name: z.string(),
  state: z.enum(["waiting", "running", "terminated", "none"]),
  exitCode: z.number().int().optional(),
  reason: z.string().optional(),
  lastTerminationExitCode: z.number().int().optional(),
  lastTerminationReason: z.string().optional(),
  started: z.boolean().optional(),
});

export type EncodedStatus = z.infer<typeof encodedStatusSchema>;

/** A v1.ContainerStatus from the encoding; fields the encoding leaves out stay absent (Go zero). */
export function containerStatusFrom(e: EncodedStatus): ContainerStatus {
  const state: ContainerState = {};
  if (e.state === "waiting") state.waiting = e.reason === undefined ? {} : { reason: e.reason };
  else if (e.state === "running") state.running = {};
  else if (e.state === "terminated") state.terminated = { exitCode: e.exitCode ?? 0, ...(e.reason === undefined ? {} : { reason: e.reason }) };
  const s: ContainerStatus = { name: e.name, state };
  if (e.lastTerminationExitCode !== undefined) {
    const reason = e.lastTerminationReason === undefined ? {} : { reason: e.lastTerminationReason };
    s.lastState = { terminated: { exitCode: e.lastTerminationExitCode, ...reason } };
  }
  if (e.started !== undefined) s.started = e.started;
  return s;
}

/** A container as the vectors name it: a bare name, or {name, restartPolicy}. */
export const encodedContainerSchema = z.union([
  z.string(),
  z.looseObject({ name: z.string(), restartPolicy: z.literal("Always").optional() }),
]);

export function containerFrom(c: z.infer<typeof encodedContainerSchema>): Container {
  if (typeof c === "string") return { name: c };
  return { name: c.name, ...(c.restartPolicy === undefined ? {} : { restartPolicy: c.restartPolicy }) };
}

/** The annotation that makes a pod static (kubetypes.IsStaticPod): any config source but "api". */
export function staticAnnotations(isStatic: boolean, annotations?: Record<string, string>): Record<string, string> | undefined {
  if (annotations !== undefined) return { ...annotations };
  return isStatic ? { [ConfigSourceAnnotationKey]: "file" } : undefined;
}

/** A pod with the Go tests' identity (uid 12345678, foo, namespace new) unless the vector names one. */
export function testPod(meta: Partial<Pod["metadata"]>, spec: Pod["spec"], status?: Pod["status"]): Pod {
  const metadata: Pod["metadata"] = { name: "foo", namespace: "new", uid: "12345678", ...meta };
  return { apiVersion: "v1", kind: "Pod", metadata, spec, ...(status === undefined ? {} : { status }) };
}

/** Parses a part of a vector, or says which field is malformed. */
export function parsePart<T>(schema: z.ZodType<T>, value: unknown, what: string): T | string {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  return `malformed ${what}: ${[what, ...issue.path].join(".")}: ${issue.message}`;
}

/** Go zero values read as absent: "" and empty lists are dropped before an exact comparison. */
export function goZeroless(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, x]) => x !== "" && x !== undefined && x !== null && !(Array.isArray(x) && x.length === 0)));
}

/** A vector's pod: {uid, name, namespace, staticPod, spec: {restartPolicy, initContainers, containers}, status}. */
export const vectorPodSchema = z.looseObject({
  uid: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  staticPod: z.boolean().optional(),
  deletionTimestamp: z.string().optional(),
  spec: z.looseObject({
    restartPolicy: z.enum(["Always", "OnFailure", "Never"]).optional(),
    initContainers: z.array(encodedContainerSchema).optional(),
    containers: z.array(encodedContainerSchema).optional(),
  }),
  status: z
    .looseObject({
      phase: z.string().optional(),
      startTime: z.string().optional(),
      initContainerStatuses: z.array(encodedStatusSchema).optional(),
      containerStatuses: z.array(encodedStatusSchema).optional(),
    })
    .optional(),
});

export function podFromVector(p: z.infer<typeof vectorPodSchema>): Pod {
  const annotations = staticAnnotations(p.staticPod === true);
  const status: PodStatus | undefined = p.status === undefined ? undefined : {
    ...(p.status.phase === undefined ? {} : { phase: p.status.phase as PodStatus["phase"] }),
    ...(p.status.startTime === undefined ? {} : { startTime: p.status.startTime }),
    ...(p.status.initContainerStatuses === undefined ? {} : { initContainerStatuses: p.status.initContainerStatuses.map(containerStatusFrom) }),
    ...(p.status.containerStatuses === undefined ? {} : { containerStatuses: p.status.containerStatuses.map(containerStatusFrom) }),
  };
  const meta: Partial<Pod["metadata"]> = {
    ...(p.uid === undefined ? {} : { uid: p.uid }),
    ...(p.name === undefined ? {} : { name: p.name }),
    ...(p.namespace === undefined ? {} : { namespace: p.namespace }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(p.deletionTimestamp === undefined ? {} : { deletionTimestamp: metav1Now(0) }),
  };
  return testPod(meta, {
    ...(p.spec.restartPolicy === undefined ? {} : { restartPolicy: p.spec.restartPolicy }),
    initContainers: (p.spec.initContainers ?? []).map(containerFrom),
    containers: (p.spec.containers ?? []).map(containerFrom),
  }, status);
}
