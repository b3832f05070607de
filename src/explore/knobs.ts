// A run's knobs: the timings swarm exploration draws per run (CRI latencies, step times, the
// apiserver's round trip, watch trouble), as one JSON-safe value. A knob space (swarm.ts for a
// file's `swarm` ranges, swarm_auto.ts for `--swarm auto`) says which knobs a scenario has and how
// each is drawn; drawing all of them from a run's seed gives the run's knobs, and the guided
// strategy redraws one at a time. The knobs are applied twice over, to the same effect: to the
// compiled scenario every run starts from (a few object copies, no schema: swarm runs cost what
// plain runs cost), and to the raw scenario (what a repro file writes back, validated by the
// schema). test/explore/knobs.test.ts holds the two equal on every bundled scenario.
import { Rng, streamSeed } from "../sim/rng.ts";
import { parseDuration } from "../sim/duration.ts";
import type { CriMethod, Scenario } from "../scenario/index.ts";
import { cloneRaw, isRecord, rawList, type RawScenario } from "./raw.ts";

/** What a knob changes. */
export type KnobTarget =
  | { kind: "latency"; method: CriMethod }
  | { kind: "pull"; image: string }
  | { kind: "apiserver" }
  | { kind: "eventDelay" }
  | { kind: "binding"; index: number }
  | { kind: "fault"; index: number }
  | { kind: "step"; atMs: number }
  | { kind: "watch"; action: WatchAction };

export type WatchAction = "watchDelay" | "watchDrop" | "watchGone";

/** A watch knob switched on: when, for how long, and (watchDelay) the delay of each event. */
export interface WatchTrouble {
  atMs: number;
  forMs: number;
  delayMs: number;
}

/**
 * A knob's value: a [min, max] range in ms (latency, pull, apiserver, eventDelay, binding), a
 * fault on or off, a step's shift in ms, a watch trouble; null keeps what the scenario says.
 */
export type KnobValue = null | boolean | number | readonly [number, number] | WatchTrouble;

export interface KnobDef {
  /** Stable and readable: "latency.PullImage", "step@10000", "watch.watchDrop". */
  id: string;
  target: KnobTarget;
  draw(rng: Rng): KnobValue;
  /** A small move from a value (the guided strategy's local search); a new draw when absent. */
  nudge?(value: KnobValue, rng: Rng): KnobValue;
  /**
   * The knob's boundary values: the ends of its range, and (steps) the shifts that make it meet or
   * cross another instant. The guided strategy's fresh draws take one of them now and then
   * (guided_knobs.ts); none when absent.
   */
  boundaries?: readonly KnobValue[];
  /**
   * A draw near the run's other knobs (steps: at a log-uniform gap before or after another
   * instant of the run, as the other knobs put it). The guided strategy's boundary draws take it
   * now and then (guided_knobs.ts); none when absent.
   */
  near?(rng: Rng, knobs: Knobs): KnobValue;
}

export interface KnobSpace {
  /** "declared" (the file's `swarm` ranges) or "auto" (derived from the scenario). */
  kind: "declared" | "auto";
  /** In draw order: a run's draws are these, one after the other, from one stream. */
  defs: readonly KnobDef[];
  /** The pieces of the scenario the knobs edit, located once. */
  layout: TimelineLayout;
}

/** A run's knob values by knob id, in the space's order. */
export type Knobs = Readonly<Record<string, KnobValue>>;

/**
 * Where each compiled step came from: the compiled timeline is the file's sorted by time (stable),
 * so a step moved past another must be sorted again with its file position as the tie-break, as
 * the schema would.
 */
export interface TimelineLayout {
  /** fileSeq[k]: the file position of compiled step k. */
  fileSeq: readonly number[];
  /** The file's timeline length (added steps follow it). */
  rawSteps: number;
  untilMs: number;
}

/** The stream a run's knobs come from, apart from every stream the kernel hands the models. */
export const SWARM_STREAM = "explore-swarm";

export function layoutOf(raw: RawScenario, scenario: Scenario): TimelineLayout {
  const ats = rawList(raw, "timeline").map((s) => (isRecord(s) && typeof s["at"] === "string" ? parseDuration(s["at"]) : 0));
  const fileSeq = ats.map((at, i) => ({ at, i })).sort((a, b) => a.at - b.at || a.i - b.i).map((x) => x.i);
  if (fileSeq.length !== scenario.timeline.length) throw new Error(`knobs: the raw timeline has ${fileSeq.length} steps, the compiled one ${scenario.timeline.length}`);
  return { fileSeq, rawSteps: ats.length, untilMs: scenario.untilMs };
}

/**
 * The instants after 0s the timeline writes, in the order the file first names them. Steps at 0s
 * describe the node as the kubelet finds it at boot (node/timeline.ts): swarm never moves them.
 */
