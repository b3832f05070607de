// pos: Partial Order Sampling (Yuan, Yang and Gu, "Partial Order Aware Concurrency Sampling",
// CAV 2018; the scheduler Fray ships, OOPSLA 2025; Shuttle's PosScheduler). Every pending operation
// carries a random priority and the highest-priority runnable process always runs. After it runs,
// its next operation gets a fresh priority, and so does every runnable process whose pending
// operation races with the one just run: the same resource. Operations that do not race keep
// their relative order, so each partial order of racing operations is sampled about evenly, where
// a random walk favours orders that run the newest-woken process first.
//
// A process's pending operation here is what it resumes from (Process.resumeOn): the channel it
// received from or sent on, the lock it acquired, the wait group, or the call it made (an
// apiserver path, a CRI method: "GET /api/v1/...", "cri StartContainer"). Everything it then does
// up to its next yield belongs to that operation, as the kernel runs it without interruption. A
// plain sleep, a gosched and a freshly spawned process touch no named resource and race with
// nothing. Simplified: every operation on a resource counts as a write (channel and lock operations
// all are), and priorities do not decay over time as Shuttle's do: a discrete-event run drains the
// ready queue before the clock moves, so a low priority never starves a process for long.
// Select cases and model choices are uniform, as in Go.
import type { ProcList, ProcRef, Strategy } from "./strategy.ts";
import type { ChoiceKind } from "../choices.ts";
import type { Rng } from "../rng.ts";

const PRIORITY_RANGE = 1 << 30;

/** Whether two pending operations race: both on the same named resource. */
export function racing(a: unknown, b: unknown): boolean {
  return a !== null && a !== undefined && a === b;
}

export class PosStrategy implements Strategy {
  readonly name = "pos";
  private readonly priority = new Map<number, number>();

  constructor(private readonly rng: Rng) {}

  onSpawn(proc: ProcRef): void {
    this.priority.set(proc.id, this.rng.below(PRIORITY_RANGE));
  }

  choose(kind: ChoiceKind, n: number, procs: ProcList | null): number {
    if (kind !== "proc" || procs === null) return this.rng.below(n);
    const best = this.highest(procs);
    const ran = procs.at(best).resumeOn;
    // Fresh priorities for the chosen process's next operation and for every racing one, in
    // ready-queue order so the draws are a function of the seed.
    for (let i = 0; i < procs.length; i++) {
      const p = procs.at(i);
      if (i === best || racing(p.resumeOn, ran)) this.priority.set(p.id, this.rng.below(PRIORITY_RANGE));
    }
    return best;
  }

  /** Priorities of the processes in the list (for tests). */
  priorities(procs: ProcList): number[] {
    const out: number[] = [];
    for (let i = 0; i < procs.length; i++) out.push(this.priority.get(procs.at(i).id) ?? -1);
    return out;
  }

  private highest(procs: ProcList): number {
    let best = 0;
    let bestPrio = -1;
    for (let i = 0; i < procs.length; i++) {
      const p = procs.at(i);
      let prio = this.priority.get(p.id);
      if (prio === undefined) {
        prio = this.rng.below(PRIORITY_RANGE);
        this.priority.set(p.id, prio);
      }
      // Ties (rare) go to the lower process id, so the choice stays a function of the seed.
      if (prio > bestPrio || (prio === bestPrio && p.id < procs.at(best).id)) {
        best = i;
        bestPrio = prio;
      }
    }
    return best;
  }
}
