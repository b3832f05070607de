// The oracle2 files' compact encodings of pods and API container statuses, built into real objects.
//
// phase.yaml and status_transitions.yaml write a container status as {name, state, exitCode,
// lastTerminationExitCode, started, ready, containerID, ...}; pods as a name list or as a small
// spec. The Go tests' helpers are reproduced exactly: an absent `started` is a nil pointer, not
// false, and a present lastTerminationExitCode is a LastTerminationState.Terminated with that code.
// Times are tokens read against the harness clock (encodings.ts); null and "(unset)" are absent.
import { z } from "zod";
import type { Container, ContainerState, ContainerStatus, Pod, PodCondition, PodStatus } from "../k8s/pod.ts";
import { ConfigSourceAnnotationKey } from "../kubelet/types.ts";
import { timeTokenText, unsettable } from "./encodings.ts";
import { VectorError } from "./outcome.ts";
import { parseTracked } from "./tracked.ts";

export const encodedStatusSchema = z.looseObject({
  name: z.string(),
  /** none (or absent) = ContainerState{}: every member nil. */
  state: unsettable(z.enum(["waiting", "running", "terminated", "none"])),
  exitCode: unsettable(z.number().int()),
  reason: unsettable(z.string()),
  message: unsettable(z.string()),
  startedAt: unsettable(z.string()),
  finishedAt: unsettable(z.string()),
  lastTerminationExitCode: unsettable(z.number().int()),
  lastTerminationReason: unsettable(z.string()),
  started: unsettable(z.boolean()),
  ready: unsettable(z.boolean()),
  containerID: unsettable(z.string()),
  restartCount: unsettable(z.number().int()),
});

export type EncodedStatus = z.infer<typeof encodedStatusSchema>;

/** A v1.ContainerStatus from the encoding; fields the encoding leaves out stay absent (Go zero). */
export function containerStatusFrom(e: EncodedStatus, nowMs = 0): ContainerStatus {
  const time = (t: string | undefined) => (t === undefined ? undefined : (timeTokenText(t, nowMs) ?? t));
  const state: ContainerState = {};
  const startedAt = time(e.startedAt);
  if (e.state === "waiting") state.waiting = { ...(e.reason === undefined ? {} : { reason: e.reason }), ...(e.message === undefined ? {} : { message: e.message }) };
  else if (e.state === "running") state.running = startedAt === undefined ? {} : { startedAt };
  else if (e.state === "terminated") {
    const finishedAt = time(e.finishedAt);
    state.terminated = {
      exitCode: e.exitCode ?? 0,
      ...(e.reason === undefined ? {} : { reason: e.reason }),
      ...(e.message === undefined ? {} : { message: e.message }),
      ...(startedAt === undefined ? {} : { startedAt }),
      ...(finishedAt === undefined ? {} : { finishedAt }),
    };
  }
  const s: ContainerStatus = { name: e.name, state };
  if (e.lastTerminationExitCode !== undefined) {
    const reason = e.lastTerminationReason === undefined ? {} : { reason: e.lastTerminationReason };
    s.lastState = { terminated: { exitCode: e.lastTerminationExitCode, ...reason } };
  }
  if (e.started !== undefined) s.started = e.started;
  if (e.ready !== undefined) s.ready = e.ready;
  if (e.containerID !== undefined) s.containerID = e.containerID;
  if (e.restartCount !== undefined) s.restartCount = e.restartCount;
  return s;
}

/** A container as the vectors name it: a bare name, or {name, restartPolicy}. */
export const encodedContainerSchema = z.union([
  z.string(),
  z.looseObject({ name: z.string(), restartPolicy: unsettable(z.literal("Always")) }),
]);

export function containerFrom(c: z.infer<typeof encodedContainerSchema>): Container {
  if (typeof c === "string") return { name: c };
  return { name: c.name, ...(c.restartPolicy === undefined ? {} : { restartPolicy: c.restartPolicy }) };
}

/** A pod condition: {type, status, reason?, message?, lastTransitionTime?} (a time token). */
export const encodedConditionSchema = z.looseObject({
  type: z.string(),
  status: z.enum(["True", "False", "Unknown"]),
  reason: unsettable(z.string()),
  message: unsettable(z.string()),
  lastTransitionTime: unsettable(z.string()),
});