export function stepInstants(raw: RawScenario): number[] {
  const seen = new Set<number>();
  for (const step of rawList(raw, "timeline")) {
    if (!isRecord(step) || typeof step["at"] !== "string") continue;
    const at = parseDuration(step["at"]);
    if (at > 0) seen.add(at);
  }
  return [...seen];
}

/** Every knob drawn from a run's seed. */
export function drawKnobs(space: KnobSpace, seed: number): Knobs {
  const rng = new Rng(SWARM_STREAM, streamSeed(seed, SWARM_STREAM));
  const out: Record<string, KnobValue> = {};
  for (const def of space.defs) out[def.id] = def.draw(rng);
  return out;
}

/** The knobs with one of them drawn again, or (`nudge`) moved a little (the guided strategy's "move one knob"). */
export function redrawKnob(space: KnobSpace, knobs: Knobs, index: number, rng: Rng, nudge = false): Knobs {
  const def = space.defs[index];
  if (def === undefined) throw new RangeError(`redrawKnob: no knob #${index}`);
  const value = knobs[def.id] ?? null;
  return { ...knobs, [def.id]: nudge && def.nudge !== undefined ? def.nudge(value, rng) : def.draw(rng) };
}

const range = (v: KnobValue | undefined): readonly [number, number] | null => (Array.isArray(v) ? (v as readonly [number, number]) : null);
const trouble = (v: KnobValue | undefined): WatchTrouble | null => (isRecord(v) ? (v as unknown as WatchTrouble) : null);
const ms = (n: number) => `${n}ms`;

/** A step's time once shifted: after 0s (steps at 0s never move) and within `until`. */
export function shiftedAt(atMs: number, shiftMs: number, untilMs: number): number {
  if (atMs === 0 || shiftMs === 0) return atMs;
  return Math.min(Math.max(1, atMs + shiftMs), Math.max(atMs, untilMs));
}

/** The compiled scenario a run with these knobs runs: `base` edited, never validated again. */
export function applyKnobs(base: Scenario, space: KnobSpace, knobs: Knobs): Scenario {
  const latency = { ...base.runtime.latency };
  const images = { ...base.runtime.images };
  const faults = [...base.runtime.faults];
  let { apiserver, scheduler } = base;
  let containerEventDelay = base.runtime.containerEventDelay;
  const shifts = new Map<number, number>();
  const added: Scenario["timeline"] = [];
  for (const def of space.defs) {
    const v = knobs[def.id];
    const t = def.target;
    const r = range(v);
    if (t.kind === "latency" && r !== null) latency[t.method] = { minMs: r[0], maxMs: r[1] };
    else if (t.kind === "pull" && r !== null) images[t.image] = { ...images[t.image]!, pullTime: { minMs: r[0], maxMs: r[1] } };
    else if (t.kind === "apiserver" && r !== null) apiserver = { ...apiserver, latency: { minMs: r[0], maxMs: r[1] } };
    else if (t.kind === "eventDelay" && r !== null) containerEventDelay = { minMs: r[0], maxMs: r[1] };
    else if (t.kind === "binding" && r !== null) scheduler = scheduler.map((b, i) => (i === t.index ? { ...b, latency: { minMs: r[0], maxMs: r[1] } } : b));
    else if (t.kind === "fault" && v === true) faults.push(base.swarm!.faults[t.index]!.fault);
    else if (t.kind === "step" && typeof v === "number" && v !== 0) shifts.set(t.atMs, v);
    else if (t.kind === "watch") {
      const w = trouble(v);
      if (w !== null) added.push(compiledWatchStep(t.action, w));
    }
  }
  const runtime = { ...base.runtime, latency, images, faults, containerEventDelay };
  const timeline = shifts.size === 0 && added.length === 0 ? base.timeline : shiftTimeline(base.timeline, space.layout, shifts, added);
  // A cluster's nodes without a runtime of their own run the top-level one: as the raw form's
  // (applyKnobsRaw edits the top-level runtime, which those nodes read), so a repro runs as found.
  const nodes = base.nodes?.map((n) => (n.ownRuntime === true ? n : { ...n, runtime }));
  return { ...base, runtime, apiserver, scheduler, timeline, swarm: undefined, ...(nodes === undefined ? {} : { nodes }) };
}

function compiledWatchStep(action: WatchAction, w: WatchTrouble): Scenario["timeline"][number] {
  if (action === "watchDelay") return { atMs: w.atMs, kind: "watchDelay", forMs: w.forMs, delay: { minMs: w.delayMs, maxMs: w.delayMs } };
  if (action === "watchDrop") return { atMs: w.atMs, kind: "watchDrop", forMs: w.forMs };
  return { atMs: w.atMs, kind: "watchGone" };
}

