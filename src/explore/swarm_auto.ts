// `--swarm auto`: knobs derived from any scenario, with no ranges written by hand. Each run draws,
// from its own seed (the stream explore-swarm), around what the scenario configures:
//
// - every CRI method's latency with a configured value above 0: half the runs keep it; the other
//   half scale its min and max by two factors drawn log-uniformly from 1/4 to 32 (in quarter
//   powers of two), the smaller for the min;
// - the pull time of each image the scenario gives one, the same way;
// - the apiserver's round trip and each scheduler binding's latency, the same way (a binding
//   configured at 0 gets a range from 0 to 10ms..5s);
// - with the EventedPLEG gate on, the runtime's container event delay (0 configured: 0 to 1ms..1s);
// - every instant of the timeline after 0s: a third of the runs keep it, a third move its steps
//   later and a third earlier, by a log-uniform 10ms to max(1s, until/4) (earlier never before
//   1ms: steps at 0s describe the node at boot and never move);
// - watch trouble: a quarter of the runs get a window of delayed watch events (at a uniform
//   instant, for 1s to until/2, each event 10ms to 5s late), a quarter a dropped watch connection
//   (the reflector re-lists), an eighth a 410 Gone.
//
// The kubelet's own random draws (probe start sleeps, back-off and resync jitter, the runtime's
// and apiserver's per-call draws within a range) already come from the run seed's named streams,
// so they differ from run to run with no knob. Why the ranges are plausible for a real node:
// docs/exploring.md, "The generic swarm".
//
// Each knob also carries what the guided strategy draws beside its ordinary draw (guided_knobs.ts):
// its boundary values, and for a step and a latency the file writes, a near draw (a step a
// log-uniform gap before or after another instant of the run; a latency pinned near one of the
// kubelet's loop periods). A step's instants to meet or be near are the story's: the other steps',
// the ends of the windows they open (a partition's `for`), the runtime fault windows' edges.
// Plain runs never use them.
import type { Rng } from "../sim/rng.ts";
import { CRI_METHODS, MAX_STEPS, type Scenario } from "../scenario/index.ts";
import type { RangeMs } from "../scenario/schema/common.ts";
import { stepInstants, type KnobDef, type Knobs, type KnobSpace, type KnobValue, type TimelineLayout, type WatchAction, type WatchTrouble } from "./knobs.ts";
import { isRecord, rawList, type RawScenario } from "./raw.ts";
import { parseDuration } from "../sim/duration.ts";

/** The scale factors: 2^(k/4) for k in [-8, 20], so 1/4 to 32. */
const FACTOR_MIN_QUARTERS = -8;
const FACTOR_MAX_QUARTERS = 20;

/** A log-uniform whole number in [lo, hi] (lo >= 1), in 1,000 steps. */
export function logUniform(rng: Rng, lo: number, hi: number): number {
  if (hi <= lo) return lo;
  return Math.round(lo * (hi / lo) ** (rng.int(0, 1000) / 1000));
}

const factor = (rng: Rng) => 2 ** (rng.int(FACTOR_MIN_QUARTERS, FACTOR_MAX_QUARTERS) / 4);

