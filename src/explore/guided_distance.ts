// Directed feedback for the guided strategy (after AFLGo, Böhme et al., CCS 2017): beside the
// coverage features, each watched invariant whose monitor measures a distance (InvariantMonitor
// .distance, in the monitor's own unit, 0 once broken) reports how close the run came to breaking
// it. Guided keeps a run that came closer than any earlier run of its island and works on it first
// (guided_island.ts). Generic: no race or scenario is known here, only the monitors' own measures;
// a monitor without a distance reports none.
//
// The sink runs its own copies of the monitors, so the checker and the trace are untouched: it
// writes nothing, and it reads only the record kinds its monitors declare.
import type { TraceRecord, TraceSink } from "../sim/index.ts";
import type { Scenario } from "../scenario/resolve.ts";
import { makeMonitors, type InvariantMonitor } from "../check/invariants.ts";

export class DistanceSink implements TraceSink {
  readonly wantsLines = false;
  readonly kinds?: ReadonlySet<string>;
  private readonly monitors: InvariantMonitor[];

  /**
   * The watched invariants whose monitors measure a distance. Whether a monitor does is a property
   * of its kind, not of the scenario, so an exploration asks once and builds only those per run
   * (a campaign watches every invariant, and most measure none).
   */
  static measuredIds(invariants: readonly string[], scenario: Scenario): string[] {
    return makeMonitors(invariants, scenario).filter((m) => m.distance !== undefined).map((m) => m.id);
  }

  /** `invariants`: ids that measuredIds returned (monitors without a distance are left out anyway). */
  constructor(invariants: readonly string[], scenario: Scenario) {
    this.monitors = makeMonitors(invariants, scenario).filter((m) => m.distance !== undefined);
    const reads = this.monitors.map((m) => (m.reads === undefined ? m.kinds : Object.keys(m.reads)));
    if (reads.every((k) => k !== undefined)) this.kinds = new Set(reads.flatMap((k) => k!));
  }

  write(rec: TraceRecord): void {
    for (const m of this.monitors) m.observe(rec);
  }

  advance(t: number): void {
    for (const m of this.monitors) m.advance?.(t);
  }

  /** The closest each monitor came, by invariant id (those that measured something). */
  distances(): Map<string, number> {
    const out = new Map<string, number>();
    for (const m of this.monitors) {
      const d = m.distance!();
      if (d !== null) out.set(m.id, d);
    }
    return out;
  }
}
