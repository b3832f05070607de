// status_transitions.yaml's TerminatePod vectors (TestTerminatePod, TestTerminatePodWaiting,
// TestTerminatePod_DefaultUnknownStatus, TestTerminatePod_EnsurePodPhaseIsTerminal): optional
// SetPodStatus calls, then TerminatePod, then what the manager cached: per-container states (the
// test's expectTerminatedUnknown / expectTerminated / expectWaiting and its DeepEqual of preserved
// states), the whole status (the table's DeepEqual when it has no expectFn), phase and message.
import { z } from "zod";
import type { ContainerState, ContainerStatus, Pod, PodStatus } from "../k8s/pod.ts";
import { diffValues, show } from "./diff.ts";
import { unsettable } from "./encodings.ts";
import { goValue } from "./go_equal.ts";
import { encodedPodStatusSchema, parsePart, podFromVector, podStatusFrom, vectorPodSchema } from "./oracle2_pods.ts";
import { VectorError, type Outcome, type RunContext } from "./outcome.ts";
import { StatusHarness } from "./status_harness.ts";
import type { StatusVector } from "./status_vectors.ts";
import { consume } from "./tracked.ts";

/** TerminatePod's default state for a container that could have run (terminatedUnknown in the vectors). */
const TERMINATED_UNKNOWN: ContainerState = {
  terminated: { exitCode: 137, reason: "ContainerStatusUnknown", message: "The container could not be located when the pod was terminated" },
};

/** What a vector says of one container's status afterwards; each field given is checked. */
export const expectedContainerSchema = z.looseObject({
  state: unsettable(z.enum(["terminatedUnknown", "waiting", "running", "terminated", "none"])),
  exitCode: unsettable(z.number().int()),
  reason: unsettable(z.string()),
  message: unsettable(z.string()),
  lastTerminationExitCode: unsettable(z.number().int()),
  lastTerminationReason: unsettable(z.string()),
  ready: unsettable(z.boolean()),
  started: unsettable(z.boolean()),
});
type ExpectedContainer = z.infer<typeof expectedContainerSchema>;

const terminateSchema = z.looseObject({
  pod: unsettable(vectorPodSchema),
  steps: z.array(z.looseObject({ op: z.string(), pod: z.unknown().optional(), status: z.unknown().optional() })),
  expect: z.looseObject({
    containers: unsettable(z.record(z.string(), expectedContainerSchema)),
    initContainers: unsettable(z.record(z.string(), expectedContainerSchema)),
    exactStatus: unsettable(z.record(z.string(), z.unknown())),
    exactStatusIgnoringStartTime: unsettable(z.record(z.string(), z.unknown())),
    phase: unsettable(z.string()),
    message: unsettable(z.string()),
  }),
});

/** TestTerminatePod*: the steps (SetPodStatus, TerminatePod) on one pod, then the cached status. */
export function runTerminatePod(v: StatusVector, ctx: RunContext): Outcome {
  const t = parsePart(terminateSchema, v, "vector");
  const h = new StatusHarness({ minor: ctx.minor });
  const nowMs = h.sim.nowMs;
  const base = t.pod === undefined ? undefined : consume(t.pod);
  let pod: Pod | null = base === undefined ? null : podFromVector(base, nowMs);
  for (const [i, s] of t.steps.entries()) {
    const where = `steps[${i}]`;
    if (typeof s.pod === "object" && s.pod !== null) {
      // A step's pod overrides the vector's pod in the fields it gives (a stale status, say).
      const own = consume(parsePart(vectorPodSchema, s.pod, `${where}.pod`));
      pod = podFromVector({ ...(base ?? {}), ...own }, nowMs);
    } else if (s.pod !== undefined && !(typeof s.pod === "string" && /pod below|same pod|the pod\b/i.test(s.pod))) {
      throw new VectorError(`${where}.pod: cannot interpret ${show(s.pod)}`);
    }
    if (pod === null) throw new VectorError(`${where}: no pod to act on`);
    h.addPod(pod);
    if (s.op === "SetPodStatus") h.manager.SetPodStatus(pod, stepStatus(s.status, pod, nowMs, where));
    else if (s.op === "TerminatePod") h.manager.TerminatePod(pod);
    else throw new VectorError(`${where}: unknown op ${JSON.stringify(s.op)} (SetPodStatus, TerminatePod)`);
  }
  const cached = h.manager.GetPodStatus(pod?.metadata.uid ?? "");
  if (cached === undefined) return ["no status was cached"];
  const e = t.expect;
  const diffs: string[] = [];
  if (e.exactStatus !== undefined) diffs.push(...diffValues(goValue(exact(e.exactStatus, nowMs)), goValue(cached), "status"));
  if (e.exactStatusIgnoringStartTime !== undefined) {
    const { startTime: _s, ...rest } = cached;
    diffs.push(...diffValues(goValue(exact(e.exactStatusIgnoringStartTime, nowMs)), goValue(rest), "status"));
  }
  if (e.phase !== undefined && cached.phase !== e.phase) diffs.push(`phase: expected ${show(e.phase)}, got ${show(cached.phase)}`);
  if (e.message !== undefined && (cached.message ?? "") !== e.message) diffs.push(`message: expected ${show(e.message)}, got ${show(cached.message)}`);
  diffs.push(...checkContainerExpectations(e.containers, cached.containerStatuses, "containerStatuses"));
  diffs.push(...checkContainerExpectations(e.initContainers, cached.initContainerStatuses, "initContainerStatuses"));
  return diffs;
}

