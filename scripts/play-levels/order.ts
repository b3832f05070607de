// The search for a win by order: a timing at which fifo keeps the invariant and a few choices away
// from fifo break it. Most of a race's goroutines meet at one instant only by coincidence, so the
// search makes coincidences: it moves one knob at a time (from the written timing, and from the
// timing win's) so that what it times lands on an instant at which something else happens (a step
// moved by the delays its own chain takes; a call's latency ended at that instant), and at each such
// timing where fifo holds it tries, at that instant, every single choice away from fifo and every
// "postpone" (letting every other goroutine ready then run before fifo's pick). A win is then
// shrunk by delta debugging over its deviations. Bounded by a budget of runs.
import { ddmin } from "../../src/explore/ddmin.ts";
import { ChoiceLog, StrategyPause, type Choice } from "../../src/sim/index.ts";
import { startSimulation } from "../../src/simulate.ts";
import { parseDocument } from "yaml";
import { parseDuration } from "../../src/sim/duration.ts";
import { pinTiming, type TimingValues } from "../../src/play/timing.ts";
import { edgeCandidates } from "./edge.ts";
import { endsAsFixed, instantsAt, makeLevel, runAt, scenarioAt, type Level } from "./level.ts";

/** How far after a step its own chain of effects is looked for (the apiserver, the watch, syncLoop...). */
const CHAIN_MS = 400;

export interface OrderWin {
  /** The level at the timing the win was found at (its text is the level's written timing). */
  level: Level;
  tape: Choice[];
  /** The instant the coincidence was made at. */
  atMs: number;
  runs: number;
}

/** How long after the coincidence its deviations are tried: the chain of hand-offs it starts. */
const WINDOW_MS = 20;
/** The same for two steps made one: the first's round trip to the apiserver comes first. */
const MERGED_WINDOW_MS = 60;

interface Coincidence {
  values: TimingValues;
  atMs: number;
  /** How far the knob moved from the base: nearer ones are tried first. */
  distance: number;
}

/** Timings that put a knob's event onto an instant where something else happens, nearest first. */
export function coincidences(level: Level, base: TimingValues): Coincidence[] {
  const { instants, calls } = instantsAt(level, base);
  const out: Coincidence[] = [];
  for (const k of level.knobs) {
    // A latency the scenario does not write is the runtime's default: the first call's takes it.
    const first = k.kind === "latency" ? calls.find((c) => c.label === `cri ${k.id.slice("latency.".length)}`) : undefined;
    const cur = base[k.id] ?? k.writtenMs ?? (first === undefined ? null : first.endMs - first.startMs);
    const seen = new Set<number>();
    const add = (ms: number, atMs: number) => {
      if (ms < k.minMs || ms > k.maxMs || ms === cur || seen.has(ms)) return;
      seen.add(ms);
      out.push({ values: { ...base, [k.id]: ms }, atMs, distance: Math.abs(ms - (cur ?? ms)) });
    };
    if (k.kind === "step" && cur !== null) {
      const delays = [...new Set(instants.filter((i) => i >= cur && i <= cur + CHAIN_MS).map((i) => i - cur))];
      for (const d of delays) for (const i of instants) add(i - d, i);
    } else if (k.kind === "latency") {
      const method = k.id.slice("latency.".length);
      for (const c of calls.filter((c) => c.label.includes(method))) for (const i of instants) add(i - c.startMs, i);
    }
  }
  // A total order: nearest first, then by knob value order of discovery (stable sort).
  return out.sort((a, b) => a.distance - b.distance);
}

interface Paused {
  pause: StrategyPause;
  nowMs: number;
}

function pauseAt(level: Level, values: TimingValues, prefix: readonly Choice[]): Paused | null {
  const h = startSimulation(scenarioAt(level, values), { strategy: { name: "replay", tape: ChoiceLog.from(prefix), whenExhausted: "pause" }, sinks: [], keepRecords: false });
  try {
    h.finish();
    return null;
  } catch (err) {
    if (err instanceof StrategyPause) return { pause: err, nowMs: h.sim.nowMs };
    throw err;
  }
}

