// Runs status_transitions.yaml vectors (status/status_manager_test.go) through the status manager:
// the pure helpers directly (mergePodStatus, updateLastTransitionTime, normalizeStatus with
// isPodStatusByKubeletEqual), the rest as calls on a real StatusManager (status_harness.ts).
import { z } from "zod";
import type { ContainerStatus, PodCondition, PodStatus } from "../k8s/pod.ts";
import { statusEra } from "../kubelet/status/era.ts";
import { metav1Now } from "../kubelet/status/metatime.ts";
import { isPodStatusByKubeletEqual, mergePodStatus, normalizeStatus, updateLastTransitionTime } from "../kubelet/status/status_helpers.ts";
import { diffValues, show } from "./diff.ts";
import { containerFrom, containerStatusFrom, encodedContainerSchema, encodedStatusSchema, goZeroless, parsePart, testPod } from "./oracle2_pods.ts";
import { VectorError, type Outcome, type RunContext } from "./outcome.ts";
import { runStatusSequence, runTerminatePod, runStateTransition } from "./status_sequences.ts";
import { consume } from "./tracked.ts";

export const statusVectorSchema = z.looseObject({
  name: z.string(),
  id: z.string().optional(),
  function: z.string(),
  input: z.unknown().optional(),
  expect: z.unknown().optional(),
});

export type StatusVector = z.infer<typeof statusVectorSchema>;

export function runStatusVector(v: StatusVector, ctx: RunContext): Outcome {
  const fn = v.function;
  if (fn === "mergePodStatus") return runMerge(v, ctx);
  if (fn.startsWith("updateLastTransitionTime")) return runTransitionTime(v);
  if (fn.startsWith("normalizeStatus")) return runEquality(v, ctx);
  if (fn.startsWith("checkContainerStateTransition")) return runStateTransition(v, ctx);
  if (fn.startsWith("TerminatePod") && checksTerminatedStatus(v.expect)) return runTerminatePod(v, ctx);
  if (/^(SetPodStatus|SetContainer|TerminatePod|syncBatch)/.test(fn)) return runStatusSequence(v, ctx);
  throw new VectorError(`function ${JSON.stringify(fn)}: no runner for it`);
}

/** A TerminatePod vector that states the terminated status (rather than a sequence's API verbs). */
function checksTerminatedStatus(expect: unknown): boolean {
  if (typeof expect !== "object" || expect === null) return false;
  return ["containers", "initContainers", "exactStatus", "exactStatusIgnoringStartTime", "phase", "message"].some((k) => k in expect);
}

const condition = z.looseObject({ type: z.string(), status: z.enum(["True", "False", "Unknown"]), reason: z.string().optional(), lastTransitionTime: z.string().optional() });
const apiStatus = z.looseObject({
  phase: z.string().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  conditions: z.array(condition).optional(),
});

const mergeInput = z.looseObject({ oldPodStatus: apiStatus, newPodStatus: apiStatus, couldHaveRunningContainers: z.boolean() });

/** TestMergePodStatus compares conditions as a set keyed by type (status and reason), the rest exactly. */
function runMerge(v: StatusVector, ctx: RunContext): string[] {
  const input = parsePart(mergeInput, v.input, "input");
  const expect = parsePart(z.looseObject({ status: apiStatus }), v.expect, "expect");
  // The inputs go to mergePodStatus whole: what it leaves unread (the old kubelet-owned conditions) is its own business.
  const got = mergePodStatus(consume(input.oldPodStatus) as PodStatus, consume(input.newPodStatus) as PodStatus, input.couldHaveRunningContainers, statusEra(ctx.minor), 0);
  const bySet = (cs: readonly PodCondition[] | undefined) =>
    Object.fromEntries([...(cs ?? [])].map((c) => [c.type, { status: c.status, reason: c.reason ?? "" }]));
  const { conditions: wantConds, ...wantRest } = expect.status;
  const { conditions: gotConds, ...gotRest } = got;
  const counts = (wantConds ?? []).length === (gotConds ?? []).length ? [] : [`conditions: expected ${(wantConds ?? []).length}, got ${(gotConds ?? []).length}`];
  return [...counts, ...diffValues(bySet(wantConds as PodCondition[]), bySet(gotConds), "conditions"), ...diffValues(goZeroless(wantRest), goZeroless(gotRest))];
}