export function conditionFrom(c: z.infer<typeof encodedConditionSchema>, nowMs = 0): PodCondition {
  const t = c.lastTransitionTime === undefined ? undefined : (timeTokenText(c.lastTransitionTime, nowMs) ?? c.lastTransitionTime);
  return {
    type: c.type, status: c.status,
    ...(c.reason === undefined ? {} : { reason: c.reason }),
    ...(c.message === undefined ? {} : { message: c.message }),
    ...(t === undefined ? {} : { lastTransitionTime: t }),
  };
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

/** Parses a part of a vector (reads stay tracked), or throws a VectorError naming the malformed field. */
export function parsePart<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = parseTracked(schema, value);
  if (r.success) return r.data as T;
  const issue = r.error.issues[0]!;
  throw new VectorError(`malformed ${what}: ${[what, ...issue.path].join(".")}: ${issue.message}`);
}

/** Go zero values read as absent: "" and empty lists are dropped before an exact comparison. */
export function goZeroless(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, x]) => x !== "" && x !== undefined && x !== null && !(Array.isArray(x) && x.length === 0)));
}

/** An API pod status in the encoding: phase, message, reason, startTime, conditions, the status lists. */
export const encodedPodStatusSchema = z.looseObject({
  phase: unsettable(z.string()),
  message: unsettable(z.string()),
  reason: unsettable(z.string()),
  startTime: unsettable(z.string()),
  conditions: unsettable(z.array(encodedConditionSchema)),
  initContainerStatuses: unsettable(z.array(encodedStatusSchema)),
  containerStatuses: unsettable(z.array(encodedStatusSchema)),
  ephemeralContainerStatuses: unsettable(z.array(encodedStatusSchema)),
});

export function podStatusFrom(s: z.infer<typeof encodedPodStatusSchema>, nowMs = 0): PodStatus {
  const startTime = s.startTime === undefined ? undefined : timeTokenText(s.startTime, nowMs);
  if (s.startTime !== undefined && startTime === undefined) throw new VectorError(`startTime ${JSON.stringify(s.startTime)}: not a time (now, now-1m, unix:N or RFC 3339)`);
  const statuses = (list: EncodedStatus[] | undefined) => list?.map((c) => containerStatusFrom(c, nowMs));
  const out: PodStatus = {
    ...(s.phase === undefined ? {} : { phase: s.phase as PodStatus["phase"] }),
    ...(s.message === undefined ? {} : { message: s.message }),
    ...(s.reason === undefined ? {} : { reason: s.reason }),
    ...(startTime === undefined ? {} : { startTime }),
    ...(s.conditions === undefined ? {} : { conditions: s.conditions.map((c) => conditionFrom(c, nowMs)) }),
  };
  const init = statuses(s.initContainerStatuses);
  const regular = statuses(s.containerStatuses);
  const ephemeral = statuses(s.ephemeralContainerStatuses);
  if (init !== undefined) out.initContainerStatuses = init;
  if (regular !== undefined) out.containerStatuses = regular;
  if (ephemeral !== undefined) out.ephemeralContainerStatuses = ephemeral;
  return out;
}

/** A vector's pod: {uid, name, namespace, staticPod, deletionTimestamp, spec: {restartPolicy, initContainers, containers}, status}. */
export const vectorPodSchema = z.looseObject({
  uid: unsettable(z.string()),
  name: unsettable(z.string()),
  namespace: unsettable(z.string()),
  staticPod: unsettable(z.boolean()),
  deletionTimestamp: unsettable(z.string()),
  spec: unsettable(z.looseObject({
    restartPolicy: unsettable(z.enum(["Always", "OnFailure", "Never"])),
    initContainers: unsettable(z.array(encodedContainerSchema)),
    containers: unsettable(z.array(encodedContainerSchema)),
  })),
  status: unsettable(encodedPodStatusSchema),
});

export function podFromVector(p: z.infer<typeof vectorPodSchema>, nowMs = 0): Pod {
  const annotations = staticAnnotations(p.staticPod === true);
  const deletion = p.deletionTimestamp === undefined ? undefined : (timeTokenText(p.deletionTimestamp, nowMs) ?? timeTokenText("now", nowMs));
  const meta: Partial<Pod["metadata"]> = {
    ...(p.uid === undefined ? {} : { uid: p.uid }),
    ...(p.name === undefined ? {} : { name: p.name }),
    ...(p.namespace === undefined ? {} : { namespace: p.namespace }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(deletion === undefined ? {} : { deletionTimestamp: deletion }),
  };
  return testPod(meta, {
    ...(p.spec?.restartPolicy === undefined ? {} : { restartPolicy: p.spec.restartPolicy }),
    initContainers: (p.spec?.initContainers ?? []).map(containerFrom),
    containers: (p.spec?.containers ?? []).map(containerFrom),
  }, p.status === undefined ? undefined : podStatusFrom(p.status, nowMs));
}