/** Half the runs: null (as configured); else the configured range scaled by two drawn factors. */
function scaled(configured: RangeMs, periods: readonly number[], written: boolean): Pick<KnobDef, "draw" | "nudge" | "boundaries" | "near"> {
  const lowest = Math.round(configured.minMs * 2 ** (FACTOR_MIN_QUARTERS / 4));
  const highest = Math.round(configured.maxMs * 2 ** (FACTOR_MAX_QUARTERS / 4));
  const draw = (rng: Rng): KnobValue => {
    if (rng.below(2) === 0) return null;
    const f1 = factor(rng);
    const f2 = factor(rng);
    const lo = Math.round(configured.minMs * Math.min(f1, f2));
    return [lo, Math.max(lo, Math.round(configured.maxMs * Math.max(f1, f2)))];
  };
  // A nudge scales the range by 2^(±1/4 .. ±1), within the factors' bounds.
  const nudge = (v: KnobValue, rng: Rng): KnobValue => {
    if (!Array.isArray(v)) return draw(rng);
    const f = nudgeFactor(rng);
    const lo = Math.min(highest, Math.max(lowest, Math.round((v[0] as number) * f)));
    return [lo, Math.min(highest, Math.max(lo, Math.round((v[1] as number) * f)))];
  };
  // The range's ends: every call at the fastest, or calls spread from the fastest to the slowest.
  // Every call at the slowest (32 times the configured max) was measured too, and left out: it
  // slowed the finds of R12, R14 and R20 (docs/exploring.md).
  const boundaries: KnobValue[] = [[lowest, lowest], [lowest, highest]];
  // A latency the file writes itself (the calls its story is about) may also be pinned near one of
  // the kubelet's loop periods (guided's near draw, guided_knobs.ts): a call lasting about one
  // period of the PLEG's relist, housekeeping, the status manager's sync, the node status update,
  // the back-off or the resync has that loop's tick land inside it, and see its half-done state.
  // Only those: pinning the simulator's default latencies too slowed R10, R12 and R14
  // (docs/exploring.md, "Near draws").
  if (written && periods.length > 0) {
    const near = (rng: Rng): KnobValue => {
      const period = periods[rng.below(periods.length)]!;
      const x = Math.max(lowest, Math.min(highest, Math.round(period * 2 ** (rng.int(-2, 2) / 4))));
      return [x, x];
    };
    return { draw, nudge, boundaries, near };
  }
  return { draw, nudge, boundaries };
}

const nudgeFactor = (rng: Rng) => 2 ** ((rng.below(2) === 0 ? -1 : 1) * rng.int(1, 4) / 4);

/** Half the runs: null; else 0 to a log-uniform bound, for a delay configured at 0. */
function fromZero(loMs: number, hiMs: number): Pick<KnobDef, "draw" | "nudge" | "boundaries"> {
  const draw = (rng: Rng): KnobValue => (rng.below(2) === 0 ? null : [0, logUniform(rng, loMs, hiMs)]);
  const nudge = (v: KnobValue, rng: Rng): KnobValue => (Array.isArray(v) ? [0, Math.min(hiMs, Math.max(loMs, Math.round((v[1] as number) * nudgeFactor(rng))))] : draw(rng));
  // The widest range, and every delay at its longest (0, the shortest, is the configured value).
  const boundaries: KnobValue[] = [[0, hiMs], [hiMs, hiMs]];
  return { draw, nudge, boundaries };
}

const around = (configured: RangeMs, zeroLoMs: number, zeroHiMs: number, periods: readonly number[] = [], written = false) =>
  configured.maxMs > 0 ? scaled(configured, periods, written) : fromZero(zeroLoMs, zeroHiMs);