/** An expected whole status in the encoding: its container statuses and times read as any other. */
function exact(want: Record<string, unknown>, nowMs: number): PodStatus {
  return podStatusFrom(parsePart(encodedPodStatusSchema, want, "expect.exactStatus"), nowMs);
}

/** A step's status: "pod.status (as given)" (the pod's own) or an encoded status. */
function stepStatus(status: unknown, pod: Pod, nowMs: number, where: string): PodStatus {
  if (status === undefined || (typeof status === "string" && /pod\.status|as given/i.test(status))) return pod.status ?? {};
  if (typeof status === "object" && status !== null) return podStatusFrom(parsePart(encodedPodStatusSchema, status, `${where}.status`), nowMs);
  throw new VectorError(`${where}.status: cannot interpret ${show(status)}`);
}

/** Each named container's status against what the vector states of it. */
export function checkContainerExpectations(want: Record<string, ExpectedContainer> | undefined, got: readonly ContainerStatus[] | undefined, field: string): string[] {
  return Object.entries(want ?? {}).flatMap(([name, w]) => {
    const s = got?.find((c) => c.name === name);
    if (s === undefined) return [`${field}[${name}]: expected a status, got none`];
    return checkContainer(w, s, `${field}[${name}]`);
  });
}

function checkContainer(w: ExpectedContainer, s: ContainerStatus, where: string): string[] {
  const diffs = w.state === undefined ? [] : checkState(w, s.state ?? {}, `${where}.state`);
  const last = s.lastState?.terminated;
  if (w.lastTerminationExitCode !== undefined && last?.exitCode !== w.lastTerminationExitCode) {
    diffs.push(`${where}.lastState.terminated.exitCode: expected ${w.lastTerminationExitCode}, got ${show(last?.exitCode)}`);
  }
  if (w.lastTerminationReason !== undefined && (last?.reason ?? "") !== w.lastTerminationReason) {
    diffs.push(`${where}.lastState.terminated.reason: expected ${show(w.lastTerminationReason)}, got ${show(last?.reason)}`);
  }
  if (w.ready !== undefined && (s.ready ?? false) !== w.ready) diffs.push(`${where}.ready: expected ${w.ready}, got ${s.ready ?? false}`);
  if (w.started !== undefined && (s.started ?? false) !== w.started) diffs.push(`${where}.started: expected ${w.started}, got ${show(s.started ?? null)}`);
  return diffs;
}

/** The state's kind, and its exit code, reason and message where the vector gives them. */
function checkState(w: ExpectedContainer, state: ContainerState, where: string): string[] {
  if (w.state === "terminatedUnknown") return diffValues(TERMINATED_UNKNOWN, state, where);
  if (w.state === "none") return Object.keys(state).length === 0 ? [] : [`${where}: expected an empty state, got ${show(state)}`];
  const kind = w.state!;
  const others = Object.keys(state).filter((k) => k !== kind && state[k as keyof ContainerState] != null);
  const member = state[kind] as { exitCode?: number; reason?: string; message?: string } | undefined;
  if (member == null || others.length > 0) return [`${where}: expected ${kind}, got ${show(state)}`];
  const diffs: string[] = [];
  if (w.exitCode !== undefined && (member.exitCode ?? 0) !== w.exitCode) diffs.push(`${where}.${kind}.exitCode: expected ${w.exitCode}, got ${show(member.exitCode)}`);
  if (w.reason !== undefined && (member.reason ?? "") !== w.reason) diffs.push(`${where}.${kind}.reason: expected ${show(w.reason)}, got ${show(member.reason)}`);
  if (w.message !== undefined && (member.message ?? "") !== w.message) diffs.push(`${where}.${kind}.message: expected ${show(w.message)}, got ${show(member.message)}`);
  return diffs;
}
