// status_transitions.yaml vectors that are sequences of status manager calls: TerminatePod after
// SetPodStatus (status_terminate.ts), and runs of SetPodStatus, SetContainerReadiness,
// SetContainerStartup and TerminatePod counted as the test's consumeUpdates counts them, with the
// API verbs a sync sends and what the cached status holds after each step.
import { z } from "zod";
import type { ContainerStatus, Pod, PodStatus } from "../k8s/pod.ts";
import { parseMetaTime } from "../kubelet/status/metatime.ts";
import { diffValues, show } from "./diff.ts";
import { timeTokenMs, timeTokenText, unsettable } from "./encodings.ts";
import { containerStatusFrom, encodedConditionSchema, encodedPodStatusSchema, parsePart, podFromVector, podStatusFrom, testPod, vectorPodSchema } from "./oracle2_pods.ts";
import { VectorError, type Outcome, type RunContext } from "./outcome.ts";
import { StatusHarness } from "./status_harness.ts";
import type { StatusVector } from "./status_vectors.ts";
import { checkContainerExpectations, expectedContainerSchema } from "./status_terminate.ts";

export { runTerminatePod } from "./status_terminate.ts";

/** What a step (or the whole vector, at its end) may state about the status manager. */
const expectSchema = z.looseObject({
  readyLastTransitionTime: unsettable(z.string()),
  startTime: unsettable(z.string()),
  /** false: GetPodStatus finds no status ("Setting readiness before status should fail"). */
  hasStatus: unsettable(z.boolean()),
  podReady: unsettable(z.boolean()),
  phase: unsettable(z.string()),
  message: unsettable(z.string()),
  conditions: unsettable(z.array(encodedConditionSchema)),
  containers: unsettable(z.record(z.string(), expectedContainerSchema)),
});
type Expect = z.infer<typeof expectSchema>;

const stepSchema = z.looseObject({
  op: z.string(),
  status: z.unknown().optional(),
  pod: z.unknown().optional(),
  /** SetContainerReadiness / SetContainerStartup: the container by name, or its ID ("test://1"). */
  container: unsettable(z.string()),
  containerID: unsettable(z.string()),
  ready: unsettable(z.boolean()),
  started: unsettable(z.boolean()),
  expectUpdates: unsettable(z.number().int()),
  expectUpdatesSinceStart: unsettable(z.number().int()),
  expectApiActions: unsettable(z.array(z.string())),
  expect: unsettable(expectSchema),
});
type Step = z.infer<typeof stepSchema>;

const sequenceSchema = z.looseObject({
  setup: unsettable(z.looseObject({
    apiPod: unsettable(z.string()),
    podManager: unsettable(z.string()),
    podCouldHaveRunningContainers: unsettable(z.boolean()),
    /** The test pod's spec and status, when the Go test builds its own. */
    pod: unsettable(vectorPodSchema),
    podStatusStartTime: unsettable(z.string()),
  })),
  pod: unsettable(vectorPodSchema),
  podStatusStartTime: unsettable(z.string()),
  steps: z.array(stepSchema),
  expect: unsettable(expectSchema),
});
type Sequence = z.infer<typeof sequenceSchema>;

/** The times a sequence remembers: T1 is the Ready condition's first transition time it recorded. */
interface Memory {
  readyT1: number | null;
  consumed: number;
  random: number;
}