export function autoKnobSpace(scenario: Scenario, raw: RawScenario, layout: TimelineLayout): KnobSpace {
  const defs: KnobDef[] = [];
  const periods = loopPeriods(scenario);
  for (const method of CRI_METHODS) {
    const configured = scenario.runtime.latency[method];
    if (configured.maxMs > 0) defs.push({ id: `latency.${method}`, target: { kind: "latency", method }, ...scaled(configured, periods, written(raw, "runtime", "latency", method)) });
  }
  for (const [image, config] of Object.entries(scenario.runtime.images).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (config.pullTime !== null && config.pullTime.maxMs > 0) defs.push({ id: `pull.${image}`, target: { kind: "pull", image }, ...scaled(config.pullTime, periods, true) });
  }
  defs.push({ id: "apiserver.latency", target: { kind: "apiserver" }, ...around(scenario.apiserver.latency, 10, 5000, periods, written(raw, "apiserver", "latency")) });
  scenario.scheduler.forEach((b, index) => defs.push({ id: `binding.${index}`, target: { kind: "binding", index }, ...around(b.latency, 10, 5000) }));
  if (scenario.kubelet.featureGates.EventedPLEG) {
    defs.push({ id: "runtime.containerEventDelay", target: { kind: "eventDelay" }, ...around(scenario.runtime.containerEventDelay, 1, 1000) });
  }
  const spanMs = Math.max(1000, Math.floor(scenario.untilMs / 4));
  const instants = stepInstants(raw);
  const windows = faultEdges(scenario);
  const opened = windowSpans(raw);
  for (const atMs of instants) {
    defs.push({
      id: `step@${atMs}`,
      target: { kind: "step", atMs },
      draw: (rng) => shift(rng, atMs, spanMs),
      boundaries: stepBoundaries(atMs, spanMs, [...instants, ...windowEnds(opened, atMs), ...windows]),
      near: (rng, knobs) => nearShift(rng, atMs, spanMs, anchors(instants, atMs, knobs, windows, opened)),
      // A nudge moves the shift by up to an eighth of the span either way, keeping the step after 0s.
      nudge: (v, rng) => {
        const by = logUniform(rng, 10, Math.max(10, Math.floor(spanMs / 8))) * (rng.below(2) === 0 ? -1 : 1);
        return Math.max(-(atMs - 1), Math.min(spanMs, (typeof v === "number" ? v : 0) + by));
      },
    });
  }
  if (scenario.untilMs >= 2 && layout.rawSteps + 3 <= MAX_STEPS) {
    defs.push(watchKnob("watchDelay", 4, scenario.untilMs), watchKnob("watchDrop", 4, scenario.untilMs), watchKnob("watchGone", 8, scenario.untilMs));
  }
  return { kind: "auto", defs, layout };
}

/**
 * A step's boundary shifts: as early as it may go (1ms) and as late (the span), and, for every
 * other instant of the story within reach (another step's, the end of a window another step opens,
 * a runtime fault window's edge: autoKnobSpace), the shifts that land it 1ms before, at, and 1ms
 * after that instant (two actions of the story meeting or crossing). Distinct and never 0, in order.
 */
export function stepBoundaries(atMs: number, spanMs: number, instants: readonly number[]): number[] {
  const lowest = -(atMs - 1);
  const out = new Set<number>([atMs > 1 ? lowest : 0, spanMs]);
  for (const other of instants) {
    if (other === atMs) continue;
    for (const d of [-1, 0, 1]) {
      const by = other + d - atMs;
      if (by >= lowest && by <= spanMs) out.add(by);
    }
  }
  out.delete(0);
  return [...out].sort((a, b) => a - b);
}

/** The periods of the kubelet's loops, as the scenario configures them (distinct, in order). */
export function loopPeriods(scenario: Scenario): number[] {
  const k = scenario.kubelet;
  return [...new Set([k.plegRelistPeriodMs, k.housekeepingPeriodMs, k.statusSyncPeriodMs, k.nodeStatusUpdateFrequencyMs, k.backOffPeriodMs, k.syncFrequencyMs])].sort((a, b) => a - b);
}

/** Whether the scenario file writes this value itself (a latency the story gives, not a default). */
function written(raw: RawScenario, ...path: string[]): boolean {
  let v: unknown = raw;
  for (const key of path) {
    if (!isRecord(v) || !(key in v)) return false;
    v = v[key];
  }
  return true;
}

/**
 * The instants of the run a step may be placed near: 0s, every other step's instant as the run's
 * knobs move it, the end of each window another step opens (moved with that step), each runtime
 * fault window's edges.
 */
function anchors(instants: readonly number[], atMs: number, knobs: Knobs, windows: readonly number[], opened: readonly WindowSpan[]): number[] {
  const out = [0, ...windows];
  const moved = (at: number) => {
    const by = knobs[`step@${at}`];
    return at + (typeof by === "number" ? by : 0);
  };
  for (const other of instants) if (other !== atMs) out.push(moved(other));
  for (const w of opened) if (w.atMs !== atMs) out.push(moved(w.atMs) + w.forMs);
  return out;
}