const transitionInput = z.looseObject({
  statusCondition: condition.nullable(),
  oldStatusCondition: condition.nullable(),
});

/** The test clock's "now"; "old (now-1s)" in a vector is one second before it. */
const NOW_MS = 60_000;

/** TestUpdateLastTransitionTime: updateLastTransitionTime(status, oldStatus, "test-type") at a fixed now. */
function runTransitionTime(v: StatusVector): string[] {
  const input = parsePart(transitionInput, v.input, "input");
  const expect = parsePart(z.looseObject({ lastTransitionTime: z.string() }), v.expect, "expect");
  const timeOf = (text: string | undefined): string | undefined => {
    if (text === undefined) return undefined;
    return /now-1s/.test(text) ? metav1Now(NOW_MS - 1000) : metav1Now(NOW_MS);
  };
  const withTime = (c: z.infer<typeof condition> | null): PodCondition[] => {
    if (c === null) return [];
    const t = timeOf(c.lastTransitionTime);
    return [{ type: c.type, status: c.status, ...(t === undefined ? {} : { lastTransitionTime: t }) }];
  };
  const status: PodStatus = { conditions: withTime(input.statusCondition) };
  const oldStatus: PodStatus = { conditions: withTime(input.oldStatusCondition) };
  updateLastTransitionTime(status, oldStatus, "test-type", NOW_MS);
  const got = status.conditions?.[0]?.lastTransitionTime;
  const want = expect.lastTransitionTime;
  if (/^no condition/.test(want)) return status.conditions?.length === 0 ? [] : [`expected no condition, got ${show(status.conditions)}`];
  if (/copied from old/.test(want)) return got === oldStatus.conditions?.[0]?.lastTransitionTime ? [] : [`lastTransitionTime: expected the old ${show(oldStatus.conditions?.[0]?.lastTransitionTime)}, got ${show(got)}`];
  if (/\bnow\b|updated|set/.test(want)) return got === metav1Now(NOW_MS) ? [] : [`lastTransitionTime: expected now ${show(metav1Now(NOW_MS))}, got ${show(got)}`];
  return [`cannot interpret expect.lastTransitionTime ${JSON.stringify(want)}`];
}

const namesOrStatuses = z.array(z.union([z.string(), encodedStatusSchema]));
const equalityInput = z.looseObject({
  old: z.record(z.string(), namesOrStatuses),
  new: z.record(z.string(), namesOrStatuses),
});

/** TestStatusEquality: both statuses normalized, then isPodStatusByKubeletEqual. */
function runEquality(v: StatusVector, ctx: RunContext): string[] {
  const podPart = parsePart(z.looseObject({ spec: z.looseObject({ initContainers: z.array(encodedContainerSchema).optional(), containers: z.array(encodedContainerSchema).optional() }).optional() }), (v as { pod?: unknown }).pod ?? {}, "pod");
  const input = parsePart(equalityInput, v.input, "input");
  const expect = parsePart(z.looseObject({ equalAfterNormalize: z.boolean() }), v.expect, "expect");
  const pod = testPod({}, {
    initContainers: (podPart.spec?.initContainers ?? []).map(containerFrom),
    containers: (podPart.spec?.containers ?? []).map(containerFrom),
  });
  const era = statusEra(ctx.minor);
  const statusOf = (lists: Record<string, z.infer<typeof namesOrStatuses>>): PodStatus =>
    Object.fromEntries(Object.entries(lists).map(([k, list]) => [k, list.map(statusOfEntry)]));
  const oldStatus = normalizeStatus(pod, statusOf(input.old), era.normalizeEphemeral);
  const newStatus = normalizeStatus(pod, statusOf(input.new), era.normalizeEphemeral);
  const equal = isPodStatusByKubeletEqual(oldStatus, newStatus, era);
  return equal === expect.equalAfterNormalize ? [] : [`equal after normalizeStatus: expected ${expect.equalAfterNormalize}, got ${equal}`];
}

function statusOfEntry(e: string | z.infer<typeof encodedStatusSchema>): ContainerStatus {
  return typeof e === "string" ? { name: e } : containerStatusFrom(e);
}

