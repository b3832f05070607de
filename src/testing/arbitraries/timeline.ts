// A timeline: each pod created once, then steps done to it (or to the node) after its creation,
// all within `until`. Steps are drawn abstractly (which pod, which action, which container) and
// resolved against the pods, so a scenario shrinks by dropping steps one at a time.
import fc from "fast-check";
import { formatDuration } from "../../sim/duration.ts";
import { containerNames, type RawPodEntry } from "./pod.ts";
import { durationMsArb } from "./duration.ts";

/** The actions a generated step may take. */
export const TIMELINE_ACTIONS = [
  "delete", "forceDelete", "exitContainer", "oomKill", "killSandbox", "removeContainer", "evict", "setLabels", "restartKubelet",
] as const;
export type TimelineAction = (typeof TIMELINE_ACTIONS)[number];

export interface TimelineArbOptions {
  untilMs: number;
  maxSteps?: number;
  actions?: readonly TimelineAction[];
}

/** A step before it is resolved against the pods. */
export interface AbstractStep {
  pod: number;
  afterMs: number;
  action: TimelineAction;
  container: number;
  exitCode: number;
  grace: number | undefined;
}

export interface AbstractTimeline {
  createAtMs: number[];
  steps: AbstractStep[];
}

export function abstractTimelineArb(maxPods: number, opts: TimelineArbOptions): fc.Arbitrary<AbstractTimeline> {
  const half = Math.floor(opts.untilMs / 2);
  const step = fc.record({
    pod: fc.nat(Math.max(0, maxPods - 1)),
    afterMs: durationMsArb(0, half),
    action: fc.constantFrom(...(opts.actions ?? TIMELINE_ACTIONS)),
    container: fc.nat(3),
    exitCode: fc.constantFrom(1, 0, 2),
    grace: fc.option(fc.constantFrom(0, 1, 5), { nil: undefined }),
  });
  return fc.record({
    // The first pod is there when the kubelet boots; others may come later.
    createAtMs: fc.array(durationMsArb(0, half, 500), { minLength: maxPods, maxLength: maxPods }),
    steps: fc.array(step, { maxLength: opts.maxSteps ?? 4 }),
  });
}

/** The steps as a scenario's `timeline`, in time order. */
export function resolveTimeline(t: AbstractTimeline, pods: readonly RawPodEntry[]): Record<string, unknown>[] {
  const name = (i: number) => (pods[i]!.manifest["metadata"] as { name: string }).name;
  const at = (ms: number) => formatDuration(ms);
  const creates = pods.map((_, i) => ({ atMs: t.createAtMs[i] ?? 0, step: { at: at(t.createAtMs[i] ?? 0), create: name(i) } }));
  const steps = t.steps.map((s) => {
    const i = s.pod % pods.length;
    const atMs = (t.createAtMs[i] ?? 0) + s.afterMs;
    return { atMs, step: { at: at(atMs), ...actionOf(s, name(i), pods[i]!) } };
  });
  return [...creates, ...steps].map((x, seq) => ({ ...x, seq })).sort((a, b) => a.atMs - b.atMs || a.seq - b.seq).map((x) => x.step);
}

function actionOf(s: AbstractStep, pod: string, entry: RawPodEntry): Record<string, unknown> {
  const { regular } = containerNames(entry);
  const container = regular[s.container % regular.length]!;
  switch (s.action) {
    case "delete":
      return { delete: s.grace === undefined ? pod : { pod, gracePeriodSeconds: s.grace } };
    case "forceDelete":
    case "killSandbox":
      return { [s.action]: pod };
    case "exitContainer":
      return { exitContainer: { pod, container, exitCode: s.exitCode } };
    case "oomKill":
    case "removeContainer":
      return { [s.action]: { pod, container } };
    case "evict":
      return { evict: s.grace === undefined ? pod : { pod, gracePeriodSeconds: s.grace } };
    case "setLabels":
      return { setLabels: { pod, labels: { touched: String(s.exitCode) } } };
    case "restartKubelet":
      return { restartKubelet: true };
  }
}