/** A window a timeline step opens: the step's instant and how long the window lasts. */
export interface WindowSpan {
  atMs: number;
  forMs: number;
}

/** The instants the windows of steps other than the one at `atMs` close, as the file writes them. */
function windowEnds(opened: readonly WindowSpan[], atMs: number): number[] {
  return opened.filter((w) => w.atMs !== atMs).map((w) => w.atMs + w.forMs);
}

/**
 * The steps after 0s that open a window for a while (a partition, a watch delay or a watch drop:
 * their `for`), in the file's order. A window's end is an instant of the story as much as a step's:
 * the apiserver comes back, the watch catches up, and an action just before or after it meets the
 * window (race R18's restart inside the partition; docs/exploring.md, "Windows and faults as
 * meeting points").
 */
export function windowSpans(raw: RawScenario): WindowSpan[] {
  const out: WindowSpan[] = [];
  for (const step of rawList(raw, "timeline")) {
    if (!isRecord(step) || typeof step["at"] !== "string") continue;
    const atMs = parseDuration(step["at"]);
    for (const v of Object.values(step)) {
      if (atMs > 0 && isRecord(v) && typeof v["for"] === "string") out.push({ atMs, forMs: parseDuration(v["for"]) });
    }
  }
  return out;
}

/** The edges of the scenario's runtime fault windows (the instants a call starts and stops failing). */
function faultEdges(scenario: Scenario): number[] {
  const out: number[] = [];
  for (const f of scenario.runtime.faults) {
    if (f.fromMs > 0) out.push(f.fromMs);
    if (f.toMs !== null) out.push(f.toMs);
  }
  return out;
}

/**
 * A shift that lands the step a log-uniform 1ms to the span before or after one of the anchors,
 * within the step's reach (never to 0s or before, never past the span); a gap of any scale, from a
 * call's latency to a controller's delay, between two actions of the story.
 */
export function nearShift(rng: Rng, atMs: number, spanMs: number, anchorsMs: readonly number[]): number {
  const anchor = anchorsMs[rng.below(anchorsMs.length)]!;
  const gap = logUniform(rng, 1, spanMs);
  const to = rng.below(2) === 0 || anchor === 0 ? anchor + gap : anchor - gap;
  const by = Math.max(-(atMs - 1), Math.min(spanMs, to - atMs));
  return by === 0 ? 1 : by;
}

/** A step's shift: a third 0, a third later, a third earlier (never to 0s or before). */
function shift(rng: Rng, atMs: number, spanMs: number): number {
  const way = rng.below(3);
  if (way === 0) return 0;
  if (way === 1) return logUniform(rng, 10, spanMs);
  const room = Math.min(spanMs, atMs - 1);
  return room < 10 ? 0 : -logUniform(rng, 10, room);
}

/** One run in `oneIn` gets this watch trouble, at a uniform instant before `until`. */
function watchKnob(action: WatchAction, oneIn: number, untilMs: number): KnobDef {
  const trouble = (rng: Rng, atMs: number): KnobValue =>
    action === "watchDelay" ? { atMs, forMs: logUniform(rng, 1000, Math.max(1000, Math.floor(untilMs / 2))), delayMs: logUniform(rng, 10, 5000) } : { atMs, forMs: 1000, delayMs: 0 };
  return {
    id: `watch.${action}`,
    target: { kind: "watch", action },
    draw: (rng) => (rng.below(oneIn) !== 0 ? null : trouble(rng, rng.int(1, untilMs - 1))),
    // A nudge switches the trouble on (somewhere), or moves it by up to an eighth of the run.
    nudge: (v, rng) => {
      if (v === null || typeof v !== "object" || Array.isArray(v)) return trouble(rng, rng.int(1, untilMs - 1));
      const w = v as WatchTrouble;
      const by = logUniform(rng, 10, Math.max(10, Math.floor(untilMs / 8))) * (rng.below(2) === 0 ? -1 : 1);
      return { ...w, atMs: Math.min(untilMs - 1, Math.max(1, w.atMs + by)) };
    },
  };
}
