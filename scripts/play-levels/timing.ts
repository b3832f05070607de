// The search for a win by timing, for the races no order win was found for: a timing at which fifo
// itself breaks the invariant, as few knobs changed as still win. Each knob over a grid of its
// range, then pairs, then random draws of all knobs; then other seeds (the kubelet's own random
// draws), alone, then with one knob set.
import { Rng, streamSeed } from "../../src/sim/rng.ts";
import type { TimingKnob, TimingValues } from "../../src/play/timing.ts";
import { runAt, type Level } from "./level.ts";

const GRID = 12;

/** Values across a knob's range: whole 100ms steps when the range is 2s or more, else whole 10ms. */
function grid(k: TimingKnob, points: number): number[] {
  const unit = k.maxMs - k.minMs >= 2000 ? 100 : 10;
  const out = new Set<number>();
  for (let i = 0; i < points; i++) out.add(Math.min(k.maxMs, Math.max(k.minMs, Math.round((k.minMs + ((k.maxMs - k.minMs) * i) / (points - 1)) / unit) * unit)));
  return [...out].filter((v) => v !== k.writtenMs);
}

function* candidates(level: Level, draws: number): Generator<TimingValues> {
  const knobs = level.knobs.filter((k) => k.kind !== "seed");
  for (const k of knobs) for (const v of grid(k, GRID)) yield { [k.id]: v };
  for (let a = 0; a < knobs.length; a++) {
    for (let b = a + 1; b < knobs.length; b++) {
      for (const va of grid(knobs[a]!, 7)) for (const vb of grid(knobs[b]!, 7)) yield { [knobs[a]!.id]: va, [knobs[b]!.id]: vb };
    }
  }
  const rng = new Rng("play-levels", streamSeed(1, level.race.id));
  for (let i = 0; i < draws && knobs.length > 2; i++) yield Object.fromEntries(knobs.map((k) => [k.id, Math.round(rng.int(k.minMs, k.maxMs) / 10) * 10]));
}

/** A timing where fifo breaks the invariant, with as few knobs changed as still wins; null when none. */
export function timingWin(level: Level, draws: number): TimingValues | null {
  for (const values of candidates(level, draws)) {
    if (!runAt(level, values).broken) continue;
    const kept: Record<string, number> = { ...values };
    for (const id of Object.keys(values)) {
      const { [id]: _drop, ...without } = kept;
      if (runAt(level, without).broken) delete kept[id];
    }
    return kept;
  }
  return null;
}

/** For races that turn on the kubelet's own random draws: another seed, alone, then with one knob set. */
export function seedWin(level: Level, seeds: number, draws: number): TimingValues | null {
  const written = level.loaded.scenario.seed;
  for (let seed = 1; seed <= seeds; seed++) if (seed !== written && runAt(level, { seed }).broken) return { seed };
  const rng = new Rng("play-levels-seeds", streamSeed(1, level.race.id));
  const knobs = level.knobs.filter((k) => k.kind !== "seed");
  for (let i = 0; i < draws && knobs.length > 0; i++) {
    const k = knobs[rng.below(knobs.length)]!;
    const values = { seed: 1 + rng.below(seeds), [k.id]: rng.int(k.minMs, k.maxMs) };
    if (runAt(level, values).broken) return values;
  }
  return null;
}