/** SetPodStatus, SetContainerReadiness/Startup and TerminatePod runs on newTestManager's pod (uid 12345678, foo/new). */
export function runStatusSequence(v: StatusVector, ctx: RunContext): Outcome {
  const seq = parsePart(sequenceSchema, v, "vector");
  const setup = seq.setup;
  const h = new StatusHarness({ minor: ctx.minor, podCouldHaveRunningContainers: setup?.podCouldHaveRunningContainers ?? false });
  let pod = initialPod(seq, h.sim.nowMs);
  const inPodManager = setup?.podManager === undefined || !/\b(?:empty|not|without|no pod)\b/i.test(setup.podManager);
  return h.drive(function* () {
    const diffs: string[] = [];
    if (setup?.apiPod !== undefined) {
      const err = yield* h.storePod(pod);
      if (err !== null) throw new VectorError(`setup: storing the pod in the fake clientset failed: ${err}`);
      pod = h.pods.values().next().value!;
      if (!inPodManager) h.pods.clear();
    } else if (inPodManager) {
      h.addPod(pod);
    }
    const mem: Memory = { readyT1: null, consumed: 0, random: 0 };
    for (const [i, s] of seq.steps.entries()) {
      const where = `steps[${i}] (${s.op})`;
      pod = applyStep(h, pod, s, where, mem);
      if (s.expectUpdates !== undefined || s.expectUpdatesSinceStart !== undefined || s.expectApiActions !== undefined) {
        const n = yield* h.consumeUpdates();
        mem.consumed += n;
        if (s.expectUpdates !== undefined && n !== s.expectUpdates) diffs.push(`${where} updates: expected ${s.expectUpdates}, got ${n}`);
        if (s.expectUpdatesSinceStart !== undefined && mem.consumed !== s.expectUpdatesSinceStart) diffs.push(`${where} updates since start: expected ${s.expectUpdatesSinceStart}, got ${mem.consumed}`);
      }
      if (s.expectApiActions !== undefined) {
        diffs.push(...diffValues(s.expectApiActions, h.client.actions, `${where} api actions`));
        h.client.actions.length = 0;
      }
      if (s.expect !== undefined) diffs.push(...checkExpect(h, pod, s.expect, mem).map((d) => `${where} ${d}`));
    }
    if (seq.expect !== undefined) diffs.push(...checkExpect(h, pod, seq.expect, mem));
    return diffs;
  });
}

/**
 * getTestPod, or the pod the vector builds. The in-process apiserver validates like a real one (and
 * deletes an unbound pod at once), so a pod for the fake clientset gets one container and a node.
 */
function initialPod(seq: Sequence, nowMs: number): Pod {
  const given = seq.setup?.pod ?? seq.pod;
  let pod = given === undefined ? testPod({}, { containers: [] }) : podFromVector(given, nowMs);
  const deleted = /deletionTimestamp/.test(seq.setup?.apiPod ?? "");
  if (deleted && pod.metadata.deletionTimestamp == null) pod = { ...pod, metadata: { ...pod.metadata, deletionTimestamp: timeTokenText("now", nowMs)! } };
  if (seq.setup?.apiPod !== undefined) {
    pod = { ...pod, spec: { ...pod.spec, nodeName: "machine", containers: pod.spec.containers.length > 0 ? pod.spec.containers : [{ name: "ctr", image: "busybox" }] } };
  }
  const start = seq.setup?.podStatusStartTime ?? seq.podStatusStartTime;
  if (start !== undefined) pod = { ...pod, status: { ...pod.status, startTime: timeOrThrow(start, nowMs, "podStatusStartTime") } };
  return pod;
}

function timeOrThrow(text: string, nowMs: number, field: string): string {
  const t = timeTokenText(text, nowMs);
  if (t === undefined) throw new VectorError(`${field} ${JSON.stringify(text)}: not a time (now, now-1m, unix:N or RFC 3339)`);
  return t;
}

/** One call on the manager; returns the pod as the test holds it afterwards. */
function applyStep(h: StatusHarness, pod: Pod, s: Step, where: string, mem: Memory): Pod {
  const nowMs = h.sim.nowMs;
  if (typeof s.pod === "object" && s.pod !== null) {
    pod = podFromVector(parsePart(vectorPodSchema, s.pod, `${where}.pod`), nowMs);
    h.addPod(pod);
  }
  switch (s.op) {
    case "SetPodStatus":
      h.manager.SetPodStatus(pod, statusOfStep(s.status, pod, nowMs, where, mem));
      return pod;
    case "SetContainerReadiness":
      if (s.ready === undefined) throw new VectorError(`${where}: SetContainerReadiness needs ready: true or false`);
      h.manager.SetContainerReadiness(pod.metadata.uid ?? "", containerIDOf(h, pod, s, where), s.ready);
      return pod;
    case "SetContainerStartup":
      if (s.started === undefined) throw new VectorError(`${where}: SetContainerStartup needs started: true or false`);
      h.manager.SetContainerStartup(pod.metadata.uid ?? "", containerIDOf(h, pod, s, where), s.started);
      return pod;
    case "TerminatePod":
      h.manager.TerminatePod(pod);
      return pod;
    default:
      throw new VectorError(`${where}: unknown op ${JSON.stringify(s.op)} (SetPodStatus, SetContainerReadiness, SetContainerStartup, TerminatePod)`);
  }
}

