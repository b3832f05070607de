// status_transitions.yaml vectors that are sequences of status manager calls: TerminatePod after
// SetPodStatus, SetPodStatus runs counted as the test's consumeUpdates counts them, the API verbs a
// sync sends, and checkContainerStateTransition as the abort of a SetPodStatus.
import { z } from "zod";
import type { ContainerState, ContainerStatus, Pod, PodStatus } from "../k8s/pod.ts";
import { parseMetaTime } from "../kubelet/status/metatime.ts";
import { diffValues, show } from "./diff.ts";
import { containerStatusFrom, encodedStatusSchema, goZeroless, parsePart, podFromVector, testPod, vectorPodSchema } from "./oracle2_pods.ts";
import type { Outcome, RunContext } from "./outcome.ts";
import { StatusHarness } from "./status_harness.ts";
import type { StatusVector } from "./status_vectors.ts";

/** TerminatePod's default state for a container that could have run (terminatedUnknown in the vectors). */
const TERMINATED_UNKNOWN: ContainerState = {
  terminated: { exitCode: 137, reason: "ContainerStatusUnknown", message: "The container could not be located when the pod was terminated" },
};

const expectedContainer = z.looseObject({ state: z.enum(["terminatedUnknown", "waiting", "running", "terminated", "none"]), exitCode: z.number().int().optional() });
const terminateSchema = z.looseObject({
  pod: vectorPodSchema.optional(),
  steps: z.array(z.looseObject({ op: z.string(), pod: z.unknown().optional() })),
  expect: z.looseObject({
    containers: z.record(z.string(), expectedContainer).optional(),
    initContainers: z.record(z.string(), expectedContainer).optional(),
    exactStatusIgnoringStartTime: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** TestTerminatePod*: optional SetPodStatus(pod, pod.status), then TerminatePod(pod); the cached status is checked. */
export function runTerminatePod(v: StatusVector, ctx: RunContext): Outcome {
  const t = parsePart(terminateSchema, v, "vector");
  if (typeof t === "string") return [t];
  const h = new StatusHarness({ minor: ctx.minor });
  let pod: Pod | null = t.pod === undefined ? null : podFromVector(t.pod);
  for (const [i, s] of t.steps.entries()) {
    if (typeof s.pod === "object" && s.pod !== null) {
      const p = parsePart(vectorPodSchema, s.pod, `steps[${i}].pod`);
      if (typeof p === "string") return [p];
      pod = podFromVector(p);
    }
    if (pod === null) return [`steps[${i}]: no pod to act on`];
    h.addPod(pod);
    if (s.op === "SetPodStatus") h.manager.SetPodStatus(pod, pod.status ?? {});
    else if (s.op === "TerminatePod") h.manager.TerminatePod(pod);
    else return [`steps[${i}]: unknown op ${JSON.stringify(s.op)}`];
  }
  const cached = h.manager.GetPodStatus(pod?.metadata.uid ?? "");
  if (cached === undefined) return ["no status was cached"];
  const diffs: string[] = [];
  if (t.expect.exactStatusIgnoringStartTime !== undefined) {
    const { startTime: _s, ...rest } = cached;
    diffs.push(...diffValues(t.expect.exactStatusIgnoringStartTime, goZeroless(rest as Record<string, unknown>), "status"));
  }
  diffs.push(...checkContainers(t.expect.containers, cached.containerStatuses, "containerStatuses"));
  diffs.push(...checkContainers(t.expect.initContainers, cached.initContainerStatuses, "initContainerStatuses"));
  return diffs;
}

function checkContainers(want: Record<string, z.infer<typeof expectedContainer>> | undefined, got: readonly ContainerStatus[] | undefined, field: string): string[] {
  return Object.entries(want ?? {}).flatMap(([name, w]) => {
    const s = got?.find((c) => c.name === name);
    if (s === undefined) return [`${field}[${name}]: expected a status, got none`];
    const state = s.state ?? {};
    const where = `${field}[${name}].state`;
    switch (w.state) {
      case "terminatedUnknown":
        return diffValues(TERMINATED_UNKNOWN, state, where);
      case "terminated":
        if (state.terminated === undefined) return [`${where}: expected terminated, got ${show(state)}`];
        return w.exitCode === undefined || state.terminated.exitCode === w.exitCode ? [] : [`${where}.terminated.exitCode: expected ${w.exitCode}, got ${state.terminated.exitCode}`];
      case "none":
        return Object.keys(state).length === 0 ? [] : [`${where}: expected an empty state, got ${show(state)}`];
      default: {
        const others = Object.keys(state).filter((k) => k !== w.state);
        return state[w.state] !== undefined && others.length === 0 ? [] : [`${where}: expected ${w.state}, got ${show(state)}`];
      }
    }
  });
}

const condition = z.looseObject({ type: z.string(), status: z.enum(["True", "False", "Unknown"]), reason: z.string().optional() });
const sequenceStep = z.looseObject({
  op: z.string(),
  status: z.looseObject({ phase: z.string().optional(), message: z.string().optional(), reason: z.string().optional(), conditions: z.array(condition).optional(), containerStatuses: z.array(encodedStatusSchema).optional() }).optional(),
  expectUpdates: z.number().int().optional(),
  expectUpdatesSinceStart: z.number().int().optional(),
  expectApiActions: z.array(z.string()).optional(),
  expect: z.looseObject({ readyLastTransitionTime: z.string().optional() }).optional(),
});
const sequenceSchema = z.looseObject({
  setup: z.looseObject({ apiPod: z.string().optional(), podManager: z.string().optional(), podCouldHaveRunningContainers: z.boolean().optional() }).optional(),
  steps: z.array(sequenceStep),
});

/** SetPodStatus sequences on newTestManager's test pod (uid 12345678, foo/new), with consumeUpdates checks. */
export function runStatusSequence(v: StatusVector, ctx: RunContext): Outcome {
  const seq = parsePart(sequenceSchema, v, "vector");
  if (typeof seq === "string") return [seq];
  const h = new StatusHarness({ minor: ctx.minor, podCouldHaveRunningContainers: seq.setup?.podCouldHaveRunningContainers ?? false });
  const deleted = /deletionTimestamp/.test(seq.setup?.apiPod ?? "");
  // getTestPod has no container and no node; the in-process apiserver validates like a real one (and
  // deletes an unbound pod at once), so the pod gets one container and is bound to a node.
  const spec = { nodeName: "machine", containers: [{ name: "ctr", image: "busybox" }] };
  let pod = testPod(deleted ? { deletionTimestamp: "1970-01-01T00:00:00Z" } : {}, spec);
  return h.drive(function* () {
    const diffs: string[] = [];
    if (seq.setup?.apiPod !== undefined) {
      const err = yield* h.storePod(pod);
      if (err !== null) return [`setup: storing the pod failed: ${err}`];
      pod = h.pods.values().next().value!;
    } else {
      h.addPod(pod);
    }
    let consumed = 0;
    let readyT1: number | null = null;
    for (const [i, s] of seq.steps.entries()) {
      const where = `steps[${i}] (${s.op})`;
      if (s.op !== "SetPodStatus") {
        diffs.push(`${where}: unknown op`);
        continue;
      }
      h.manager.SetPodStatus(pod, statusFromStep(s.status ?? {}));
      if (s.expectUpdates !== undefined || s.expectUpdatesSinceStart !== undefined) {
        const n = yield* h.consumeUpdates();
        consumed += n;
        if (s.expectUpdates !== undefined && n !== s.expectUpdates) diffs.push(`${where} updates: expected ${s.expectUpdates}, got ${n}`);
        if (s.expectUpdatesSinceStart !== undefined && consumed !== s.expectUpdatesSinceStart) diffs.push(`${where} updates since start: expected ${s.expectUpdatesSinceStart}, got ${consumed}`);
      } else if (s.expectApiActions !== undefined) {
        yield* h.consumeUpdates();
      }
      if (s.expectApiActions !== undefined) diffs.push(...diffValues(s.expectApiActions, h.client.actions, `${where} api actions`));
      const want = s.expect?.readyLastTransitionTime;
      if (want !== undefined) {
        const r = checkReadyTime(want, h.manager.GetPodStatus(pod.metadata.uid ?? ""), readyT1);
        if (typeof r === "string") diffs.push(`${where} ${r}`);
        else readyT1 = r;
      }
    }
    return diffs;
  });
}

function statusFromStep(s: z.infer<typeof sequenceStep>["status"] & object): PodStatus {
  const { containerStatuses, ...rest } = s;
  return { ...(rest as PodStatus), ...(containerStatuses === undefined ? {} : { containerStatuses: containerStatuses.map(containerStatusFrom) }) };
}

/** "set = T1" records the Ready condition's transition time; "non-zero and not before T1" checks the next one. */
function checkReadyTime(want: string, status: PodStatus | undefined, t1: number | null): number | string {
  const text = status?.conditions?.find((c) => c.type === "Ready")?.lastTransitionTime;
  if (text === undefined || text === null || text === "") return `Ready lastTransitionTime: expected a time, got ${show(text)}`;
  const ms = parseMetaTime(text);
  if (/not before T1/.test(want)) return t1 !== null && ms >= t1 ? ms : `Ready lastTransitionTime: expected not before T1, got ${text}`;
  if (/set/.test(want)) return ms;
  return `cannot interpret ${JSON.stringify(want)}`;
}

const stateSchema = z.looseObject({ state: z.enum(["waiting", "running", "terminated"]), exitCode: z.number().int().optional() });
const transitionSchema = z.looseObject({
  input: z.looseObject({
    restartPolicy: z.enum(["Always", "OnFailure", "Never"]),
    list: z.enum(["containers", "initContainers"]),
    containerName: z.string(),
    restartableInit: z.boolean().optional(),
    oldState: stateSchema,
    newState: stateSchema,
  }),
  expect: z.looseObject({ illegal: z.boolean() }),
});

/**
 * checkContainerStateTransition, as SetPodStatus applies it: the old state is cached first, then a
 * second SetPodStatus moves the container; an illegal transition drops that update whole.
 */
export function runStateTransition(v: StatusVector, ctx: RunContext): Outcome {
  const t = parsePart(transitionSchema, v, "vector");
  if (typeof t === "string") return [t];
  const { input } = t;
  const c = { name: input.containerName, ...(input.restartableInit === true ? { restartPolicy: "Always" as const } : {}) };
  const isInit = input.list === "initContainers";
  const pod = testPod({}, { restartPolicy: input.restartPolicy, initContainers: isInit ? [c] : [], containers: isInit ? [{ name: "main" }] : [c] });
  const statusWith = (st: z.infer<typeof stateSchema>): PodStatus => {
    const cs = containerStatusFrom({ name: input.containerName, state: st.state, ...(st.exitCode === undefined ? {} : { exitCode: st.exitCode }) });
    return isInit ? { initContainerStatuses: [cs] } : { containerStatuses: [cs] };
  };
  const h = new StatusHarness({ minor: ctx.minor });
  h.addPod(pod);
  h.manager.SetPodStatus(pod, statusWith(input.oldState));
  const before = h.manager.podStatuses.get(pod.metadata.uid!)?.version ?? 0;
  h.manager.SetPodStatus(pod, statusWith(input.newState));
  const after = h.manager.podStatuses.get(pod.metadata.uid!)?.version ?? 0;
  const illegal = before === after;
  return illegal === t.expect.illegal ? [] : [`illegal: expected ${t.expect.illegal}, got ${illegal} (status version ${before} → ${after})`];
}