/** Postpones fifo's pick of choice i: at every later choice of that instant where it is first, the next option is taken. */
function postpone(level: Level, values: TimingValues, tape: readonly Choice[], i: number): Choice[] | null {
  let p = pauseAt(level, values, tape.slice(0, i));
  if (p === null || p.pause.kind !== "proc" || p.pause.procs === null) return null;
  const who = p.pause.procs[0]!.name;
  const t = p.nowMs;
  const prefix = tape.slice(0, i);
  for (let guard = 0; guard < 40 && p !== null && p.nowMs === t; guard++) {
    const first = p.pause.kind === "proc" && p.pause.procs !== null && p.pause.procs[0]!.name === who;
    prefix.push({ kind: p.pause.kind, n: p.pause.n, index: first ? 1 : 0 });
    p = pauseAt(level, values, prefix);
  }
  return prefix;
}

/**
 * Prefers one goroutine from choice i on: at every later choice of that instant that offers it, it
 * is taken (the goroutine "gets there first"). One move for a learner, several deviations.
 */
function prefer(level: Level, values: TimingValues, tape: readonly Choice[], i: number, who: string): Choice[] {
  const prefix = tape.slice(0, i);
  let p = pauseAt(level, values, prefix);
  const t = p?.nowMs;
  for (let guard = 0; guard < 40 && p !== null && p.nowMs === t; guard++) {
    const at = p.pause.kind === "proc" && p.pause.procs !== null ? p.pause.procs.findIndex((q) => q.name === who) : -1;
    prefix.push({ kind: p.pause.kind, n: p.pause.n, index: Math.max(0, at) });
    p = pauseAt(level, values, prefix);
  }
  return prefix;
}

/** Choices away from fifo at one instant that break the invariant, at a timing where fifo keeps it. */
function winAt(level: Level, atMs: number, budget: { runs: number }, windowMs: number): Choice[] | null {
  const values: TimingValues = {};
  const fifo = runAt(level, values, [], true);
  budget.runs--;
  if (fifo.broken) return null;
  for (let i = 0; i < fifo.tape.length && budget.runs > 0; i++) {
    if (fifo.times[i]! < atMs || fifo.times[i]! > atMs + windowMs) continue;
    for (let j = 1; j < fifo.tape[i]!.n; j++) {
      budget.runs--;
      const r = runAt(level, values, [...fifo.tape.slice(0, i), { ...fifo.tape[i]!, index: j }]);
      if (r.broken) return r.tape;
    }
    const moved = postpone(level, values, fifo.tape, i);
    budget.runs -= 4;
    if (moved !== null && moved.filter((c) => c.index !== 0).length > 1) {
      budget.runs--;
      const r = runAt(level, values, moved);
      if (r.broken) return r.tape;
    }
    if (!PREFER) continue;
    const here = pauseAt(level, values, fifo.tape.slice(0, i));
    for (const q of here?.pause.procs?.slice(1) ?? []) {
      budget.runs -= 5;
      const r = runAt(level, values, prefer(level, values, fifo.tape, i, q.name));
      if (r.broken) return r.tape;
    }
  }
  return null;
}

/** Whether the search also tries "prefer" moves (--prefer): more runs per instant, more wins of several deviations. */
const PREFER = process.argv.includes("--prefer");

/**
 * Two timeline steps at one instant: the scenario's timeline runs them one after the other, the
 * second when the first's apiserver round trip returns, which is when the watch delivers the first
 * to the kubelet. The kubelet's handling of the first and the second step then race. Each pair of
 * instants after 0s, each moved onto the other (whatever the hunt form's ranges: the level's
 * written timing is the script's to choose).
 */
export function mergedSteps(level: Level): { text: string; atMs: number }[] {
  const timeline = (level.loaded.raw["timeline"] ?? []) as { at?: unknown }[];
  const ats = [...new Set(timeline.map((s) => (typeof s.at === "string" ? parseDuration(s.at) : 0)).filter((t) => t > 0))].sort((x, y) => x - y);
  const out: { text: string; atMs: number }[] = [];
  for (const from of ats) {
    for (const to of ats) {
      if (from === to) continue;
      const doc = parseDocument(level.text);
      timeline.forEach((s, i) => {
        if (typeof s.at === "string" && parseDuration(s.at) === from) doc.setIn(["timeline", i, "at"], `${to}ms`);
      });
      out.push({ text: doc.toString({ lineWidth: 0 }), atMs: to });
    }
  }
  return out;
}