/** A step's status: the encoding, "pod.status" (the pod's own), or a random one (getRandomPodStatus: a random message). */
function statusOfStep(status: unknown, pod: Pod, nowMs: number, where: string, mem: Memory): PodStatus {
  if (status === undefined || (typeof status === "string" && /pod\.status|as given|the pod's/i.test(status))) return pod.status ?? {};
  if (typeof status === "string" && /random/i.test(status)) return { message: `random-${++mem.random}` };
  if (typeof status === "object" && status !== null) return podStatusFrom(parsePart(encodedPodStatusSchema, status, `${where}.status`), nowMs);
  throw new VectorError(`${where}.status: cannot interpret ${show(status)}`);
}

/** The container a readiness or startup step names: its ID, or the ID of its status by name. */
function containerIDOf(h: StatusHarness, pod: Pod, s: Step, where: string): string {
  if (s.containerID !== undefined) return s.containerID;
  if (s.container === undefined) throw new VectorError(`${where}: name the container (container or containerID)`);
  const cached = h.manager.GetPodStatus(pod.metadata.uid ?? "");
  const all = [...(cached?.initContainerStatuses ?? []), ...(cached?.containerStatuses ?? [])];
  // A name no status has stands for an unknown container ID ("non-existent container").
  return all.find((c) => c.name === s.container)?.containerID ?? `test://${s.container}`;
}

/** The checks of one `expect` against the manager's cached status. */
function checkExpect(h: StatusHarness, pod: Pod, e: Expect, mem: Memory): string[] {
  const status = h.manager.GetPodStatus(pod.metadata.uid ?? "");
  const diffs: string[] = [];
  if (e.hasStatus !== undefined && (status !== undefined) !== e.hasStatus) diffs.push(`status cached: expected ${e.hasStatus}, got ${status !== undefined}`);
  if (status === undefined) {
    const asks = Object.entries(e).some(([k, x]) => x !== undefined && k !== "hasStatus");
    return asks ? [...diffs, "no status is cached"] : diffs;
  }
  if (e.readyLastTransitionTime !== undefined) {
    const r = checkReadyTime(e.readyLastTransitionTime, status, mem.readyT1);
    if (typeof r === "string") diffs.push(r);
    else mem.readyT1 = r;
  }
  if (e.startTime !== undefined) diffs.push(...checkTime("startTime", e.startTime, status.startTime, h.sim.nowMs));
  if (e.phase !== undefined && status.phase !== e.phase) diffs.push(`phase: expected ${show(e.phase)}, got ${show(status.phase)}`);
  if (e.message !== undefined && (status.message ?? "") !== e.message) diffs.push(`message: expected ${show(e.message)}, got ${show(status.message)}`);
  if (e.podReady !== undefined) {
    const ready = status.conditions?.find((c) => c.type === "Ready")?.status === "True";
    if (ready !== e.podReady) diffs.push(`pod Ready: expected ${e.podReady}, got ${ready}`);
  }
  if (e.conditions !== undefined) {
    const byType = (cs: readonly { type: string; status: string; reason?: string | undefined }[]) => Object.fromEntries(cs.map((c) => [c.type, { status: c.status, reason: c.reason ?? "" }]));
    diffs.push(...diffValues(byType(e.conditions), byType(status.conditions ?? []), "conditions"));
  }
  const all: ContainerStatus[] = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])];
  diffs.push(...checkContainerExpectations(e.containers, all, "containers"));
  return diffs;
}

