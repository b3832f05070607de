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

  constructor(invariants: readonly string[], scenario: Scenario) {
    this.monitors = makeMonitors(invariants, scenario).filter((m) => m.distance !== undefined);
    const reads = this.monitors.map((m) => (m.reads === undefined ? m.kinds : Object.keys(m.reads)));
    if (reads.every((k) => k !== undefined)) this.kinds = new Set(reads.flatMap((k) => k!));
  }

  /** Whether any watched monitor measures a distance (else the sink need not run). */
  get measures(): boolean {
    return this.monitors.length > 0;
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
