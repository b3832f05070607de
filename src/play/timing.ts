// Timing as the learner's choice. Most kubelet races are races of timing: a pull still running
// when the delete lands, an eviction inside a sync. A choice of who runs next only reorders what
// is ready at one instant, so a level also lets the learner set the timing, within the ranges the
// scenario's `swarm` section gives exploration (src/explore/swarm.ts draws from the same ranges):
// a CRI method's latency, the instant of a timeline step, the apiserver's round trip; and the seed,
// which is where the kubelet's own random draws come from (a probe worker's first sleep, an event's
// delay): changing it is rolling the dice again. The level's
// scenario text is edited in place (comments and layout kept) and compiled again, in the browser
// as in Node, so an exported run carries the very text it ran.
import { parseDocument } from "yaml";
import { formatDuration, parseDuration } from "../sim/duration.ts";
import type { Scenario } from "../scenario/resolve.ts";

/** One timing the learner may set, in milliseconds within [minMs, maxMs] (the seed: a number in its range). */
export interface TimingKnob {
  /** Stable name: "latency.PullImage", "step@10000", "apiserver.latency", "seed". */
  id: string;
  kind: "latency" | "step" | "apiserver" | "seed";
  /** What it sets, for the page: "PullImage takes", "the steps at 10s (delete web) happen at". */
  label: string;
  minMs: number;
  maxMs: number;
  /** The value as the scenario writes it, or null when it writes a range or nothing (then the knob starts unset). */
  writtenMs: number | null;
  /** For a step knob: the timeline entries written at that instant (they move together, as swarm's jitter moves them). */
  steps?: number[];
}

/** The seed's knob: any 32-bit seed (the range the scenario's `seed` takes). */
const MAX_SEED = 2 ** 32 - 1;

/** The learner's timing: knob id → milliseconds (the seed: the seed). A knob not named keeps the written timing. */
export type TimingValues = Readonly<Record<string, number>>;

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

/** The knobs of a scenario: none when it has no `swarm` section. `raw` is its YAML value as written. */
export function timingKnobs(raw: Raw, scenario: Scenario): TimingKnob[] {
  const swarm = scenario.swarm;
  if (swarm === undefined) return [];
  const knobs: TimingKnob[] = [];
  const latency = isRecord(raw["runtime"]) && isRecord(raw["runtime"]["latency"]) ? raw["runtime"]["latency"] : {};
  for (const [method, bounds] of Object.entries(swarm.latency)) {
    if (bounds === undefined) continue;
    knobs.push({ id: `latency.${method}`, kind: "latency", label: `${method} takes`, minMs: bounds.minMs, maxMs: bounds.maxMs, writtenMs: single(latency[method]) });
  }
  if (swarm.jitterMs > 0) knobs.push(...stepKnobs(raw, swarm.jitterMs, scenario.untilMs));
  if (swarm.apiserverLatency !== undefined) {
    const written = isRecord(raw["apiserver"]) ? single(raw["apiserver"]["latency"]) : null;
    const { minMs, maxMs } = swarm.apiserverLatency;
    knobs.push({ id: "apiserver.latency", kind: "apiserver", label: "an apiserver round trip takes", minMs, maxMs, writtenMs: written });
  }
  // Last: the timings above are the race's; the seed changes every random draw at once.
  knobs.push({ id: "seed", kind: "seed", label: "the seed (the kubelet's random draws) is", minMs: 0, maxMs: MAX_SEED, writtenMs: scenario.seed });
  return knobs;
}

/** One knob per instant after 0s that the timeline writes: those steps may happen up to `jitter` later. */
function stepKnobs(raw: Raw, jitterMs: number, untilMs: number): TimingKnob[] {
  const timeline = Array.isArray(raw["timeline"]) ? raw["timeline"] : [];
  const byAt = new Map<number, number[]>();
  timeline.forEach((step, i) => {
    if (!isRecord(step) || typeof step["at"] !== "string") return;
    const at = parseDuration(step["at"]);
    // Steps at 0s describe the node as the kubelet finds it at boot: swarm never moves them either.
    if (at > 0) byAt.set(at, [...(byAt.get(at) ?? []), i]);
  });
  return [...byAt].map(([at, steps]) => ({
    id: `step@${at}`,
    kind: "step",
    label: `${steps.map((i) => describeStep(timeline[i] as Raw)).join(", ")} (written at ${formatDuration(at)}) happens at`,
    minMs: at,
    maxMs: Math.max(at, Math.min(at + jitterMs, untilMs - 1)),
    writtenMs: at,
    steps,
  }));
}

function describeStep(step: Raw): string {
  const [action, arg] = Object.entries(step).find(([k]) => k !== "at") ?? ["step", ""];
  const target = typeof arg === "string" ? arg : isRecord(arg) && typeof arg["pod"] === "string" ? arg["pod"] : "";
  return target === "" || target === "true" ? action : `${action} ${target}`;
}

function single(v: unknown): number | null {
  return typeof v === "string" ? parseDuration(v) : null;
}

/** The values that differ from the written timing: what the learner changed. */
export function changedKnobs(knobs: readonly TimingKnob[], values: TimingValues): string[] {
  return knobs.filter((k) => values[k.id] !== undefined && values[k.id] !== k.writtenMs).map((k) => k.id);
}

/** A value out of a knob's range, or not a whole number of milliseconds: the message, or null. */
export function knobProblem(knob: TimingKnob, ms: number): string | null {
  const unit = knob.kind === "seed" ? "" : "ms";
  if (!Number.isInteger(ms)) return `${knob.label}: expected a whole number${unit === "" ? "" : " of milliseconds"}, got ${ms}`;
  if (ms < knob.minMs || ms > knob.maxMs) return `${knob.label}: ${ms}${unit} is outside ${knob.minMs}${unit} to ${knob.maxMs}${unit}`;
  return null;
}

/**
 * The scenario text with the learner's timing written into it, every other byte as it was. Only the
 * knobs that differ from the written timing are written, so unchanged values leave the text alone.
 */
export function pinTiming(text: string, knobs: readonly TimingKnob[], values: TimingValues): string {
  const changed = changedKnobs(knobs, values);
  if (changed.length === 0) return text;
  const doc = parseDocument(text);
  for (const knob of knobs) {
    if (!changed.includes(knob.id)) continue;
    const ms = values[knob.id]!;
    const problem = knobProblem(knob, ms);
    if (problem !== null) throw new RangeError(problem);
    const value = `${ms}ms`;
    if (knob.kind === "seed") doc.set("seed", ms);
    else if (knob.kind === "latency") doc.setIn(["runtime", "latency", knob.id.slice("latency.".length)], value);
    else if (knob.kind === "apiserver") doc.setIn(["apiserver", "latency"], value);
    else for (const i of knob.steps ?? []) doc.setIn(["timeline", i, "at"], value);
  }
  return doc.toString({ lineWidth: 0 });
}