/** A time the vector states: a token against the harness clock, or "non-zero". */
function checkTime(field: string, want: string, got: string | null | undefined, nowMs: number): string[] {
  if (/non-?zero|is set|not zero/i.test(want)) return got === undefined || got === null || got === "" ? [`${field}: expected a time, got ${show(got)}`] : [];
  const ms = timeTokenMs(want, nowMs);
  if (ms === undefined) throw new VectorError(`expect.${field} ${JSON.stringify(want)}: not a time (now, now-1m, unix:N, RFC 3339, or "non-zero")`);
  const text = timeTokenText(want, nowMs);
  return got === text ? [] : [`${field}: expected ${text} (${want}), got ${show(got)}`];
}

/**
 * The Ready condition's lastTransitionTime: "set = T1" records it, "non-zero and not before T1"
 * and "T1 (unchanged)" compare with it.
 */
function checkReadyTime(want: string, status: PodStatus, t1: number | null): number | string {
  const text = status.conditions?.find((c) => c.type === "Ready")?.lastTransitionTime;
  if (text === undefined || text === null || text === "") return `Ready lastTransitionTime: expected a time, got ${show(text)}`;
  const ms = parseMetaTime(text);
  if (/not before T1/.test(want)) return t1 !== null && ms >= t1 ? ms : `Ready lastTransitionTime: expected not before T1 (${show(t1)}), got ${text}`;
  if (/T1 \(unchanged\)|unchanged|equal to T1|^=?\s*T1$/.test(want)) return t1 !== null && ms === t1 ? ms : `Ready lastTransitionTime: expected T1 unchanged (${show(t1)}), got ${text}`;
  if (/set\b|= T1/.test(want)) return ms;
  throw new VectorError(`readyLastTransitionTime ${JSON.stringify(want)}: expected "set = T1", "non-zero and not before T1" or "T1 (unchanged)"`);
}

const stateSchema = z.looseObject({ state: z.enum(["waiting", "running", "terminated"]), exitCode: unsettable(z.number().int()) });
const transitionSchema = z.looseObject({
  input: z.looseObject({
    restartPolicy: z.enum(["Always", "OnFailure", "Never"]),
    list: z.enum(["containers", "initContainers"]),
    containerName: z.string(),
    restartableInit: unsettable(z.boolean()),
    oldState: stateSchema,
    newState: stateSchema,
  }),
  expect: z.looseObject({ illegal: z.boolean(), effect: unsettable(z.string()) }),
});

/**
 * checkContainerStateTransition, as SetPodStatus applies it: the old state is cached first, then a
 * second SetPodStatus moves the container; an illegal transition drops that update whole (the
 * cached version stays and no update is queued).
 */
export function runStateTransition(v: StatusVector, ctx: RunContext): Outcome {
  const t = parsePart(transitionSchema, v, "vector");
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
  const queuedBefore = h.manager.podStatusChannel.length;
  h.manager.SetPodStatus(pod, statusWith(input.newState));
  const after = h.manager.podStatuses.get(pod.metadata.uid!)?.version ?? 0;
  const illegal = before === after;
  const diffs = illegal === t.expect.illegal ? [] : [`illegal: expected ${t.expect.illegal}, got ${illegal} (status version ${before} → ${after})`];
  const effect = t.expect.effect;
  if (effect !== undefined) {
    const queued = h.manager.podStatusChannel.length > queuedBefore || after > before;
    if (/proceeds/i.test(effect)) {
      if (after <= before) diffs.push(`effect: expected the update to proceed, but the cached status stayed at version ${before}`);
    } else if (/drops|unchanged|no update/i.test(effect)) {
      if (after !== before || queued) diffs.push(`effect: expected the update dropped, got version ${before} → ${after}${queued ? ", an update queued" : ""}`);
    } else throw new VectorError(`expect.effect ${JSON.stringify(effect)}: expected "update proceeds" or "... drops the whole update ..."`);
  }
  return diffs;
}
