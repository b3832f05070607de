// One island of the guided strategy (guided.ts): its corpus of entries (runs that reached a
// feature no earlier run of the island reached), how often each feature was reached, the new
// entries waiting for their run of focus, and how often keeping each knob paid off. An island is only
// ever touched by the thread that owns it, in the order of its runs.
import type { ChoiceLog } from "../sim/choices.ts";
import type { Rng } from "../sim/rng.ts";
import type { Genome } from "./guided.ts";
import type { KnobDef, KnobSpace } from "./knobs.ts";

/** The most entries an island's corpus keeps; past it, the entry of lowest weight goes. */
export const CORPUS_LIMIT = 128;
/**
 * The runs each new entry gets first. One: bursts of 3 and 8 (more when its new features point
 * at knobs) were slower to find races on the discovery table (docs/exploring.md, variants N and S).
 */
const BURST_HINTED = 1;
const BURST = 1;
/** The most entries waiting for their burst; past it, the last in line is left to the weighted pick. */
const FOCUS_LIMIT = 8;
/**
 * The runs an entry that came closer to breaking a watched invariant than any before it gets
 * first (directed feedback, guided_distance.ts), and the weight it keeps in the weighted pick
 * while it is its invariant's closest.
 */
const BURST_CLOSER = 2;
const CLOSEST_WEIGHT = 2000;

export interface Entry {
  index: number;
  genome: Genome;
  tape: ChoiceLog;
  /** The features this entry reached first in its island (its weight: their rarity). */
  brought: readonly string[];
  /** The knobs (indices in the space) its new features point at: the steps, the calls that landed somewhere new. */
  hints: readonly number[];
}

export class Island {
  readonly corpus: Entry[] = [];
  /** How many of the island's runs reached each feature. */
  private readonly hits = new Map<string, number>();
  /** Per knob: how often moving it was tried, and how often that reached a new feature. */
  private readonly knobs = new Map<string, { tries: number; wins: number }>();
  /** New entries waiting for their burst of mutations, newest first (those with hints before the others). */
  private readonly focus: { entry: Entry; left: number }[] = [];
  /** Per watched invariant with a distance: the closest run so far, and its distance. */
  private readonly closest = new Map<string, { entry: Entry; distance: number }>();

  constructor(
    /** The next run index this island expects. */
    public next: number,
    private readonly space: KnobSpace | null,
  ) {}

  /**
   * The entry whose burst is on: each new entry is mutated first in the runs right after it came
   * (as AFL works through each new queue entry), BURST_HINTED times when its new features point
   * at knobs, BURST times otherwise; the newest first (the frontier), those pointing at knobs
   * before the others, and an entry that waited past FOCUS_LIMIT others is left to the weighted pick.
   */
  focused(): Entry | null {
    const f = this.focus[0];
    if (f === undefined) return null;
    if (--f.left <= 0) this.focus.shift();
    return this.corpus.includes(f.entry) ? f.entry : null;
  }

  /** A corpus entry, weighted by the rarity of the features it brought. */
  pick(rng: Rng, not?: Entry): Entry {
    const candidates = not === undefined ? this.corpus : this.corpus.filter((e) => e !== not);
    const list = candidates.length === 0 ? this.corpus : candidates;
    return list[rng.weighted(list.map((e) => this.weightOf(e)))]!;
  }

  /** A knob's chance to be moved: its prior x (1 + 20 x its success rate so far, one success and one failure assumed). */
  knobWeight(def: KnobDef): number {
    const st = this.knobs.get(def.id);
    return knobPrior(def) * (1 + Math.round((20 * ((st?.wins ?? 0) + 1)) / ((st?.tries ?? 0) + 2)));
  }

  /** Counts a run's knob moves: tried, and won when the run reached a new feature. */
  noteKnobs(moved: readonly string[], won: boolean): void {
    for (const id of moved) {
      const st = this.knobs.get(id) ?? { tries: 0, wins: 0 };
      st.tries++;
      if (won) st.wins++;
      this.knobs.set(id, st);
    }
  }

