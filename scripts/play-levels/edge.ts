// Coincidences at the edge of a timing win. A timing win is a timing at which fifo breaks the
// invariant; moving one knob from it until fifo keeps the invariant finds the edge, two timings a
// millisecond apart. There two events that the race turns on meet or part: a step's CRI call
// returning and a relist's list returning, a probe tick and a kill. At one instant the kernel runs
// first whichever became ready first, so the search also tries the edge with the order of the
// meeting reversed: the step moved Δ later and its call made Δ shorter, so that the call ends at the
// same instant but was started after the other side's (a garbage collector's RemovePodSandbox that
// starts after the relist asked for the sandboxes, and returns with them). At each such timing
// where fifo keeps the invariant, the order search (order.ts) tries the choices at that instant.
import type { TimingKnob, TimingValues } from "../../src/play/timing.ts";
import { instantsAt, runAt, scenarioAt, type Level } from "./level.ts";
import { simulate } from "../../src/simulate.ts";

export interface EdgeCandidate {
  values: TimingValues;
  /** The instant the two events meet at. */
  atMs: number;
}

/** The most Δ tried for one call: the call's latency minus one, at most this. */
const MAX_SHIFTS = 60;

/** A knob's value at a timing: as set, as written, or for a latency the scenario leaves to the runtime, its first call's. */
function valueOf(k: TimingKnob, values: TimingValues, calls: readonly { label: string; startMs: number; endMs: number }[]): number | null {
  const set = values[k.id] ?? k.writtenMs;
  if (set !== null || k.kind !== "latency") return set;
  const first = calls.find((c) => c.label === `cri ${k.id.slice("latency.".length)}`);
  return first === undefined ? null : first.endMs - first.startMs;
}

/**
 * The instant two fifo runs first differ in what happened (the earlier of the two records): their
 * instants aside, since at the edge one knob moved by a millisecond moves everything it times.
 */
function divergenceMs(level: Level, a: TimingValues, b: TimingValues): number | null {
  const key = ({ seq: _s, t: _t, ...rest }: Record<string, unknown>) => JSON.stringify(rest);
  const ra = simulate(scenarioAt(level, a), { strategy: { name: "fifo" } }).records ?? [];
  const rb = simulate(scenarioAt(level, b), { strategy: { name: "fifo" } }).records ?? [];
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) {
    if (key(ra[i]!) !== key(rb[i]!)) return Math.min(ra[i]!.t, rb[i]!.t);
  }
  return null;
}

/**
 * From a timing at which fifo breaks the invariant: for each step or latency knob whose range has a
 * value that keeps it, the edge between the two (a binary search), then the timings to try there.
 */
export function* edgeCandidates(level: Level, broken: TimingValues, budget: { runs: number }): Generator<EdgeCandidate> {
  const isBroken = (v: TimingValues) => {
    budget.runs--;
    return runAt(level, v).broken;
  };
  const { calls } = instantsAt(level, broken);
  for (const k of level.knobs) {
    if (k.kind === "seed" || k.kind === "apiserver") continue;
    const cur = valueOf(k, broken, calls);
    if (cur === null) continue;
    for (const far of [k.minMs, k.maxMs]) {
      if (far === cur || budget.runs <= 0 || isBroken({ ...broken, [k.id]: far })) continue;
      let [lo, hi] = [cur, far];
      while (Math.abs(hi - lo) > 1 && budget.runs > 0) {
        const mid = Math.floor((lo + hi) / 2);
        if (isBroken({ ...broken, [k.id]: mid })) lo = mid;
        else hi = mid;
      }
      const [edgeBroken, edgeOk] = [{ ...broken, [k.id]: lo }, { ...broken, [k.id]: hi }];
      budget.runs -= 2;
      const at = divergenceMs(level, edgeBroken, edgeOk);
      if (at === null) continue;
      yield { values: edgeOk, atMs: Math.max(0, at - 1) };
      yield* reversedMeetings(level, k, edgeBroken, at);
    }
  }
}

/**
 * At the edge's broken side, each call that ends where the runs part, started Δ later and made Δ
 * shorter: moved by the edge's step when the step started it, else by the call before it in the
 * same goroutine (made Δ longer). The largest Δ first: the order flips once the call starts after
 * the other side's, which is usually just before the meeting.
 */
function* reversedMeetings(level: Level, edge: TimingKnob, edgeBroken: TimingValues, atMs: number): Generator<EdgeCandidate> {
  const { calls } = instantsAt(level, edgeBroken);
  const knobOf = (label: string) => level.knobs.find((k) => k.id === `latency.${/^cri (\w+)$/.exec(label)?.[1]}`);
  for (const c of calls) {
    const knob = knobOf(c.label);
    if (knob === undefined || Math.abs(c.endMs - atMs) > 1) continue;
    const latencyMs = c.endMs - c.startMs;
    const stepMs = edge.kind === "step" ? edgeBroken[edge.id] ?? edge.writtenMs! : null;
    const before = calls.find((p) => p.proc === c.proc && p.endMs === c.startMs && p !== c);
    const beforeKnob = before === undefined ? undefined : knobOf(before.label);
    const mover: ((d: number) => TimingValues | null) | null =
      stepMs !== null && c.startMs >= stepMs
        ? (d) => (stepMs + d > edge.maxMs ? null : { [edge.id]: stepMs + d })
        : beforeKnob !== undefined && beforeKnob.id !== knob.id
          ? (d) => {
              const ms = before!.endMs - before!.startMs + d;
              return ms > beforeKnob.maxMs ? null : { [beforeKnob.id]: ms };
            }
          : null;
    if (mover === null) continue;
    for (let d = latencyMs - 1; d >= Math.max(1, latencyMs - MAX_SHIFTS); d--) {
      const moved = mover(d);
      if (moved === null || latencyMs - d < knob.minMs) continue;
      yield { values: { ...edgeBroken, ...moved, [knob.id]: latencyMs - d }, atMs: c.endMs };
    }
  }
}