/**
 * The level with a latency knob for every CRI method its run calls (the hunt form's swarm names only
 * the ones its race is about): more timings to make coincidences with. The order level's text
 * keeps none of these ranges (narrow.ts); the latencies found are written into runtime.latency.
 */
export function withEveryLatency(level: Level, maxMs = 20_000): Level {
  const { calls } = instantsAt(level, {});
  const methods = [...new Set(calls.flatMap((c) => (/^cri (\w+)$/.exec(c.label)?.[1] ?? null) ?? []))].sort();
  const doc = parseDocument(level.text);
  for (const m of methods) if (!doc.hasIn(["swarm", "latency", m])) doc.setIn(["swarm", "latency", m], doc.createNode({ min: "1ms", max: `${maxMs}ms` }, { flow: true }));
  return makeLevel(level.race, doc.toString({ lineWidth: 0 }));
}

/**
 * The first win by order: merged steps first, then the coincidences of each base timing, within
 * `maxRuns`; then, within `edgeRuns` of their own, the edges of the timings at which fifo breaks
 * the invariant (`edgeBases`; edge.ts).
 */
export function orderWin(level: Level, bases: readonly TimingValues[], maxRuns: number, edgeRuns = 0, edgeBases: readonly TimingValues[] = bases): OrderWin | null {
  const budget = { runs: maxRuns };
  const tryLevel = (text: string, atMs: number, windowMs: number): OrderWin | null => {
    const candidate = makeLevel(level.race, text);
    const tape = winAt(candidate, atMs, budget, windowMs);
    // A timing whose fifo run leaves a pod worse off than the fixed kubelet would already show a harm.
    if (tape === null || !endsAsFixed(candidate)) return null;
    return { level: candidate, tape: shrinkDeviations(candidate, {}, tape), atMs, runs: maxRuns - budget.runs };
  };
  const search = (): OrderWin | null => {
    for (const { text, atMs } of mergedSteps(level)) {
      if (budget.runs <= 0) return null;
      const won = tryLevel(text, atMs, MERGED_WINDOW_MS);
      if (won !== null) return won;
    }
    for (const base of bases) {
      for (const { values, atMs } of coincidences(level, base)) {
        if (budget.runs <= 0) return null;
        const won = tryLevel(pinTiming(level.text, level.knobs, values), atMs, WINDOW_MS);
        if (won !== null) return won;
      }
    }
    return null;
  };
  const found = search();
  if (found !== null || edgeRuns <= 0) return found;
  budget.runs = edgeRuns;
  for (const base of edgeBases) {
    if (!runAt(level, base).broken) continue;
    for (const { values, atMs } of edgeCandidates(level, base, budget)) {
      if (budget.runs <= 0) return null;
      const won = tryLevel(pinTiming(level.text, level.knobs, values), atMs, WINDOW_MS);
      if (won !== null) return won;
    }
  }
  return null;
}

const deviationsOf = (tape: readonly Choice[]) => tape.flatMap((c, i) => (c.index === 0 ? [] : [i]));

/** Delta debugging over the deviations: the fewest that still break the invariant (fifo after the last). */
export function shrinkDeviations(level: Level, values: TimingValues, tape: Choice[], maxRuns = 300): Choice[] {
  let cur = tape;
  let runs = 0;
  const attempt = (t: Choice[]): Choice[] | null => {
    runs++;
    let r = runAt(level, values, t);
    if (r.diverged) {
      runs++;
      r = runAt(level, values, r.tape);
      if (r.diverged) return null;
    }
    return r.broken ? r.tape : null;
  };
  ddmin(deviationsOf(cur), (keep) => {
    const kept = new Set(keep);
    const last = Math.max(-1, ...keep);
    const found = attempt(cur.slice(0, last + 1).map((c, i) => (c.index !== 0 && !kept.has(i) ? { ...c, index: 0 } : c)));
    if (found === null) return null;
    cur = found;
    return deviationsOf(found);
  }, () => runs > maxRuns);
  // The tape ends at its last deviation: fifo answers the rest, as the page's "let fifo run" does.
  const last = Math.max(-1, ...deviationsOf(cur));
  return runAt(level, values, cur.slice(0, last + 1)).tape;
}