  /**
   * The knobs new features point at: a step of the world that landed in a new state points at the
   * timeline's steps (and a watch trouble at its knob); a runtime call that returned in a new state
   * at that call's latency (and a pull at the images' pull times).
   */
  private hints(fresh: readonly string[]): number[] {
    const space = this.space;
    if (space === null) return [];
    const out = new Set<number>();
    for (const f of fresh) {
      const m = /^(world|call) (\w+)/.exec(f);
      if (m === null) continue;
      const what = m[2]!;
      space.defs.forEach((d, i) => {
        const t = d.target;
        const watch = what === "watchDelay" || what === "watchDrop" || what === "watchGone";
        if (m[1] === "world" && (watch ? t.kind === "watch" && t.action === what : t.kind === "step")) out.add(i);
        if (m[1] === "call" && ((t.kind === "latency" && t.method === what) || (t.kind === "pull" && what === "PullImage"))) out.add(i);
      });
    }
    return [...out].sort((a, b) => a - b);
  }

  /**
   * Counts the run's features and its distances; a run with features new to the island, or that
   * came closer to breaking a watched invariant than any run of the island before it, joins its
   * corpus. Returns the new features, and whether it came closer.
   */
  learn(index: number, genome: Genome, tape: ChoiceLog, features: ReadonlySet<string>, distances: ReadonlyMap<string, number> = new Map()): { fresh: string[]; closer: boolean } {
    const fresh: string[] = [];
    for (const f of features) {
      const n = this.hits.get(f) ?? 0;
      if (n === 0) fresh.push(f);
      this.hits.set(f, n + 1);
    }
    const nearer = [...distances].filter(([id, d]) => d < (this.closest.get(id)?.distance ?? Infinity));
    const closer = nearer.length > 0;
    if (fresh.length === 0 && !closer) return { fresh, closer };
    const entry: Entry = { index, genome, tape: tape, brought: fresh, hints: this.hints(fresh) };
    for (const [id, d] of nearer) this.closest.set(id, { entry, distance: d });
    this.corpus.push(entry);
    // Closer runs first, then newest first, those whose features point at knobs before the others.
    const hinted = entry.hints.length > 0;
    const at = closer || hinted ? 0 : this.focus.findIndex((f) => f.entry.hints.length === 0);
    this.focus.splice(at < 0 ? this.focus.length : at, 0, { entry, left: closer ? BURST_CLOSER : hinted ? BURST_HINTED : BURST });
    if (this.focus.length > FOCUS_LIMIT) this.focus.pop();
    if (this.corpus.length > CORPUS_LIMIT) {
      let worst = 0;
      let worstWeight = Infinity;
      this.corpus.forEach((e, i) => {
        const w = this.weightOf(e);
        if (w < worstWeight) {
          worst = i;
          worstWeight = w;
        }
      });
      this.corpus.splice(worst, 1);
    }
    return { fresh, closer };
  }

  /** Whether the entry is the closest run so far to breaking some watched invariant. */
  isClosest(e: Entry): boolean {
    for (const c of this.closest.values()) if (c.entry === e) return true;
    return false;
  }
  /** An entry's weight: 1 + 1000 x the sum of 1/hits over the features it brought (a whole number, for Rng.weighted). */
  private weightOf(e: Entry): number {
    let w = 0;
    for (const f of e.brought) w += 1 / (this.hits.get(f) ?? 1);
    return 1 + Math.round(1000 * w) + (this.isClosest(e) ? CLOSEST_WEIGHT : 0);
  }
}

/**
 * The calls that set a pod up or take it down: their latencies decide what a step of the timeline
 * lands on. The other CRI calls (status, listings) are quick and frequent, and move little.
 */
const LIFECYCLE_METHODS = new Set(["RunPodSandbox", "StopPodSandbox", "RemovePodSandbox", "PullImage", "CreateContainer", "StartContainer", "StopContainer", "RemoveContainer"]);

/**
 * A knob's prior: the timeline's steps first (when the world acts is what most races turn on),
 * then the latencies of lifecycle calls, the apiserver, bindings and event delays, then the rest.
 */
function knobPrior(def: KnobDef): number {
  const t = def.target;
  if (t.kind === "step") return 4;
  if (t.kind === "latency") return LIFECYCLE_METHODS.has(t.method) ? 2 : 1;
  if (t.kind === "watch" || t.kind === "fault") return 1;
  return 2;
}