function shiftTimeline(steps: Scenario["timeline"], layout: TimelineLayout, shifts: ReadonlyMap<number, number>, added: Scenario["timeline"]) {
  const keyed = steps.map((step, k) => {
    const shift = shifts.get(step.atMs);
    const moved = shift === undefined ? step : { ...step, atMs: shiftedAt(step.atMs, shift, layout.untilMs) };
    return { step: moved, seq: layout.fileSeq[k]! };
  });
  added.forEach((step, j) => keyed.push({ step, seq: layout.rawSteps + j }));
  return keyed.sort((a, b) => a.step.atMs - b.step.atMs || a.seq - b.seq).map((x) => x.step);
}

/** The raw scenario (what a file would say) a run with these knobs runs; without `swarm`. */
export function applyKnobsRaw(raw: RawScenario, space: KnobSpace, knobs: Knobs): RawScenario {
  const out = cloneRaw(raw);
  delete out["swarm"];
  const runtime = isRecord(out["runtime"]) ? out["runtime"] : {};
  const latency = isRecord(runtime["latency"]) ? { ...runtime["latency"] } : {};
  const images = isRecord(runtime["images"]) ? { ...runtime["images"] } : {};
  const faults = rawList(runtime, "faults");
  const rawFaults = isRecord(raw["swarm"]) ? rawList(raw["swarm"] as RawScenario, "faults") : [];
  const shifts = new Map<number, number>();
  const added: unknown[] = [];
  for (const def of space.defs) {
    const v = knobs[def.id];
    const t = def.target;
    const r = range(v);
    const rr = r === null ? null : { min: ms(r[0]), max: ms(r[1]) };
    if (t.kind === "latency" && rr !== null) latency[t.method] = rr;
    else if (t.kind === "pull" && rr !== null) images[t.image] = { ...(isRecord(images[t.image]) ? images[t.image] as object : {}), pullTime: rr };
    else if (t.kind === "apiserver" && rr !== null) out["apiserver"] = { ...(isRecord(out["apiserver"]) ? out["apiserver"] : {}), latency: rr };
    else if (t.kind === "eventDelay" && rr !== null) runtime["containerEventDelay"] = rr;
    else if (t.kind === "binding" && rr !== null) out["scheduler"] = rawList(out, "scheduler").map((b, i) => (i === t.index && isRecord(b) ? { ...b, latency: rr } : b));
    else if (t.kind === "fault" && v === true) {
      const entry = rawFaults[t.index];
      if (isRecord(entry)) faults.push(structuredClone(entry["fault"]));
    } else if (t.kind === "step" && typeof v === "number" && v !== 0) shifts.set(t.atMs, v);
    else if (t.kind === "watch") {
      const w = trouble(v);
      if (w !== null) added.push(rawWatchStep(t.action, w));
    }
  }
  out["runtime"] = { ...runtime, latency, faults, ...(Object.keys(images).length > 0 ? { images } : {}) };
  if (shifts.size > 0 || added.length > 0) {
    const untilMs = parseDuration(typeof raw["until"] === "string" ? raw["until"] : "5m");
    const steps = rawList(out, "timeline").map((step) => {
      if (!isRecord(step) || typeof step["at"] !== "string") return step;
      const at = parseDuration(step["at"]);
      const shift = shifts.get(at);
      return shift === undefined ? step : { ...step, at: ms(shiftedAt(at, shift, untilMs)) };
    });
    out["timeline"] = [...steps, ...added];
  }
  return out;
}

function rawWatchStep(action: WatchAction, w: WatchTrouble): Record<string, unknown> {
  if (action === "watchDelay") return { at: ms(w.atMs), watchDelay: { for: ms(w.forMs), delay: ms(w.delayMs) } };
  if (action === "watchDrop") return { at: ms(w.atMs), watchDrop: { for: ms(w.forMs) } };
  return { at: ms(w.atMs), watchGone: true };
}

/** The knobs a run changed from the scenario as written, one short phrase each (for summaries). */
export function describeKnobs(space: KnobSpace, knobs: Knobs): string[] {
  const out: string[] = [];
  for (const def of space.defs) {
    const v = knobs[def.id];
    if (v === null || v === undefined || v === false || v === 0) continue;
    const r = range(v);
    const w = trouble(v);
    if (r !== null) out.push(`${def.id} ${r[0]}-${r[1]}ms`);
    else if (w !== null) out.push(`${def.id} at ${w.atMs}ms${def.target.kind === "watch" && def.target.action === "watchDelay" ? ` for ${w.forMs}ms, +${w.delayMs}ms` : ""}`);
    else if (typeof v === "number") out.push(`${def.id} ${v > 0 ? "+" : ""}${v}ms`);
    else out.push(def.id);
  }
  return out;
}
