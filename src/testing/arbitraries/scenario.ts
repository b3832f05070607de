// A whole scenario as a plain object (what a scenario file says), valid for the schema and for
// simulate() once compiled with scenarioFromObject. Pods p0, p1, ...; a timeline over them;
// maybe runtime latencies and faults. Everything shrinks: fewer pods, steps and faults, default
// latencies, shorter durations.
import fc from "fast-check";
import { formatDuration } from "../../sim/duration.ts";
import { podArb, type PodArbOptions, type RawPodEntry } from "./pod.ts";
import { abstractTimelineArb, resolveTimeline, type TimelineAction } from "./timeline.ts";
import { faultArb, latencyArb } from "./runtime.ts";

export interface ScenarioArbOptions {
  name?: string;
  pods?: { min?: number; max?: number };
  /** How long each run lasts (default 60s). */
  untilMs?: number;
  /** Kubelet versions to draw from (default ["1.30"]). */
  kubeletVersions?: readonly string[];
  maxSteps?: number;
  actions?: readonly TimelineAction[];
  /** The most CRI faults (default 1; 0 for none). */
  maxFaults?: number;
  /** Draw CRI latencies (default true). */
  latencies?: boolean;
  pod?: Omit<PodArbOptions, "name">;
  /** Expectations every generated scenario carries (raw, as a file writes them). */
  expect?: readonly unknown[];
}

export function scenarioArb(opts: ScenarioArbOptions = {}): fc.Arbitrary<Record<string, unknown>> {
  const min = opts.pods?.min ?? 1;
  const max = opts.pods?.max ?? 2;
  if (!(min >= 1 && max >= min)) throw new RangeError(`scenarioArb: bad pod count range [${min}, ${max}]`);
  const untilMs = opts.untilMs ?? 60_000;
  const names = Array.from({ length: max }, (_, i) => `p${i}`);
  return fc
    .record({
      count: fc.integer({ min, max }),
      pods: fc.tuple(...names.map((name) => podArb({ ...opts.pod, name }))),
      timeline: abstractTimelineArb(max, { untilMs, maxSteps: opts.maxSteps ?? 4, ...(opts.actions === undefined ? {} : { actions: opts.actions }) }),
      version: fc.constantFrom(...(opts.kubeletVersions ?? ["1.30"])),
      latency: opts.latencies === false ? fc.constant({}) : latencyArb(),
      faults: fc.array(faultArb(names), { maxLength: opts.maxFaults ?? 1 }),
    })
    .map((d) => {
      const pods: RawPodEntry[] = d.pods.slice(0, d.count);
      const live = new Set(pods.map((p) => (p.manifest["metadata"] as { name: string }).name));
      const faults = d.faults.filter((f) => f["pod"] === undefined || live.has(String(f["pod"])));
      return {
        name: opts.name ?? "generated",
        until: formatDuration(untilMs),
        kubelet: { version: d.version },
        runtime: { latency: d.latency, faults },
        pods,
        timeline: resolveTimeline(d.timeline, pods),
        expect: [...(opts.expect ?? [])],
      };
    });
}
