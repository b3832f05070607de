// pct: Probabilistic Concurrency Testing (Burckhardt et al., ASPLOS 2010), depth d.
// Each process gets a random priority >= d when spawned; the highest-priority runnable process
// always runs. At d-1 change points, drawn uniformly among the first `steps` scheduling steps
// (steps where more than one process could run), the process about to run drops to priority
// d-i. A bug of depth d among n processes and k steps is found with probability at least
// 1/(n*k^(d-1)) per run. Select cases and model choices are uniform, as in Go.
import type { ProcList, ProcRef, Strategy } from "./strategy.ts";
import type { ChoiceKind } from "../choices.ts";
import type { Rng } from "../rng.ts";

export interface PctOptions {
  depth: number;
  /** Estimated number of scheduling steps in a run (k in the PCT bound). */
  steps: number;
}

export class PctStrategy implements Strategy {
  readonly name: string;
  private readonly priority = new Map<number, number>();
  private readonly changeAt: Map<number, number>;
  private step = 0;

  constructor(
    private readonly rng: Rng,
    private readonly opts: PctOptions,
  ) {
    if (!Number.isInteger(opts.depth) || opts.depth < 1) throw new RangeError(`pct depth must be >= 1`);
    if (!Number.isInteger(opts.steps) || opts.steps < 1) throw new RangeError(`pct steps must be >= 1`);
    this.name = `pct:${opts.depth}:${opts.steps}`;
    this.changeAt = this.drawChangePoints();
  }

  onSpawn(proc: ProcRef): void {
    // Initial priorities lie above every change-point priority (which are 1..d-1).
    this.priority.set(proc.id, this.opts.depth + this.rng.below(1 << 30));
  }

  choose(kind: ChoiceKind, n: number, procs: ProcList | null): number {
    if (kind !== "proc" || procs === null) return this.rng.below(n);
    this.step++;
    let best = this.highest(procs);
    const lowered = this.changeAt.get(this.step);
    if (lowered !== undefined) {
      this.priority.set(procs.at(best).id, lowered);
      best = this.highest(procs);
    }
    return best;
  }

  private highest(procs: ProcList): number {
    let best = 0;
    let bestPrio = -1;
    for (let i = 0; i < procs.length; i++) {
      const p = this.priority.get(procs.at(i).id) ?? 0;
      // Ties (vanishingly rare) go to the lower process id, so the choice stays a function of the seed.
      if (p > bestPrio || (p === bestPrio && procs.at(i).id < procs.at(best).id)) {
        best = i;
        bestPrio = p;
      }
    }
    return best;
  }

  /** d-1 distinct steps in [1, steps]; the i-th (in draw order) lowers priority to d-i. */
  private drawChangePoints(): Map<number, number> {
    const points = new Map<number, number>();
    const wanted = Math.min(this.opts.depth - 1, this.opts.steps);
    for (let i = 1; points.size < wanted; ) {
      const s = 1 + this.rng.below(this.opts.steps);
      if (points.has(s)) continue;
      points.set(s, this.opts.depth - i);
      i++;
    }
    return points;
  }
}
